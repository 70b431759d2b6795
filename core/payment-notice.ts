import { formatRub } from './money';
import { moscowNow } from './working-days';

// An order awaiting online payment (card, Dolyami, Yandex Split) and what its customer is told
// (issue #26 item 4): right after placing, the pay link; shortly before the hold ends, a
// reminder; when the hold ended and the order was cancelled, a notice that offers the same
// lines back in the basket. Pure: the links are built from the site's address.

/** How long before the hold ends the reminder goes: 10 minutes, or half the hold when it is shorter. */
export const PAYMENT_REMINDER_LEAD_MINUTES = 10;

/** When the reminder is due for a hold from `placedAt` to `payUntil`. */
export function paymentReminderAt(placedAt: Date, payUntil: Date): Date {
  const holdMs = Math.max(0, payUntil.getTime() - placedAt.getTime());
  const leadMs = Math.min(PAYMENT_REMINDER_LEAD_MINUTES * 60_000, holdMs / 2);
  return new Date(payUntil.getTime() - leadMs);
}

/** Whole minutes left until `payUntil` (at least 1 while any time is left). */
export function minutesLeft(now: Date, payUntil: Date): number {
  return Math.max(0, Math.ceil((payUntil.getTime() - now.getTime()) / 60_000));
}

/** '14:05': the Moscow time of an instant. */
export function moscowClock(at: Date): string {
  const { minutes } = moscowNow(at);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The pay link of an order (the pay page asks its customer to log in; nobody else sees the order). */
export const payLink = (siteUrl: string, orderId: number) => `${siteUrl}/basket/pay/?order=${orderId}`;
/** The page of a cancelled order that puts its lines back in the basket. */
export const repeatLink = (siteUrl: string, orderId: number) => `${siteUrl}/basket/repeat/?order=${orderId}`;

export interface PaymentNoticeOrder {
  orderId: number;
  /** First name, or ''. */
  customerName: string;
  /** What is left to pay (after gift certificates). */
  dueKopecks: number;
  payUntil: Date;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function letter(
  subject: string,
  greeting: string,
  paragraphs: string[],
  link: { href: string; text: string },
  siteUrl: string,
) {
  const text = [
    greeting,
    '',
    ...paragraphs,
    '',
    `${link.text}: ${link.href}`,
    '',
    `Все заказы — в личном кабинете: ${siteUrl}/personal/`,
  ].join('\n');
  const html = `<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#1d1d1b;max-width:560px">
<h1 style="font-size:20px">${esc(subject)}</h1>
<p>${esc(greeting)}</p>
${paragraphs.map((p) => `<p>${esc(p)}</p>`).join('\n')}
<p><a href="${esc(link.href)}" style="display:inline-block;padding:12px 24px;background:#1d1d1b;color:#fff;text-decoration:none">${esc(link.text)}</a></p>
<p><a href="${esc(siteUrl)}/personal/">Личный кабинет</a></p>
</body></html>`;
  return { subject, text, html };
}

const greet = (name: string) => (name ? `${name}, здравствуйте!` : 'Здравствуйте!');

/** Right after placing: the SMS with the pay link. */
export function awaitingPaymentSms(n: PaymentNoticeOrder, siteUrl: string): string {
  return `Vitrina: заказ №${n.orderId} на ${formatRub(n.dueKopecks)} ждёт оплаты до ${moscowClock(n.payUntil)} мск. Оплатить: ${payLink(siteUrl, n.orderId)}`;
}

/** Shortly before the hold ends. */
export function paymentReminderSms(n: PaymentNoticeOrder, siteUrl: string, now: Date): string {
  return `Vitrina: заказ №${n.orderId} ждёт оплаты ещё ${minutesLeft(now, n.payUntil)} мин, до ${moscowClock(n.payUntil)} мск. Оплатить: ${payLink(siteUrl, n.orderId)}`;
}

export function paymentReminderMail(n: PaymentNoticeOrder, siteUrl: string, now: Date) {
  const left = minutesLeft(now, n.payUntil);
  return letter(
    `Заказ №${n.orderId} ждёт оплаты`,
    greet(n.customerName),
    [
      `Заказ №${n.orderId} на ${formatRub(n.dueKopecks)} ещё не оплачен. Вещи отложены для вас до ${moscowClock(n.payUntil)} по Москве — осталось ${left} мин.`,
      'Если не успеете, заказ отменится, а вещи вернутся в продажу.',
    ],
    { href: payLink(siteUrl, n.orderId), text: 'Оплатить заказ' },
    siteUrl,
  );
}

/** The hold ended: the order was cancelled; its lines can go back in the basket. */
export function paymentExpiredSms(n: Pick<PaymentNoticeOrder, 'orderId'>, siteUrl: string): string {
  return `Vitrina: время на оплату заказа №${n.orderId} истекло, заказ отменён. Вернуть вещи в корзину: ${repeatLink(siteUrl, n.orderId)}`;
}

export function paymentExpiredMail(n: Pick<PaymentNoticeOrder, 'orderId' | 'customerName'>, siteUrl: string) {
  return letter(
    `Заказ №${n.orderId} отменён: время на оплату истекло`,
    greet(n.customerName),
    [
      `Заказ №${n.orderId} не был оплачен вовремя, поэтому мы его отменили, а вещи вернулись в продажу. Если оплата всё же прошла, мы восстановим заказ или вернём деньги.`,
      'Если вы ещё хотите их купить, верните их в корзину одной кнопкой и оформите заказ снова — пока они есть в наличии.',
    ],
    { href: repeatLink(siteUrl, n.orderId), text: 'Вернуть вещи в корзину' },
    siteUrl,
  );
}
