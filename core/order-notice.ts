import { formatRub } from './money';
import { formatRussianDate } from './dates';
import { moscowClock } from './payment-notice';
import { finalRow, moneyRows, type OrderBreakdown } from './order-money';

// The SMS and the e-mail a customer gets when a checkout order is placed (shipment.md: «Сразу
// после оформления на указанную почту приходит письмо с номером заказа и его составом»).

export interface OrderNoticeLine {
  title: string;
  size: string;
  quantity: number;
  /** Kopecks: price × quantity less the line's promo share. */
  sumKopecks: number;
  isPreorder: boolean;
  isGift: boolean;
}

export interface OrderNotice {
  orderId: number;
  customerName: string;
  lines: readonly OrderNoticeLine[];
  /** The order's money (core/order-money.ts): the letter's rows and the SMS's amount. */
  money: OrderBreakdown;
  deliveryName: string;
  deliveryAddress: string;
  dateFrom: string | null;
  dateTo: string | null;
  deliveryNote: string | null;
  paymentName: string;
  awaitingPayment: boolean;
  /** An order awaiting online payment: until when its hold lasts, and where to pay (the letter right after placing). */
  pay?: { until: Date; url: string } | null;
  /** Electronic gift certificates only (delivery by e-mail): nothing ships, no track number. */
  byEmail?: boolean;
}

/**
 * The SMS: the number and the amount of the breakdown's last row, so it says what the letter and
 * the order page say: paid online, to pay on receipt (after certificates), or to pay.
 */
export function orderPlacedSms(n: Pick<OrderNotice, 'orderId' | 'money' | 'awaitingPayment' | 'byEmail'>): string {
  const tail = n.awaitingPayment
    ? 'Менеджер свяжется с вами по оплате.'
    : n.byEmail
      ? 'Электронный сертификат придёт на e-mail в течение часа после оплаты.'
      : 'Менеджер свяжется с вами для подтверждения.';
  const final = finalRow(n.money);
  if (n.money.dueKopecks === 0 && n.money.certificateKopecks > 0)
    return `Vitrina: заказ №${n.orderId} оформлен и оплачен подарочными сертификатами. ${tail}`;
  if (n.money.channel === 'online' && n.money.paidOnlineKopecks > 0)
    return `Vitrina: заказ №${n.orderId} оформлен и оплачен, оплата ${formatRub(final.kopecks)} прошла. ${tail}`;
  return `Vitrina: заказ №${n.orderId} оформлен, ${final.label.toLowerCase()} ${formatRub(final.kopecks)}. ${tail}`;
}

export function deliveryDatesText(from: string | null, to: string | null): string | null {
  if (!from) return null;
  const a = formatRussianDate(from);
  if (!to || to === from) return a;
  return `${a} — ${formatRussianDate(to)}`;
}

