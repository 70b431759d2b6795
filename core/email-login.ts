// Login by a code sent by e-mail (SPEC §2 /auth/email/): the two letters an address can get.
// Both answer the same on the page, so the form never tells whether an address is registered;
// only the owner of the mailbox learns it, from the letter.

/** Outbox and log tags of the two letters. */
export const EMAIL_LOGIN_TAG = { code: 'login-code', noAccount: 'login-no-account' } as const;

/** The captcha action the e-mail form asks a token for. */
export const EMAIL_CAPTCHA_ACTION = 'send_email';

export interface LoginMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const origin = (siteUrl: string) => siteUrl.replace(/\/+$/, '');

function letter(
  subject: string,
  paragraphs: string[],
  siteUrl: string,
  link?: { href: string; label: string },
): LoginMail {
  const signature = ['Команда Vitrina', origin(siteUrl)];
  const linkText = link ? `\n\n${link.label}: ${link.href}` : '';
  return {
    subject,
    text: `${paragraphs.join('\n\n')}${linkText}\n\n${signature.join('\n')}\n`,
    html:
      paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n') +
      (link ? `\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : '') +
      `\n<p>${escapeHtml(signature[0]!)}<br><a href="${escapeHtml(signature[1]!)}">${escapeHtml(signature[1]!.replace(/^https?:\/\//, ''))}</a></p>\n`,
  };
}

/** The letter with the code, to an address a customer gave in their profile. */
export function loginCodeMail({ code, siteUrl }: { code: string; siteUrl: string }): LoginMail {
  return letter(
    'Код для входа в Vitrina',
    [
      'Здравствуйте!',
      `Код для входа в Vitrina: ${code}`,
      'Код действует 5 минут. Никому его не сообщайте: сотрудники Vitrina никогда его не спрашивают.',
      'Если вы не входили на сайт, просто не отвечайте на это письмо.',
    ],
    siteUrl,
  );
}

/** The letter to an address no customer has: no code, and the way in by phone. */
export function noAccountMail({ siteUrl }: { siteUrl: string }): LoginMail {
  return letter(
    'Вход в Vitrina',
    [
      'Здравствуйте!',
      'Кто-то запросил код для входа в Vitrina на этот адрес, но ни один личный кабинет его не использует.',
      'Войдите по номеру телефона, а потом укажите этот адрес в профиле — и сможете входить по e-mail.',
      'Если вы не входили на сайт, просто не отвечайте на это письмо.',
    ],
    siteUrl,
    { href: `${origin(siteUrl)}/auth/`, label: 'Войти по номеру телефона' },
  );
}
