// The newsletter form (SPEC §4 Newsletter form, §7 subscribe_form.php): its texts, limits and
// the confirmation letter, in one place.

export const NEWSLETTER_TEXT = {
  thanks: 'Спасибо! Вы подписались на рассылку Vitrina.',
  already: 'Этот адрес уже подписан на рассылку',
  badEmail: 'Проверьте адрес электронной почты',
  tooMany: 'Слишком много попыток подписки. Попробуйте через час.',
} as const;

/** Subscriptions one client IP may ask for in an hour: each sends a letter to someone. */
export const NEWSLETTER_IP_LIMIT = { windowSeconds: 3600, limit: 10 } as const;

/** RFC 5321's longest usable address. */
export const EMAIL_MAX_LENGTH = 254;

/** The outbox and log tag of the confirmation letter. */
export const NEWSLETTER_WELCOME_TAG = 'newsletter-welcome';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The letter a new subscriber gets: the same words as text and as HTML. */
export function newsletterWelcomeMail({ siteUrl }: { siteUrl: string }): { subject: string; text: string; html: string } {
  const paragraphs = [
    'Здравствуйте!',
    'Спасибо, что подписались на рассылку Vitrina. Мы будем присылать новости о новых коллекциях, поступлениях и специальных предложениях.',
    'Если вы не подписывались, просто ответьте на это письмо — мы удалим адрес из рассылки.',
  ];
  const signature = ['Команда Vitrina', siteUrl];
  return {
    subject: 'Вы подписались на рассылку Vitrina',
    text: `${paragraphs.join('\n\n')}\n\n${signature.join('\n')}\n`,
    html:
      paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n') +
      `\n<p>${escapeHtml(signature[0]!)}<br><a href="${escapeHtml(siteUrl)}">${escapeHtml(siteUrl.replace(/^https?:\/\//, ''))}</a></p>\n`,
  };
}
