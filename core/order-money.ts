// How an order's money divides: what is left to pay by card, in parts or on receipt once gift
// certificates paid their part, and how a return is given back. Pure.

import { PAYMENT_ID } from '~/shared/checkout-ids';
import type { CartResponse } from '~/shared/contract';
import { bonusCapKopecks, spreadBonuses, type LoyaltyLine } from './loyalty';
import { formatRub } from './money';
import { isOnSale, roublesToKopecks } from './pricing';

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

/** One order line as the breakdown needs it. */
export interface MoneyLine {
  priceKopecks: number;
  /** The price before the sale, when the item was on sale. */
  oldPriceKopecks: number | null;
  quantity: number;
  /** This line's share of the promo discount. */
  discountKopecks: number;
  /** This line's share of the bonuses spent. */
  bonusKopecks: number;
}

/** How the rest after certificates is paid: online (card, pay in parts), to the courier, or as agreed with a manager. */
export type PayChannel = 'online' | 'receipt' | 'other';

export function payChannel(paymentId: string): PayChannel {
  if (paymentId === PAYMENT_ID.onReceipt) return 'receipt';
  if (paymentId === PAYMENT_ID.cardOnline || paymentId === PAYMENT_ID.dolyami || paymentId === PAYMENT_ID.yandexSplit)
    return 'online';
  return 'other';
}

/**
 * An order's money, the one breakdown every page, message, receipt and API answer reads
 * (issue #26): goods at full price, the discounts by kind, delivery, the receipt total, the
 * certificates' part, and what is left to pay online or on receipt, and what was paid.
 */
export interface OrderBreakdown {
  /** The goods at their full prices (before the sale). */
  goodsKopecks: number;
  /** Sale prices below the full ones. */
  saleKopecks: number;
  /** The goods at the prices sold: goods − sale. */
  itemsKopecks: number;
  promoKopecks: number;
  bonusKopecks: number;
  /** Null: not known yet (staff confirm it); counted as 0 until then. */
  deliveryKopecks: number | null;
  /** items − promo − bonuses + delivery: what the receipt adds up to. */
  totalKopecks: number;
  /** The part paid with gift certificates (an advance the shop took when it sold them). */
  certificateKopecks: number;
  /** total − certificates: what the provider or the courier takes. */
  dueKopecks: number;
  channel: PayChannel;
  /** What the provider took (verified); 0 while unpaid. */
  paidOnlineKopecks: number;
  /** What the courier takes at the door: the due of an order paid on receipt, until it is paid. */
  onReceiptKopecks: number;
  /** What the courier took at the door after the fitting (only the kept items); null until then. */
  collectedKopecks: number | null;
}

export interface OrderMoneyInput {
  lines: readonly MoneyLine[];
  deliveryKopecks: number | null;
  certificateKopecks: number;
  paymentId: string;
  /** The order's paid_kopecks: the verified online payment, or what was taken at the door. */
  paidKopecks?: number | null;
  /** Whether the payment was verified (orders.paid_at). */
  paid?: boolean;
}

