// How an order's money divides: what is left to pay by card, in parts or on receipt once gift
// certificates paid their part, and how a return is given back. Pure.

import { PAYMENT_ID } from '~/shared/checkout-ids';

export interface OrderMoney {
  /** What the receipt adds up to: items less promo and bonuses, plus delivery. */
  totalKopecks: number;
  /** The part paid with gift certificates. */
  certificateKopecks: number;
}

/** What the payment provider (or the courier) takes. */
export function amountDue(order: OrderMoney): number {
  return order.totalKopecks - order.certificateKopecks;
}

/** One order line and how much of it a return takes back. */
export interface ReturnLine {
  unitPriceKopecks: number;
  /** The line's whole quantity, and how many were returned before this return. */
  quantity: number;
  returnedBefore: number;
  /** How many this return takes back. */
  returning: number;
  discountKopecks: number;
  bonusKopecks: number;
}

/**
 * A share of a line for `n` of its `q` units, so that the shares of successive partial returns
 * add up to the whole exactly: f(n) = round(whole × n / q), f(q) = whole.
 */
function shareOf(whole: number, n: number, q: number): number {
  return Math.round((whole * n) / q);
}

export interface RefundPlan {
  /** Bonuses spent on the returned units, back to the lots they came from. */
  bonusKopecks: number;
  /** Money back to gift certificates (first: a certificate is never turned into money on a card). */
  certificateKopecks: number;
  /** Money back through the provider that was paid (card, pay in parts) or by transfer. */
  providerKopecks: number;
  /** The money of the returned units (and the delivery, when refunded). */
  moneyKopecks: number;
}

/**
 * What a return gives back. Each returned unit's money is its price less its promo and bonus
 * shares; the bonus share goes back as bonuses. The money goes to the certificates that paid the
 * order first, up to what they paid and were not yet given back, then to the provider, up to what
 * it took and was not yet refunded. More than was paid cannot come out of it.
 */
export function planRefund(input: {
  lines: readonly ReturnLine[];
  /** The delivery cost, when this return refunds it (our error or a defect), and not refunded before. */
  deliveryKopecks: number;
  certificatePaidKopecks: number;
  certificateRefundedKopecks: number;
  providerPaidKopecks: number;
  providerRefundedKopecks: number;
}): RefundPlan {
  let money = input.deliveryKopecks;
  let bonus = 0;
  for (const l of input.lines) {
    if (l.returning <= 0) continue;
    if (l.returnedBefore + l.returning > l.quantity) throw new RangeError('returning more than was bought');
    const after = l.returnedBefore + l.returning;
    const lineMoney = l.unitPriceKopecks * l.quantity - l.discountKopecks - l.bonusKopecks;
    money += shareOf(lineMoney, after, l.quantity) - shareOf(lineMoney, l.returnedBefore, l.quantity);
    bonus += shareOf(l.bonusKopecks, after, l.quantity) - shareOf(l.bonusKopecks, l.returnedBefore, l.quantity);
  }
  const certificateLeft = Math.max(0, input.certificatePaidKopecks - input.certificateRefundedKopecks);
  const providerLeft = Math.max(0, input.providerPaidKopecks - input.providerRefundedKopecks);
  const certificate = Math.min(money, certificateLeft);
  const provider = Math.min(money - certificate, providerLeft);
  return { bonusKopecks: bonus, certificateKopecks: certificate, providerKopecks: provider, moneyKopecks: certificate + provider };
}

/** Which provider a payment id refunds through; 'transfer' for pay on receipt (staff pay by hand). */
export function refundMeans(paymentId: string): 'cloudpayments' | 'dolyami' | 'yandex-split' | 'transfer' {
  if (paymentId === PAYMENT_ID.cardOnline) return 'cloudpayments';
  if (paymentId === PAYMENT_ID.dolyami) return 'dolyami';
  if (paymentId === PAYMENT_ID.yandexSplit) return 'yandex-split';
  return 'transfer';
}
