import { priceKopecks } from './commerceml';
import { keptDiscountKopecks } from './fitting';
import { formatRub } from './money';
import { orderMoney, payChannel, type MoneyLine, type OrderBreakdown } from './order-money';
import { ORDER_STATUS_LABELS, type OrderStatus } from './order-status';

// The lines of an order 1C sends back (type=sale&mode=import; issue #31, docs/exchange-1c.md
// «Состав заказа из 1С»): what 1C changed in the goods of the site's order, and whether the shop
// applies it. Pure: models/exchange-orders.server.ts reads the order and applies the plan (the
// lines, the stock through the ledger, bonuses and certificates back, the order's sums).
//
// What the shop takes from 1C, and why:
// - A line removed or its quantity lowered (the goods are not there, the shopper changed their
//   mind on the phone), and a price lowered: applied while the order is not paid and not yet
//   handed to delivery (new, confirmed, assembling). The shopper pays less; nothing is refunded.
// - A line added, a quantity raised, a price raised: refused. The shopper did not order it nor
//   agree to that price (pre-order.md: «Цена фиксируется в момент оформления»), and the site's
//   stock may not have the units: taking them could oversell a size another shopper is buying.
//   1C makes another order for it; staff read the reason in the exchange log.
// - Any change to a paid order (online, or certificates that paid it whole): refused. Lowering its
//   sum means giving money back, and the shop's refunds belong to returns (a refund row is a
//   return's); the fiscal receipt was issued for the paid lines. Staff settle it by hand.
// - The delivery line (ORDER_DELIVERY, or any «Услуга»): never applied (delivery stays what the
//   shopper was quoted, as at the fitting); a different price is a warning.
//
// Money after a change is orderMoney() over the new lines (the one breakdown every page reads):
// a lowered quantity keeps its units' share of the promo and the bonuses (keptDiscountKopecks,
// the fitting's rounding, exact at both ends); a lowered price scales the line's shares with it
// (what the line costs falls in proportion). The bonuses the line no longer uses go back to the
// shopper; the certificates' part is cut to what the new total leaves them (never paying for
// a certificate line) and the rest goes back onto the certificates. Delivery and the promo
// granted when ordering stand, as at the fitting.

/** A `Товар` of a document 1C sends back, as read (numbers as their text). */
export interface OneCOrderLine {
  id: string;
  name: string;
  /** ЦенаЗаЕдиницу, Количество, Сумма: '' when absent. */
  price: string;
  quantity: string;
  sum: string;
  /** ВидНоменклатуры / ТипНоменклатуры «Услуга» (delivery), or our ORDER_DELIVERY. */
  service: boolean;
}

/** One line of the site's order (order_items with the Ид the export gives its offer). */
export interface SiteOrderLine {
  offerId: number;
  isPreorder: boolean;
  isGift: boolean;
  /** The product is a gift certificate. */
  certificate: boolean;
  /** The Ид the export writes: the offer's 1C id, else its product's, else site-offer-<id>. */
  externalId: string;
  title: string;
  size: string;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  quantity: number;
  /** Set by a fitting: the export writes the kept units. */
  keptQuantity: number | null;
  discountKopecks: number;
  bonusKopecks: number;
}

export interface SiteOrderForLines {
  status: string;
  paymentId: string;
  /** paid_at or paid_kopecks set: money came in (online, at the door, or certificates paid it all). */
  paid: boolean;
  deliveryKopecks: number;
  deliveryPending: boolean;
  certificateKopecks: number;
}

export type LineChange = 'unchanged' | 'lowered' | 'removed' | 'price' | 'added' | 'raised' | 'price_raised';

/** What 1C did to one Ид of the order. */
export interface LineDecision {
  id: string;
  name: string;
  change: LineChange;
  quantity: { from: number; to: number };
  price: { from: number | null; to: number | null };
}

/** A site line after the change (quantity 0: the line goes). */
export interface NewLine {
  offerId: number;
  isPreorder: boolean;
  quantity: number;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  discountKopecks: number;
  bonusKopecks: number;
}

export type OrderLinesPlan =
  /** 1C says nothing of the goods, or the same goods: nothing to do. */
  | { kind: 'none'; decisions: LineDecision[]; warnings: string[] }
  /** 1C changed the goods and the shop does not take it: `reason` for staff (Russian). */
  | { kind: 'refused'; reason: string; decisions: LineDecision[]; warnings: string[] }
  | {
      kind: 'apply';
      decisions: LineDecision[];
      warnings: string[];
      /** Every site line whose row changes (quantity 0: deleted). */
      lines: NewLine[];
      /** Units back on the shelf, per offer (lines that held stock: not pre-orders, not the gift cover). */
      stockBack: { offerId: number; quantity: number }[];
      bonusBackKopecks: number;
      certificateBackKopecks: number;
      before: OrderBreakdown;
      after: OrderBreakdown;
      /** The order's history note (the shopper sees it in the account). */
      note: string;
    };