function assertAmount(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be whole kopecks >= 0, got ${n}`);
}

/** The breakdown of an order from its lines (promo and bonus shares), delivery, certificates and payment. */
export function orderMoney(input: OrderMoneyInput): OrderBreakdown {
  let goods = 0;
  let sale = 0;
  let items = 0;
  let promo = 0;
  let bonus = 0;
  for (const l of input.lines) {
    for (const [n, what] of [
      [l.priceKopecks, 'price'],
      [l.quantity, 'quantity'],
      [l.discountKopecks, 'discount'],
      [l.bonusKopecks, 'bonus'],
    ] as const)
      assertAmount(n, what);
    const sum = l.priceKopecks * l.quantity;
    const full = isOnSale(l.priceKopecks, l.oldPriceKopecks) ? (l.oldPriceKopecks as number) * l.quantity : sum;
    goods += full;
    sale += full - sum;
    items += sum;
    promo += l.discountKopecks;
    bonus += l.bonusKopecks;
  }
  const delivery = input.deliveryKopecks;
  if (delivery !== null) assertAmount(delivery, 'delivery');
  assertAmount(input.certificateKopecks, 'certificate');
  const total = items - promo - bonus + (delivery ?? 0);
  if (total < 0) throw new RangeError(`discounts above the goods: ${total}`);
  if (input.certificateKopecks > total)
    throw new RangeError(`certificates ${input.certificateKopecks} above the total ${total}`);
  const due = total - input.certificateKopecks;
  const channel = payChannel(input.paymentId);
  const paid = input.paid ?? false;
  const paidKopecks = input.paidKopecks ?? null;
  const paidOnline = channel === 'online' && paid ? (paidKopecks ?? 0) : 0;
  // On receipt, paid_kopecks is what the courier took after the fitting (only what was kept);
  // an order the certificates paid in full was marked paid when placed, and the courier takes nothing.
  const collected = channel === 'receipt' && !paid && paidKopecks !== null ? paidKopecks : null;
  return {
    goodsKopecks: goods,
    saleKopecks: sale,
    itemsKopecks: items,
    promoKopecks: promo,
    bonusKopecks: bonus,
    deliveryKopecks: delivery,
    totalKopecks: total,
    certificateKopecks: input.certificateKopecks,
    dueKopecks: due,
    channel,
    paidOnlineKopecks: paidOnline,
    onReceiptKopecks: channel === 'receipt' && collected === null ? due : 0,
    collectedKopecks: collected,
  };
}

/** A basket line before the order exists (get_cart.php's answer): its money, and whether it is a gift certificate. */
export interface BasketMoneyLine extends Omit<MoneyLine, 'bonusKopecks'> {
  /** A gift certificate: bonuses never pay for it, nor do other certificates. */
  certificate: boolean;
}

/** get_cart.php's lines (the server's prices and promo shares) as the breakdown reads them; the gift cover too, at 0 ₽. */
export function basketMoneyLines(cart: Pick<CartResponse, 'items'>): BasketMoneyLine[] {
  return cart.items.map((item) => {
    const offer = item.OFFERS.find((o) => o.IN_BASKET === 'Y');
    const sum = roublesToKopecks(item.SUM);
    const price = offer ? roublesToKopecks(offer.PRICE) : item.QUANTITY > 0 ? Math.round(sum / item.QUANTITY) : 0;
    return {
      priceKopecks: price,
      oldPriceKopecks: offer?.OLD_PRICE == null ? null : roublesToKopecks(offer.OLD_PRICE),
      quantity: item.QUANTITY,
      discountKopecks: roublesToKopecks(item.DISCOUNT),
      certificate: item.CERTIFICATE != null,
    };
  });
}

export interface CheckoutMoneyInput {
  lines: readonly BasketMoneyLine[];
  /** The delivery cost as quoted; null while unknown (no method yet, or staff confirm it). */
  deliveryKopecks: number | null;
  /** The bonuses asked for; cut to what the lines can take (20 % of the eligible ones). */
  bonusKopecks: number;
  /** The applied certificates' balances, in the order applied. */
  certificateBalancesKopecks: readonly number[];
  paymentId: string;
}

/**
 * The checkout summary's money (issue #26): the breakdown the order will have once placed, worked
 * out as placeOrder works it out: bonuses spread over the eligible lines (core/loyalty.ts), the
 * certificates paying up to the total less the certificate lines, in the order applied. The
 * server judges again when the order is placed; the same orderMoney() then gives its pages,
 * letters and receipt.
 */
export function checkoutMoney(input: CheckoutMoneyInput): OrderBreakdown {
  const loyalty: LoyaltyLine[] = input.lines.map((l) => ({
    amountKopecks: l.priceKopecks * l.quantity - l.discountKopecks,
    onSale: isOnSale(l.priceKopecks, l.oldPriceKopecks),
    certificate: l.certificate,
  }));
  const bonus = Math.min(Math.max(0, input.bonusKopecks), bonusCapKopecks(loyalty));
  const shares = spreadBonuses(loyalty, bonus);
  const lines: MoneyLine[] = input.lines.map(({ certificate: _certificate, ...l }, i) => ({
    ...l,
    bonusKopecks: shares[i] ?? 0,
  }));
  const base = { lines, deliveryKopecks: input.deliveryKopecks, paymentId: input.paymentId };
  const before = orderMoney({ ...base, certificateKopecks: 0 });
  // A certificate never pays for another certificate (placeOrder's rule).
  const certificateLines = loyalty.reduce((sum, l) => sum + (l.certificate ? l.amountKopecks : 0), 0);
  const payable = Math.max(0, before.totalKopecks - certificateLines);
  const balances = input.certificateBalancesKopecks.reduce((sum, b) => sum + Math.max(0, b), 0);
  return orderMoney({ ...base, certificateKopecks: Math.min(payable, balances) });
}

export const MONEY_TEXT = {
  goods: 'Товары',
  sale: 'Скидка распродажи',
  promo: 'Скидка по промокоду',
  bonus: 'Бонусами',
  delivery: 'Доставка',
  deliveryFree: 'бесплатно',
  deliveryPending: 'стоимость уточнит менеджер',
  total: 'Итого',
  certificate: 'Подарочными сертификатами',
  due: 'К оплате',
  dueOnReceipt: 'К оплате при получении',
  paidOnline: 'Оплачено онлайн',
  collected: 'Оплачено при получении',
} as const;

export interface MoneyRow {
  key: 'goods' | 'sale' | 'promo' | 'bonus' | 'delivery' | 'total' | 'certificate' | 'final';
  label: string;
  /** Kopecks; negative for what is taken off; null when the value is a text (delivery to be confirmed). */
  kopecks: number | null;
  /** The value as shown: '17 000 ₽', '−1 700 ₽', 'бесплатно'. */
  text: string;
}

/**
 * The breakdown as rows, the same on every page and in every letter: goods, each discount,
 * delivery, the total and the certificates when they paid a part, and the last row: what is
 * left to pay (on receipt or online) or what was paid.
 */
export function moneyRows(b: OrderBreakdown): MoneyRow[] {
  const rows: MoneyRow[] = [
    { key: 'goods', label: MONEY_TEXT.goods, kopecks: b.goodsKopecks, text: formatRub(b.goodsKopecks) },
  ];
  const off = (key: MoneyRow['key'], label: string, kopecks: number) => {
    if (kopecks > 0) rows.push({ key, label, kopecks: -kopecks, text: `−${formatRub(kopecks)}` });
  };
  off('sale', MONEY_TEXT.sale, b.saleKopecks);
  off('promo', MONEY_TEXT.promo, b.promoKopecks);
  off('bonus', MONEY_TEXT.bonus, b.bonusKopecks);
  rows.push({
    key: 'delivery',
    label: MONEY_TEXT.delivery,
    kopecks: b.deliveryKopecks,
    text:
      b.deliveryKopecks === null
        ? MONEY_TEXT.deliveryPending
        : b.deliveryKopecks === 0
          ? MONEY_TEXT.deliveryFree
          : formatRub(b.deliveryKopecks),
  });
  if (b.certificateKopecks > 0) {
    rows.push({ key: 'total', label: MONEY_TEXT.total, kopecks: b.totalKopecks, text: formatRub(b.totalKopecks) });
    off('certificate', MONEY_TEXT.certificate, b.certificateKopecks);
  }
  const final = finalRow(b);
  rows.push({ key: 'final', label: final.label, kopecks: final.kopecks, text: formatRub(final.kopecks) });
  return rows;
}

/** The last row: what was paid (online, or at the door) or what is left to pay and how. */
export function finalRow(b: OrderBreakdown): { label: string; kopecks: number } {
  if (b.collectedKopecks !== null) return { label: MONEY_TEXT.collected, kopecks: b.collectedKopecks };
  if (b.channel === 'online' && b.paidOnlineKopecks > 0)
    return { label: MONEY_TEXT.paidOnline, kopecks: b.paidOnlineKopecks };
  if (b.channel === 'receipt') return { label: MONEY_TEXT.dueOnReceipt, kopecks: b.onReceiptKopecks };
  return { label: MONEY_TEXT.due, kopecks: b.dueKopecks };
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
  return {
    bonusKopecks: bonus,
    certificateKopecks: certificate,
    providerKopecks: provider,
    moneyKopecks: certificate + provider,
  };
}

/** Which provider a payment id refunds through; 'transfer' for pay on receipt (staff pay by hand). */
export function refundMeans(paymentId: string): 'cloudpayments' | 'dolyami' | 'yandex-split' | 'transfer' {
  if (paymentId === PAYMENT_ID.cardOnline) return 'cloudpayments';
  if (paymentId === PAYMENT_ID.dolyami) return 'dolyami';
  if (paymentId === PAYMENT_ID.yandexSplit) return 'yandex-split';
  return 'transfer';
}
