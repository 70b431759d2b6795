import { describe, expect, it } from 'vitest';
import { certificateMail, CERTIFICATE_HOW_TO_USE } from './certificate-mail';

const NBSP = /\u00a0/g;

describe('certificate mail', () => {
  const mail = certificateMail({
    nominalKopecks: 1_000_000,
    code: '4000123456789010',
    expiresAt: new Date('2027-11-24T15:30:00Z'),
    orderId: 77,
    siteUrl: 'https://vitrina.example',
  });

  it('names the nominal, the number in groups of four and the last day (Moscow) in text and HTML', () => {
    expect(mail.subject.replace(NBSP, ' ')).toBe('Подарочный сертификат Vitrina на 10 000 ₽');
    const text = mail.text.replace(NBSP, ' ');
    expect(text).toContain('Номинал: 10 000 ₽');
    expect(text).toContain('Номер сертификата: 4000 1234 5678 9010');
    expect(text).toContain('Действует до 24 ноября 2027');
    expect(text).toContain('заказе №77');
    expect(text).toContain('https://vitrina.example/podarochnye-sertifikaty/');
    for (const line of CERTIFICATE_HOW_TO_USE) expect(text).toContain(line);
    expect(mail.html).toContain('4000 1234 5678 9010');
    expect(mail.html.replace(NBSP, ' ')).toContain('10 000 ₽');
    expect(mail.html).toContain('24 ноября 2027');
  });

  it('a late evening in Moscow is already the next day', () => {
    const late = certificateMail({
      nominalKopecks: 500_000,
      code: '4000123456789010',
      expiresAt: new Date('2027-11-24T22:30:00Z'),
      orderId: 1,
      siteUrl: '',
    });
    expect(late.text).toContain('Действует до 25 ноября 2027');
  });

  it('escapes what it puts in HTML', () => {
    const odd = certificateMail({
      nominalKopecks: 500_000,
      code: '4000123456789010',
      expiresAt: new Date('2027-01-01T00:00:00Z'),
      orderId: 1,
      siteUrl: 'https://x.example/"><script>',
    });
    expect(odd.html).not.toContain('"><script>');
  });

  it('one issued by hand (no order) names no order', () => {
    const byHand = certificateMail({
      nominalKopecks: 500_000,
      code: '4000123456789010',
      expiresAt: new Date('2027-11-24T15:30:00Z'),
      orderId: null,
      siteUrl: 'https://vitrina.example',
    });
    expect(byHand.text).not.toContain('заказе');
    expect(byHand.html).not.toContain('заказе');
    expect(byHand.text).toContain('Номер сертификата: 4000 1234 5678 9010');
  });
});
