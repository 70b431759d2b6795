import { formatRub } from './money';
import { formatCertificateCode, moscowDate } from './gift-certificates';

// The letter an electronic gift certificate arrives in (content/pages/podarochnye-sertifikaty.md:
// «приходит на электронную почту … в виде красивой открытки с уникальным номером. Его можно
// переслать получателю или распечатать»). One letter a certificate, so each can be forwarded on
// its own; the card is a table with inline styles, as mail clients render nothing else reliably.

export const CERTIFICATE_MAIL_TAG = 'gift-certificate';

export interface CertificateMailInput {
  nominalKopecks: number;
  /** 16 digits. */
  code: string;
  expiresAt: Date;
  /** Null for one issued by hand by customer service. */
  orderId: number | null;
  siteUrl: string;
}

/** How to use it, in the content page's words (core/ cannot read content/, so it is kept here). */
export const CERTIFICATE_HOW_TO_USE: readonly string[] = [
  'На сайте — укажите номер сертификата при оформлении заказа: сумма к оплате уменьшится на номинал.',
  'В магазине — покажите номер сертификата на кассе.',
  'Если покупка дороже номинала, разницу можно доплатить картой. Если дешевле — остаток сохранится на сертификате, и его можно потратить в следующий раз в пределах срока действия.',
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function certificateMail(c: CertificateMailInput): { subject: string; text: string; html: string } {
  const nominal = formatRub(c.nominalKopecks);
  const code = formatCertificateCode(c.code);
  const until = moscowDate(c.expiresAt);
  const terms = `${c.siteUrl}/podarochnye-sertifikaty/`;
  const subject = `Подарочный сертификат Vitrina на ${nominal}`;
  const text = [
    'Подарочный сертификат Vitrina',
    '',
    `Номинал: ${nominal}`,
    `Номер сертификата: ${code}`,
    `Действует до ${until}`,
    '',
    'Как использовать:',
    ...CERTIFICATE_HOW_TO_USE.map((l) => `— ${l}`),
    '',
    'Это письмо можно переслать получателю подарка или распечатать.',
    `Условия: ${terms}`,
    ...(c.orderId !== null ? ['', `Сертификат куплен в заказе №${c.orderId}.`] : []),
  ].join('\n');
  const gold = '#c9a45a';
  const html = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>${esc(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f1ea;font-family:Arial,Helvetica,sans-serif;color:#1d1d1b">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f1ea"><tr><td align="center" style="padding:32px 12px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%">
<tr><td style="padding:0 0 20px;font-size:22px;letter-spacing:6px;text-align:center">VITRINA</td></tr>
<tr><td style="background:#141414;border-radius:18px;padding:10px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border:1px solid ${gold};border-radius:12px">
<tr><td style="padding:28px 28px 4px;color:${gold};font-size:13px;letter-spacing:3px;text-transform:uppercase">Подарочный сертификат</td></tr>
<tr><td style="padding:4px 28px 0;color:#f4f1ea;font-family:Georgia,'Times New Roman',serif;font-size:44px;line-height:1.2">${esc(nominal)}</td></tr>
<tr><td style="padding:24px 28px 4px;color:#9d978c;font-size:12px;letter-spacing:2px;text-transform:uppercase">Номер сертификата</td></tr>
<tr><td style="padding:0 28px;color:#f4f1ea;font-family:'Courier New',Courier,monospace;font-size:24px;letter-spacing:2px;white-space:nowrap">${esc(code)}</td></tr>
<tr><td style="padding:20px 28px 28px;color:#c9c3b8;font-size:14px">Действует до ${esc(until)}</td></tr>
</table>
</td></tr>
<tr><td style="padding:28px 4px 0;font-size:15px;line-height:1.5">
<h2 style="margin:0 0 8px;font-size:17px">Как использовать</h2>
<ul style="margin:0;padding-left:20px">
${CERTIFICATE_HOW_TO_USE.map((l) => `<li style="margin:0 0 6px">${esc(l)}</li>`).join('\n')}
</ul>
<p style="margin:16px 0 0">Это письмо можно переслать получателю подарка или распечатать.</p>
<p style="margin:8px 0 0"><a href="${esc(terms)}" style="color:#1d1d1b">Условия подарочных сертификатов</a></p>
${c.orderId !== null ? `<p style="margin:16px 0 0;color:#6f6a62;font-size:13px">Сертификат куплен в заказе №${c.orderId}.</p>` : ''}
</td></tr>
</table>
</td></tr></table>
</body></html>`;
  return { subject, text, html };
}
