import { describe, expect, it } from 'vitest';
import { loginCodeMail, noAccountMail } from './email-login';

describe('e-mail login letters', () => {
  it('the code letter carries the code in text and HTML, and links the shop', () => {
    const mail = loginCodeMail({ code: '012345', siteUrl: 'https://vitrina.ru/' });
    expect(mail.subject).toBe('Код для входа в Vitrina');
    expect(mail.text).toContain('Код для входа в Vitrina: 012345\n');
    expect(mail.html).toContain('Код для входа в Vitrina: 012345');
    expect(mail.text).toContain('https://vitrina.ru\n');
  });

  it('the no-account letter has no code, and links the phone login', () => {
    const mail = noAccountMail({ siteUrl: 'http://shop.test' });
    expect(mail.text).not.toMatch(/\d{6}/);
    expect(mail.text).toContain('Войти по номеру телефона: http://shop.test/auth/');
    expect(mail.html).toContain('<a href="http://shop.test/auth/">Войти по номеру телефона</a>');
  });

  it('escapes the site address in HTML', () => {
    expect(noAccountMail({ siteUrl: 'https://a.test/"><script>' }).html).not.toContain('<script>');
  });
});
