import { isCoat } from './basket';
import { formatRub } from './money';

// The fitting at the door (content/pages/delivery.md, Moscow courier): the shopper keeps some
// items, hands the rest back, and pays on the spot only for what was kept, plus the courier.
// Pure arithmetic and checks; models/fitting.server.ts records the result.
//
// Rounding: a line's promo discount (order_items.discount_kopecks, the shares adding up to the
// order's discount) is prorated to the items kept as ceil(discount × kept / quantity), in integer
// arithmetic. Rounding up favours the shopper by at most one kopeck a line, never charges more
// than the proportional price, and is exact at both ends: keeping everything gives the whole
// discount, keeping nothing gives none. The discount granted when ordering stands even if what
// is kept falls below the promo's minimum basket.
//
// Delivery: the courier's cost (700 ₽ for Moscow) is due even when everything is handed back;
// the delivery and return pages promise nothing contrary (return.md: delivery is refunded only
// for the shop's own mistake or a defect).

/** One line of the order as it was placed (order_items). */
export interface FittingOrderLine {
  offerId: number;
  title: string;
  quantity: number;
  priceKopecks: number;
  discountKopecks: number;
  isPreorder: boolean;
  isGift: boolean;
}

/** What staff wrote down at the door for one offer. */
export interface FittingInputLine {
  offerId: number;
  kept: number;
  refused: number;
}

export interface FittingLineResult {
  offerId: number;
  isGift: boolean;
  kept: number;
  refused: number;
  /** What the shopper pays for this line: price × kept less the kept share of its discount. */
  paidKopecks: number;
}

export type FittingPlan =
  | {
      ok: true;
      /** Every line that was at the door: the fitted lines, then the gift cover (pre-orders ship apart). */
      lines: FittingLineResult[];
      /** Items kept and handed back, gift covers not counted. */
      kept: number;
      refused: number;
      itemsKopecks: number;
      deliveryKopecks: number;
      /** itemsKopecks + deliveryKopecks: the amount taken at the door. */
      totalKopecks: number;
    }
  | { ok: false; errors: Record<string, string> };