/** Statuses in which the goods of an order may still change: placed and not handed to delivery. */
export const LINES_CHANGE_STATUSES: readonly OrderStatus[] = ['new', 'confirmed', 'assembling'];

export const LINES_TEXT = {
  unreadable: (l: OneCOrderLine) =>
    `в строке «${l.name || l.id}» количество или цена не число («${l.quantity}», «${l.price}»): состав заказа не изменён`,
  added: (names: string) =>
    `1С добавил в заказ ${names}: сайт не добавляет товары в оформленный заказ (на складе сайта их может не быть, покупатель их не заказывал), состав заказа не изменён; оформите их отдельным заказом`,
  raised: (names: string) =>
    `1С увеличил количество (${names}): сайт не увеличивает количество в оформленном заказе (на складе сайта может не быть), состав заказа не изменён`,
  priceRaised: (names: string) =>
    `1С повысил цену (${names}): цена заказа фиксируется при оформлении и не повышается, состав заказа не изменён`,
  status: (status: string) =>
    `заказ «${ORDER_STATUS_LABELS[status as OrderStatus] ?? status}»: состав меняется только до передачи в доставку, состав заказа на сайте не изменён`,
  awaitingPayment: 'заказ ждёт оплаты онлайн: состав заказа на сайте не изменён',
  paid: (online: boolean, before: number, after: number) =>
    before > after
      ? `заказ уже оплачен${online ? ' онлайн' : ''}: состав из 1С не применён (сумма уменьшилась бы с ${formatRub(before)} до ${formatRub(after)}, разницу ${formatRub(before - after)} нужно вернуть покупателю); измените заказ вместе с возвратом денег вручную`
      : `заказ уже оплачен${online ? ' онлайн' : ''}: состав оплаченного заказа через 1С не меняется, состав заказа на сайте не изменён`,
  certificate: (names: string) =>
    `1С изменил строку подарочного сертификата (${names}): сертификаты в заказе не меняются через 1С, состав заказа не изменён`,
  ambiguous: (id: string) =>
    `товар ${id} дважды в заказе (в наличии и предзаказ): какую строку менять, не ясно, состав заказа не изменён`,
  empty: '1С убрал из заказа все товары: состав заказа не изменён; чтобы отменить заказ, отметьте его отменённым',
  delivery: (site: number, oneC: number) =>
    `стоимость доставки в 1С (${formatRub(oneC)}) не та, что в заказе (${formatRub(site)}): на сайте доставка не меняется`,
} as const;

/** A whole number of units ('2', '2.000'); null when it is not one. */
function units(text: string): number | null {
  const t = text.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!/^\d{1,9}(\.0+)?$/.test(t)) return null;
  return Number(t.split('.')[0]);
}

const lineName = (l: { title: string; size: string }) => `«${l.title}${l.size ? `, ${l.size}` : ''}»`;

/** The share of `whole` that `n` of `q` units keep (ceil, exact at 0 and q): the fitting's rounding. */
const unitsShare = (whole: number, q: number, n: number) => keptDiscountKopecks(whole, q, n);

/** A line's promo or bonus share scaled to a lower price (ceil: the shopper never pays above the proportional price). */
const priceShare = (share: number, from: number, to: number) =>
  from <= 0 ? 0 : Math.floor((share * to + from - 1) / from);

/**
 * Whether 1C's unit price is ours after the line's promo and bonus shares (some configurations
 * write the price after discounts): then it is not a price change.
 */
function isDiscountedPrice(site: SiteOrderLine, q: number, oneCPrice: number): boolean {
  if (site.discountKopecks + site.bonusKopecks === 0 || q <= 0 || q > site.quantity) return false;
  const sum = site.priceKopecks * q - unitsShare(site.discountKopecks + site.bonusKopecks, site.quantity, q);
  return Math.abs(oneCPrice * q - sum) < q;
}

interface Group {
  id: string;
  rows: SiteOrderLine[];
  quantity: number;
}

/**
 * What 1C's goods (`goods`: null when the document has no `Товары`) do to the site's order:
 * nothing, a change to apply (new lines, stock and money to give back, the sums after), or a
 * refusal with its reason. `cancelling`: 1C cancels the order (its lines do not matter then).
 */