export function orderPlacedMail(n: OrderNotice, siteUrl: string): { subject: string; text: string; html: string } {
  const subject = n.pay ? `Заказ №${n.orderId} оформлен и ждёт оплаты` : `Заказ №${n.orderId} оформлен`;
  // An electronic certificate has no size to speak of ('Единый').
  const lineText = (l: OrderNoticeLine) =>
    `${l.title}${l.size && !n.byEmail ? `, размер ${l.size}` : ''} × ${l.quantity}${l.isPreorder ? ' (предзаказ)' : ''} — ${l.isGift ? 'в подарок' : formatRub(l.sumKopecks)}`;
  const dates = deliveryDatesText(n.dateFrom, n.dateTo);
  // An e-mail order ships nothing: no delivery row.
  const rows: [string, string][] = moneyRows(n.money)
    .filter((r) => !(n.byEmail && r.key === 'delivery'))
    .map((r) => [r.label, r.text]);
  const next = n.pay
    ? `Заказ ждёт оплаты до ${moscowClock(n.pay.until)} по Москве: до этого времени вещи отложены для вас. Если не успеете, заказ отменится.`
    : n.awaitingPayment
      ? 'Заказ ожидает оплаты: менеджер свяжется с вами, чтобы подтвердить заказ и помочь с оплатой.'
      : n.byEmail
        ? 'Электронный сертификат придёт на этот адрес отдельным письмом в течение часа после оплаты — в виде открытки с уникальным номером.'
        : 'Менеджер свяжется с вами, чтобы подтвердить заказ. Отправим его в течение 3 рабочих дней и пришлём трек-номер.';
  const deliveryLine = n.byEmail
    ? `Доставка: ${n.deliveryName}`
    : `Доставка: ${n.deliveryName}${n.deliveryAddress ? `, ${n.deliveryAddress}` : ''}`;
  const text = [
    `${n.customerName ? `${n.customerName}, с` : 'С'}пасибо за заказ!`,
    '',
    `Заказ №${n.orderId}`,
    ...n.lines.map(lineText),
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    '',
    deliveryLine,
    ...(dates && !n.byEmail ? [`Ожидаемая дата доставки: ${dates}`] : []),
    ...(n.deliveryNote && !n.byEmail ? [n.deliveryNote] : []),
    `Оплата: ${n.paymentName}`,
    '',
    next,
    ...(n.pay ? [`Оплатить заказ: ${n.pay.url}`] : []),
    `Статус заказа — в личном кабинете: ${siteUrl}/personal/`,
  ].join('\n');
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html = `<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#1d1d1b;max-width:560px">
<h1 style="font-size:20px">${esc(subject)}</h1>
<p>${esc(n.customerName ? `${n.customerName}, спасибо за заказ!` : 'Спасибо за заказ!')}</p>
<ul>${n.lines.map((l) => `<li>${esc(lineText(l))}</li>`).join('')}</ul>
<table>${rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td style="text-align:right">${esc(v)}</td></tr>`).join('')}</table>
<p>${esc(deliveryLine)}${dates && !n.byEmail ? `<br>Ожидаемая дата доставки: ${esc(dates)}` : ''}${n.deliveryNote && !n.byEmail ? `<br>${esc(n.deliveryNote)}` : ''}</p>
<p>Оплата: ${esc(n.paymentName)}</p>
<p>${esc(next)}</p>
${n.pay ? `<p><a href="${esc(n.pay.url)}" style="display:inline-block;padding:12px 24px;background:#1d1d1b;color:#fff;text-decoration:none">Оплатить заказ</a></p>` : ''}
<p><a href="${esc(siteUrl)}/personal/">Личный кабинет</a></p>
</body></html>`;
  return { subject, text, html };
}

/** CDEK's public tracking page for a track number. */
export function cdekTrackingUrl(trackNumber: string): string {
  return `https://www.cdek.ru/ru/tracking/?order_id=${encodeURIComponent(trackNumber)}`;
}

/** shipment.md: «Когда заказ передан в СДЭК, мы отправляем вам SMS и письмо с трек-номером». The courier's: he calls ahead. */
export function orderShippedSms(n: { orderId: number; trackNumber: string | null; courier: boolean }): string {
  if (n.courier)
    return `Vitrina: заказ №${n.orderId} передан курьеру. Курьер позвонит заранее, чтобы согласовать время.`;
  return `Vitrina: заказ №${n.orderId} передан в СДЭК${n.trackNumber ? `, трек-номер ${n.trackNumber}` : ''}.`;
}

export function orderShippedMail(
  n: { orderId: number; customerName: string; trackNumber: string | null; courier: boolean },
  siteUrl: string,
) {
  const subject = `Заказ №${n.orderId} передан в доставку`;
  const greeting = n.customerName ? `${n.customerName}, здравствуйте!` : 'Здравствуйте!';
  const lines = n.courier
    ? [
        `Заказ №${n.orderId} передан нашему курьеру. Он позвонит заранее, чтобы согласовать время. На примерку у вас будет 15 минут.`,
      ]
    : [
        `Заказ №${n.orderId} передан в СДЭК.`,
        ...(n.trackNumber
          ? [`Трек-номер: ${n.trackNumber}. Отследить посылку: ${cdekTrackingUrl(n.trackNumber)}`]
          : []),
        'Когда посылка прибудет, СДЭК пришлёт уведомление.',
      ];
  const text = [greeting, '', ...lines, '', `Статус заказа — в личном кабинете: ${siteUrl}/personal/`].join('\n');
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html = `<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#1d1d1b;max-width:560px">
<h1 style="font-size:20px">${esc(subject)}</h1>
<p>${esc(greeting)}</p>
${lines.map((l) => `<p>${esc(l)}</p>`).join('\n')}
<p><a href="${esc(siteUrl)}/personal/">Личный кабинет</a></p>
</body></html>`;
  return { subject, text, html };
}
