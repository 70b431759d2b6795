import { describe, expect, it } from 'vitest';
import {
  isNewsletterToken,
  marketingMail,
  maskNewsletterEmail,
  newsletterConfirmMail,
  newsletterWelcomeMail,
} from './newsletter';

const SITE = 'https://vitrina.ru';
const TOKEN = 'AbC_dEf-0123456789abcdefghijklmnopqrstuvwxy';

describe('newsletter letters', () => {
  it('every marketing letter ends with the unsubscribe link and carries RFC 8058 one-click headers', () => {
    const letter = marketingMail({
      siteUrl: SITE,
      token: TOKEN,
      subject: 'Новая коллекция',
      paragraphs: ['Здравствуйте!', 'Пальто <уже> в продаже & ждут вас.'],
    });
    const url = `${SITE}/newsletter/unsubscribe/?token=${TOKEN}`;
    expect(letter.headers).toEqual({
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(letter.text).toContain(url);
    expect(letter.html).toContain(`<a href="${url}">Отписаться от рассылки</a>`);
    // The caller's text is escaped in HTML.
    expect(letter.html).toContain('Пальто &#60;уже&#62; в продаже &#38; ждут вас.');
    expect(newsletterWelcomeMail({ siteUrl: SITE, token: TOKEN }).headers).toEqual(letter.headers);
  });

  it('the confirmation letter links to the confirmation page and promises nothing is sent without it', () => {
    const letter = newsletterConfirmMail({ siteUrl: SITE, token: TOKEN });
    expect(letter.subject).toBe('Подтвердите подписку на рассылку Vitrina');
    expect(letter.text).toContain(`${SITE}/newsletter/confirm/?token=${TOKEN}`);
    expect(letter.html).toContain(`<a href="${SITE}/newsletter/confirm/?token=${TOKEN}">Подтвердить подписку</a>`);
    expect(letter.text).toContain('без подтверждения мы не будем присылать');
  });

  it('tokens and masked addresses', () => {
    expect(isNewsletterToken(TOKEN)).toBe(true);
    expect(isNewsletterToken('a'.repeat(64))).toBe(true);
    for (const bad of ['', 'short', 'a'.repeat(129), `${TOKEN}'`, `${TOKEN}/`, null, 42])
      expect(isNewsletterToken(bad)).toBe(false);
    expect(maskNewsletterEmail('anna@example.com')).toBe('an***@example.com');
    expect(maskNewsletterEmail('a@example.com')).toBe('a***@example.com');
  });
});