export function planOrderLines(input: {
  order: SiteOrderForLines;
  lines: readonly SiteOrderLine[];
  goods: readonly OneCOrderLine[] | null | undefined;
  cancelling: boolean;
}): OrderLinesPlan {
  const { order } = input;
  const warnings: string[] = [];
  if (!input.goods || input.cancelling || order.status === 'cancelled')
    return { kind: 'none', decisions: [], warnings };

  // 1C's lines, read; services (delivery) apart.
  const oneC = new Map<string, { name: string; quantity: number; prices: Set<number> }>();
  let oneCDelivery: number | null = null;
  for (const l of input.goods) {
    const price = l.price.trim() === '' ? null : priceKopecks(l.price);
    if (l.service || l.id === 'ORDER_DELIVERY') {
      if (price !== null) oneCDelivery = (oneCDelivery ?? 0) + price * (units(l.quantity) ?? 1);
      continue;
    }
    const q = units(l.quantity);
    if (q === null || (l.price.trim() !== '' && price === null))
      return { kind: 'refused', reason: LINES_TEXT.unreadable(l), decisions: [], warnings };
    const seen = oneC.get(l.id) ?? { name: l.name, quantity: 0, prices: new Set<number>() };
    seen.quantity += q;
    if (price !== null) seen.prices.add(price);
    oneC.set(l.id, seen);
  }
  if (oneCDelivery !== null && !order.deliveryPending && oneCDelivery !== order.deliveryKopecks)
    warnings.push(LINES_TEXT.delivery(order.deliveryKopecks, oneCDelivery));

  // The site's lines as the export wrote them: the kept units after a fitting, lines of none left out.
  const groups = new Map<string, Group>();
  for (const l of input.lines) {
    const q = l.keptQuantity ?? l.quantity;
    if (q <= 0) continue;
    const g = groups.get(l.externalId) ?? { id: l.externalId, rows: [], quantity: 0 };
    g.rows.push(l);
    g.quantity += q;
    groups.set(l.externalId, g);
  }

  const decisions: LineDecision[] = [];
  const changedGroups: { group: Group; to: number; price: number }[] = [];
  for (const g of groups.values()) {
    const first = g.rows[0]!;
    const c = oneC.get(g.id);
    const to = c?.quantity ?? 0;
    const samePrice = g.rows.every((r) => r.priceKopecks === first.priceKopecks);
    const oneCPrice = c && c.prices.size === 1 ? [...c.prices][0]! : null;
    let price = first.priceKopecks;
    if (oneCPrice !== null && samePrice && oneCPrice !== first.priceKopecks && !isDiscountedPrice(first, to, oneCPrice))
      price = oneCPrice;
    const change: LineChange =
      to === 0
        ? 'removed'
        : to > g.quantity
          ? 'raised'
          : price > first.priceKopecks
            ? 'price_raised'
            : to < g.quantity
              ? 'lowered'
              : price < first.priceKopecks
                ? 'price'
                : 'unchanged';
    decisions.push({
      id: g.id,
      name: lineName(first),
      change,
      quantity: { from: g.quantity, to },
      price: { from: first.priceKopecks, to: price },
    });
    if (change !== 'unchanged') changedGroups.push({ group: g, to, price });
  }
  for (const [id, c] of oneC)
    if (!groups.has(id))
      decisions.push({
        id,
        name: `«${c.name || id}»`,
        change: 'added',
        quantity: { from: 0, to: c.quantity },
        price: { from: null, to: c.prices.size === 1 ? [...c.prices][0]! : null },
      });

  const of = (kinds: LineChange[]) => decisions.filter((d) => kinds.includes(d.change));
  const names = (ds: LineDecision[]) => ds.map((d) => `${d.name} (Ид ${d.id})`).join(', ');
  const changed = of(['lowered', 'removed', 'price', 'added', 'raised', 'price_raised']);
  if (changed.length === 0) return { kind: 'none', decisions, warnings };
  const refuse = (reason: string): OrderLinesPlan => ({ kind: 'refused', reason, decisions, warnings });

  if (of(['added']).length > 0) return refuse(LINES_TEXT.added(names(of(['added']))));
  if (of(['raised']).length > 0)
    return refuse(
      LINES_TEXT.raised(
        of(['raised'])
          .map((d) => `${d.name}: ${d.quantity.from} → ${d.quantity.to} шт.`)
          .join(', '),
      ),
    );
  if (of(['price_raised']).length > 0)
    return refuse(
      LINES_TEXT.priceRaised(
        of(['price_raised'])
          .map((d) => `${d.name}: ${formatRub(d.price.from!)} → ${formatRub(d.price.to!)}`)
          .join(', '),
      ),
    );
  if (order.status === 'awaiting_payment') return refuse(LINES_TEXT.awaitingPayment);
  if (!(LINES_CHANGE_STATUSES as readonly string[]).includes(order.status))
    return refuse(LINES_TEXT.status(order.status));
  const certificates = changedGroups.filter((c) => c.group.rows.some((r) => r.certificate));
  if (certificates.length > 0)
    return refuse(LINES_TEXT.certificate(certificates.map((c) => lineName(c.group.rows[0]!)).join(', ')));
  const ambiguous = changedGroups.find((c) => c.group.rows.length > 1);
  if (ambiguous) return refuse(LINES_TEXT.ambiguous(ambiguous.group.id));

  // The new lines: a lowered quantity keeps its units' shares, a lowered price scales them.
  const byRow = new Map<SiteOrderLine, NewLine>();
  for (const { group, to, price } of changedGroups) {
    const row = group.rows[0]!;
    const discount = unitsShare(row.discountKopecks, row.quantity, to);
    const bonus = unitsShare(row.bonusKopecks, row.quantity, to);
    let d = priceShare(discount, row.priceKopecks, price);
    let b = priceShare(bonus, row.priceKopecks, price);
    // Ceil twice may pass the line's amount by a kopeck: the bonuses give way (they go back).
    if (d + b > price * to) b = Math.max(0, price * to - d);
    if (d > price * to) d = price * to;
    byRow.set(row, {
      offerId: row.offerId,
      isPreorder: row.isPreorder,
      quantity: to,
      priceKopecks: price,
      oldPriceKopecks: row.oldPriceKopecks !== null && row.oldPriceKopecks > price ? row.oldPriceKopecks : null,
      discountKopecks: to === 0 ? 0 : d,
      bonusKopecks: to === 0 ? 0 : b,
    });
  }
  const afterLines = input.lines.map((l) => byRow.get(l) ?? { ...l });
  if (!afterLines.some((l, i) => l.quantity > 0 && !input.lines[i]!.isGift)) return refuse(LINES_TEXT.empty);

  const money = (lines: readonly MoneyLine[], certificateKopecks: number) =>
    orderMoney({
      lines,
      deliveryKopecks: order.deliveryPending ? null : order.deliveryKopecks,
      certificateKopecks,
      paymentId: order.paymentId,
    });
  const before = money(input.lines, order.certificateKopecks);
  const kept = afterLines.filter((l) => l.quantity > 0);
  const uncovered = money(kept, 0);
  // A certificate never pays for another certificate (placeOrder's rule): the rest is their room.
  let certificateLines = 0;
  afterLines.forEach((l, i) => {
    if (l.quantity > 0 && input.lines[i]!.certificate)
      certificateLines += l.priceKopecks * l.quantity - l.discountKopecks - l.bonusKopecks;
  });
  const certificateKopecks = Math.min(order.certificateKopecks, Math.max(0, uncovered.totalKopecks - certificateLines));
  const after = money(kept, certificateKopecks);
  if (after.totalKopecks > before.totalKopecks) return refuse(LINES_TEXT.priceRaised(names(changed)));
  if (order.paid)
    return refuse(LINES_TEXT.paid(payChannel(order.paymentId) === 'online', before.totalKopecks, after.totalKopecks));

  const stock = new Map<number, number>();
  let bonusBack = 0;
  for (const [row, line] of byRow) {
    bonusBack += row.bonusKopecks - line.bonusKopecks;
    if (!row.isPreorder && !row.isGift && line.quantity < row.quantity)
      stock.set(row.offerId, (stock.get(row.offerId) ?? 0) + row.quantity - line.quantity);
  }
  const told = changed.map((d) =>
    d.change === 'removed'
      ? `${d.name} убран`
      : d.change === 'lowered'
        ? `${d.name}: ${d.quantity.from} → ${d.quantity.to} шт.${d.price.to! < d.price.from! ? `, цена ${formatRub(d.price.from!)} → ${formatRub(d.price.to!)}` : ''}`
        : `${d.name}: цена ${formatRub(d.price.from!)} → ${formatRub(d.price.to!)}`,
  );
  return {
    kind: 'apply',
    decisions,
    warnings,
    lines: [...byRow.values()],
    stockBack: [...stock].sort(([a], [b]) => a - b).map(([offerId, quantity]) => ({ offerId, quantity })),
    bonusBackKopecks: bonusBack,
    certificateBackKopecks: order.certificateKopecks - certificateKopecks,
    before,
    after,
    note: `Из 1С: состав заказа изменён (${told.join('; ')}), сумма заказа ${formatRub(before.totalKopecks)} → ${formatRub(after.totalKopecks)}`,
  };
}