function assertCount(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${what} must be a non-negative integer, got ${value}`);
}

/** The kept items' share of a line's discount: ceil(discount × kept / quantity), exactly. */
export function keptDiscountKopecks(discountKopecks: number, quantity: number, kept: number): number {
  assertCount(discountKopecks, 'discount');
  assertCount(kept, 'kept');
  if (!Number.isSafeInteger(quantity) || quantity <= 0 || kept > quantity)
    throw new RangeError(`kept ${kept} of ${quantity}`);
  const numerator = discountKopecks * kept;
  if (!Number.isSafeInteger(numerator)) throw new RangeError('discount too large');
  return Math.floor((numerator + quantity - 1) / quantity);
}

/** What the shopper pays for `kept` items of one line. */
export function fittingLineKopecks(
  line: Pick<FittingOrderLine, 'priceKopecks' | 'quantity' | 'discountKopecks'>,
  kept: number,
): number {
  assertCount(line.priceKopecks, 'price');
  return line.priceKopecks * kept - keptDiscountKopecks(line.discountKopecks, line.quantity, kept);
}

/** The amount taken at the door: every line's kept part, plus the delivery cost (due in any case). */
export function fittingAmountKopecks(input: {
  lines: readonly (Pick<FittingOrderLine, 'priceKopecks' | 'quantity' | 'discountKopecks'> & { kept: number })[];
  deliveryKopecks: number;
}): number {
  assertCount(input.deliveryKopecks, 'delivery');
  return input.lines.reduce((sum, line) => sum + fittingLineKopecks(line, line.kept), 0) + input.deliveryKopecks;
}

/** Gift covers kept: one per coat kept at the door or still coming as a pre-order, never more than were given. */
export function giftCoversKept(input: { covers: number; coatsKept: number; coatsPreordered: number }): number {
  return Math.max(0, Math.min(input.covers, input.coatsKept + input.coatsPreordered));
}

const lineName = (line: FittingOrderLine) => `«${line.title}»`;

export const FITTING_TEXT = {
  notInOrder: (offerId: number) => `Товара №${offerId} нет в этом заказе`,
  missing: (line: FittingOrderLine) => `${lineName(line)}: укажите, сколько оставлено и сколько возвращено`,
  mismatch: (line: FittingOrderLine, given: number) =>
    `${lineName(line)}: оставлено и возвращено вместе должно быть ${line.quantity} (в заказе), а указано ${given}`,
  notCount: (line: FittingOrderLine) => `${lineName(line)}: оставлено и возвращено — целые числа от 0`,
  preorder: (line: FittingOrderLine) => `${lineName(line)}: предзаказ привозят отдельно, в этой примерке его нет`,
  gift: 'Подарочный чехол считается сам: по одному на каждое оставленное пальто',
  twice: (offerId: number) => `Товар №${offerId} указан дважды`,
  empty: 'В заказе нет вещей для примерки',
} as const;

/**
 * Checks what staff wrote down against the order and prices it. Every line that was at the door
 * (not a pre-order, not the gift cover) must be given, kept + refused equal to what was ordered;
 * the gift cover follows the coats kept. Errors are keyed `lines[<offer id>]`, in Russian.
 */
export function planFitting(input: {
  order: readonly FittingOrderLine[];
  given: readonly FittingInputLine[];
  deliveryKopecks: number;
}): FittingPlan {
  const errors: Record<string, string> = {};
  const byOffer = new Map<number, FittingOrderLine>();
  for (const line of input.order) if (!line.isPreorder) byOffer.set(line.offerId, line);
  const preordered = new Map(input.order.filter((l) => l.isPreorder).map((l) => [l.offerId, l]));
  const given = new Map<number, FittingInputLine>();
  for (const g of input.given) {
    const key = `lines[${g.offerId}]`;
    const line = byOffer.get(g.offerId);
    if (given.has(g.offerId)) errors[key] = FITTING_TEXT.twice(g.offerId);
    else if (line?.isGift) errors[key] = FITTING_TEXT.gift;
    else if (!line) {
      const pre = preordered.get(g.offerId);
      errors[key] = pre ? FITTING_TEXT.preorder(pre) : FITTING_TEXT.notInOrder(g.offerId);
    } else if (![g.kept, g.refused].every((n) => Number.isSafeInteger(n) && n >= 0))
      errors[key] = FITTING_TEXT.notCount(line);
    else if (g.kept + g.refused !== line.quantity) errors[key] = FITTING_TEXT.mismatch(line, g.kept + g.refused);
    given.set(g.offerId, g);
  }
  const fitted = [...byOffer.values()].filter((l) => !l.isGift);
  if (fitted.length === 0) errors.lines = FITTING_TEXT.empty;
  for (const line of fitted)
    if (!given.has(line.offerId)) errors[`lines[${line.offerId}]`] = FITTING_TEXT.missing(line);
  if (Object.keys(errors).length) return { ok: false, errors };

  const lines: FittingLineResult[] = [];
  let kept = 0;
  let refused = 0;
  let coatsKept = 0;
  for (const line of fitted) {
    const g = given.get(line.offerId) as FittingInputLine;
    kept += g.kept;
    refused += g.refused;
    if (isCoat(line.title)) coatsKept += g.kept;
    lines.push({
      offerId: line.offerId,
      isGift: false,
      kept: g.kept,
      refused: g.refused,
      paidKopecks: fittingLineKopecks(line, g.kept),
    });
  }
  for (const cover of [...byOffer.values()].filter((l) => l.isGift)) {
    const coatsPreordered = [...preordered.values()].filter((l) => isCoat(l.title)).reduce((s, l) => s + l.quantity, 0);
    const coversKept = giftCoversKept({ covers: cover.quantity, coatsKept, coatsPreordered });
    lines.push({
      offerId: cover.offerId,
      isGift: true,
      kept: coversKept,
      refused: cover.quantity - coversKept,
      paidKopecks: fittingLineKopecks(cover, coversKept),
    });
  }
  const itemsKopecks = lines.reduce((s, l) => s + l.paidKopecks, 0);
  assertCount(input.deliveryKopecks, 'delivery');
  return {
    ok: true,
    lines,
    kept,
    refused,
    itemsKopecks,
    deliveryKopecks: input.deliveryKopecks,
    totalKopecks: itemsKopecks + input.deliveryKopecks,
  };
}

/** Who gets what once the fitting is priced (core/order-money.ts: certificates are an advance, a refund never turns them into money). */
export interface FittingSettlement {
  /** Pay on receipt: what the courier takes. Paid online: what the provider keeps. Both: what the kept items cost beyond the certificates. */
  paidKopecks: number;
  /** Paid online for what was handed back: to give back to the shopper through the provider. */
  refundKopecks: number;
  /** The certificates' money the kept items (and the pre-orders still to come) do not use: back onto the certificates. */
  certificateBackKopecks: number;
}

/**
 * Settles a fitting. The certificates' part pays the kept items and the courier first, then the
 * pre-orders still to come; what is left of it goes back to the certificates (issue #26), never
 * to the card or to cash. The courier takes only what the certificates do not cover of the kept
 * items; an order paid online keeps what the kept items and pre-orders cost beyond the
 * certificates, and the rest of what it charged is refunded.
 */
export function settleFitting(input: {
  /** plan.totalKopecks: the kept items and the delivery. */
  keptKopecks: number;
  /** The pre-order lines (they ship apart and are not fitted), less their discounts. */
  preorderKopecks: number;
  /** The order's total (orders.total_kopecks) and the part certificates paid. */
  totalKopecks: number;
  certificateKopecks: number;
  online: boolean;
}): FittingSettlement {
  for (const [n, what] of [
    [input.keptKopecks, 'kept'],
    [input.preorderKopecks, 'pre-orders'],
    [input.totalKopecks, 'total'],
    [input.certificateKopecks, 'certificate'],
  ] as const)
    assertCount(n, what);
  const certificate = Math.min(input.certificateKopecks, input.totalKopecks);
  const used = input.keptKopecks + input.preorderKopecks;
  const certificateBack = Math.max(0, certificate - used);
  if (!input.online)
    return {
      paidKopecks: Math.max(0, input.keptKopecks - certificate),
      refundKopecks: 0,
      certificateBackKopecks: certificateBack,
    };
  const kept = Math.max(0, used - certificate);
  return {
    paidKopecks: kept,
    refundKopecks: Math.max(0, input.totalKopecks - certificate - kept),
    certificateBackKopecks: certificateBack,
  };
}

/** The status history's note for a fitting, and what went back to the certificates. */
export function fittingNote(kept: number, refused: number, certificateBackKopecks = 0): string {
  const note = `Примерка: оставлено ${kept}, возвращено ${refused}`;
  return certificateBackKopecks > 0
    ? `${note}; на подарочные сертификаты вернули ${formatRub(certificateBackKopecks)}`
    : note;
}
