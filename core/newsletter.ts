// The newsletter (SPEC §4 Newsletter form, §7 subscribe_form.php; issue #26): its texts, limits
// and letters, in one place. Double opt-in: the form's address gets a letter with a link, and
// only once that link's page is confirmed does it get marketing letters. Every marketing letter
// carries an unsubscribe link in its text and RFC 8058 one-click headers.

export const NEWSLETTER_TEXT = {
  /** The form's answer to a new (or not yet confirmed) address: a letter with the link went out. */
  checkMail: 'Почти готово! Мы отправили письмо на ваш адрес — подтвердите подписку по ссылке в нём.',
  already: 'Этот адрес уже подписан на рассылку',
  badEmail: 'Проверьте адрес электронной почты',
  tooMany: 'Слишком много попыток подписки. Попробуйте через час.',
} as const;

/** The confirmation and unsubscribe pages (app/routes/newsletter.tsx). */
export const NEWSLETTER_PAGE_TEXT = {
  confirmTitle: 'Подписка на рассылку',
  confirmAsk: (email: string) =>
    `Подтвердите, что хотите получать рассылку Vitrina на адрес ${email}: новости о коллекциях, поступлениях и специальных предложениях.`,
  confirmButton: 'Подтвердить подписку',
  confirmed: 'Спасибо! Вы подписались на рассылку Vitrina.',
  alreadyConfirmed: 'Подписка уже подтверждена. Спасибо!',
  unsubscribeTitle: 'Отписка от рассылки',
  unsubscribeAsk: (email: string) => `Больше не присылать рассылку Vitrina на адрес ${email}?`,
  unsubscribeButton: 'Отписаться',
  unsubscribed: 'Вы отписались от рассылки Vitrina. Писем с новостями больше не будет.',
  alreadyUnsubscribed: 'Этот адрес уже отписан от рассылки.',
  badLink: 'Ссылка недействительна или устарела. Чтобы подписаться, оставьте адрес в форме внизу страницы.',
  toHome: 'На главную',
} as const;

/** Subscriptions one client IP may ask for in an hour: each sends a letter to someone. */
export const NEWSLETTER_IP_LIMIT = { windowSeconds: 3600, limit: 10 } as const;

/** RFC 5321's longest usable address. */
export const EMAIL_MAX_LENGTH = 254;

/** The outbox and log tags: the letter with the confirmation link, and the first letter after it. */
export const NEWSLETTER_CONFIRM_TAG = 'newsletter-confirm';
export const NEWSLETTER_WELCOME_TAG = 'newsletter-welcome';

/** The pages the letters link to (with a trailing slash: the shop redirects other paths, and a redirected POST is lost). */
export const NEWSLETTER_CONFIRM_PATH = '/newsletter/confirm/';
export const NEWSLETTER_UNSUBSCRIBE_PATH = '/newsletter/unsubscribe/';

/** A token as the shop makes them (base64url of 32 random bytes) or as the migration made them (64 hex digits). */
export function isNewsletterToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{32,128}$/.test(value);
}

export const newsletterLink = (siteUrl: string, path: string, token: string) =>
  `${siteUrl}${path}?token=${encodeURIComponent(token)}`;

/** For the pages: enough for its owner to recognise the address, not enough to read it off a forwarded link. */
export function maskNewsletterEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  const local = address.slice(0, at);
  return `${local.slice(0, local.length > 2 ? 2 : 1)}***${address.slice(at)}`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface Letter {
  subject: string;
  text: string;
  html: string;
  /** Extra headers (List-Unsubscribe of marketing letters). */
  headers?: Record<string, string>;
}

/** A paragraph of text, or a link on a line of its own. */
type Block = string | { href: string; label: string };

function letter(subject: string, blocks: readonly Block[], siteUrl: string): Letter {
  const signature = ['Команда Vitrina', siteUrl];
  const text = blocks.map((b) => (typeof b === 'string' ? b : b.href)).join('\n\n');
  const html = blocks
    .map((b) =>
      typeof b === 'string'
        ? `<p>${escapeHtml(b)}</p>`
        : `<p><a href="${escapeHtml(b.href)}">${escapeHtml(b.label)}</a></p>`,
    )
    .join('\n');
  return {
    subject,
    text: `${text}\n\n${signature.join('\n')}\n`,
    html: `${html}\n<p>${escapeHtml(signature[0]!)}<br><a href="${escapeHtml(siteUrl)}">${escapeHtml(siteUrl.replace(/^https?:\/\//, ''))}</a></p>\n`,
  };
}

/** The letter the form's address gets: the link that confirms the subscription. Nothing else is sent until it is followed. */
export function newsletterConfirmMail({ siteUrl, token }: { siteUrl: string; token: string }): Letter {
  const href = newsletterLink(siteUrl, NEWSLETTER_CONFIRM_PATH, token);
  return letter(
    'Подтвердите подписку на рассылку Vitrina',
    [
      'Здравствуйте!',
      'Этот адрес указали в форме подписки на рассылку Vitrina. Чтобы получать новости о новых коллекциях, поступлениях и специальных предложениях, подтвердите подписку по ссылке:',
      { href, label: 'Подтвердить подписку' },
      'Если вы не подписывались, ничего делать не нужно: без подтверждения мы не будем присылать вам рассылку.',
    ],
    siteUrl,
  );
}

/**
 * A marketing letter: the body, then a line with the unsubscribe link, and the RFC 2369 and
 * RFC 8058 headers that let a mail client unsubscribe in one click (a POST to the same page,
 * which needs no login).
 */
export function marketingMail({
  siteUrl,
  token,
  subject,
  paragraphs,
}: {
  siteUrl: string;
  token: string;
  subject: string;
  paragraphs: readonly string[];
}): Letter {
  const unsubscribe = newsletterLink(siteUrl, NEWSLETTER_UNSUBSCRIBE_PATH, token);
  const body = letter(
    subject,
    [
      ...paragraphs,
      'Вы получили это письмо, потому что подписались на рассылку Vitrina. Отписаться можно в один клик:',
      { href: unsubscribe, label: 'Отписаться от рассылки' },
    ],
    siteUrl,
  );
  return {
    ...body,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** The first marketing letter, sent when the subscription is confirmed. */
export function newsletterWelcomeMail({ siteUrl, token }: { siteUrl: string; token: string }): Letter {
  return marketingMail({
    siteUrl,
    token,
    subject: 'Вы подписались на рассылку Vitrina',
    paragraphs: [
      'Здравствуйте!',
      'Спасибо, что подписались на рассылку Vitrina. Мы будем присылать новости о новых коллекциях, поступлениях и специальных предложениях.',
    ],
  });
}
