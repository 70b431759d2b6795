import type { PaymentReceipt } from '~/shared/contract';
import { allocateProportionally } from './allocate';
import { kopecksToRoubles } from './money';

// SPEC §3 Payment receipt (CloudPayments CustomerReceipt, INTEGRATIONS.md §1): one item per
// order line with its size, VAT 0, unit 'шт', and delivery as an item of its own. The line's
// discounts (promo, bonuses) are folded into its unit price, so every item's amount is exactly
// price × quantity as the cash register requires (a line whose amount does not divide by its
// quantity becomes two items); the part paid with certificates is `amounts.advancePayment`. All sums are worked out in whole kopecks and
// converted to roubles only at the end, so the items add up EXACTLY to amounts.electronic.
//
// Left out: lines whose amount is 0 (the gift garment cover at 0 ₽): CloudKassir refuses items
// with a zero amount, and a gift costs the buyer nothing, so there is nothing to fiscalise.

/** CloudKassir's limit on an item's label. */
export const RECEIPT_LABEL_MAX = 128;

export const DELIVERY_LABEL = 'Доставка';

export interface ReceiptLine {
  title: string;
  size: string;
  /** Price of one unit, before the promo and bonuses (the receipt folds them into it). */
  priceKopecks: number;
  quantity: number;
  /** This line's share of the promo discount (already split over lines by the basket). */
  discountKopecks: number;
  /** This line's share of the bonuses spent: bonuses are a discount in the receipt. */
  bonusKopecks?: number;
}

export interface ReceiptInput {
  lines: readonly ReceiptLine[];
  deliveryKopecks: number;
  /** What the receipt adds up to: the order's total. */
  totalKopecks: number;
  /**
   * The part paid before with gift certificates: a certificate is an advance the shop took
   * when it was sold, so it is offset as `advancePayment` and the card pays the rest.
   */
  advancePaymentKopecks?: number;
  email: string;
  /** Digits with the country code, as the shop stores it. */
  phone: string;
}

export class ReceiptError extends Error {}

/** 'Платье «Ирис», размер 44 (S)' cut to 128 characters. */
export function receiptLabel(title: string, size: string): string {
  const label = size ? `${title}, размер ${size}` : title;
  return label.length <= RECEIPT_LABEL_MAX ? label : `${label.slice(0, RECEIPT_LABEL_MAX - 1)}…`;
}

/**
 * The receipt of an order. The lines' own totals (price × quantity − discount) plus delivery
 * must meet the order's total; when they come to more (an order-level discount not yet split),
 * the difference is split over the goods lines in proportion to their totals
 * (core/allocate.ts), never more than a line's own total. Less than the total is refused: a
 * receipt never charges for something that is not on it.
 */
export function buildReceipt(input: ReceiptInput): PaymentReceipt {
  const { lines, deliveryKopecks, totalKopecks } = input;
  for (const n of [deliveryKopecks, totalKopecks])
    if (!Number.isSafeInteger(n) || n < 0) throw new ReceiptError(`bad amount ${n}`);
  const own = lines.map((l) => {
    if (
      !Number.isSafeInteger(l.priceKopecks) ||
      !Number.isSafeInteger(l.quantity) ||
      !Number.isSafeInteger(l.discountKopecks) ||
      l.quantity <= 0
    ) {
      throw new ReceiptError(`bad line ${l.title}`);
    }
    const amount = l.priceKopecks * l.quantity - l.discountKopecks - (l.bonusKopecks ?? 0);
    if (amount < 0) throw new ReceiptError(`line ${l.title} below zero`);
    return amount;
  });
  const delivery = deliveryKopecks > 0 ? deliveryKopecks : 0;
  const sum = own.reduce((a, b) => a + b, 0) + delivery;
  if (sum < totalKopecks) throw new ReceiptError(`lines come to ${sum}, less than the total ${totalKopecks}`);
  const extra = allocateProportionally(sum - totalKopecks, own);
  const amounts = own.map((a, i) => a - (extra[i] ?? 0));

  const items: PaymentReceipt['Items'] = [];
  lines.forEach((l, i) => {
    const amount = amounts[i] ?? 0;
    if (amount <= 0) return;
    for (const part of foldDiscount(amount, l.quantity)) {
      items.push({
        label: receiptLabel(l.title, l.size),
        price: kopecksToRoubles(part.priceKopecks),
        quantity: part.quantity,
        amount: kopecksToRoubles(part.priceKopecks * part.quantity),
        vat: 0,
        measurementUnit: 'шт',
      });
    }
  });
  if (delivery > 0)
    items.push({
      label: DELIVERY_LABEL,
      price: kopecksToRoubles(delivery),
      quantity: 1,
      amount: kopecksToRoubles(delivery),
      vat: 0,
      measurementUnit: 'шт',
    });
  if (totalKopecks <= 0 || items.length === 0) throw new ReceiptError('a receipt needs a total above 0');
  const advance = input.advancePaymentKopecks ?? 0;
  if (!Number.isSafeInteger(advance) || advance < 0 || advance >= totalKopecks)
    throw new ReceiptError(`bad advance payment ${advance}`);
  return {
    Items: items,
    email: input.email,
    phone: input.phone ? `+${input.phone.replace(/\D/g, '')}` : '',
    amounts:
      advance > 0
        ? { electronic: kopecksToRoubles(totalKopecks - advance), advancePayment: kopecksToRoubles(advance) }
        : { electronic: kopecksToRoubles(totalKopecks) },
  };
}

/**
 * A line's amount as receipt items whose amount is exactly price × quantity (CloudKassir's
 * rule): the discounts are folded into the unit price, and when the amount does not divide by
 * the quantity, the line is cut in two: some units one kopeck dearer than the others.
 */
export function foldDiscount(amountKopecks: number, quantity: number): { priceKopecks: number; quantity: number }[] {
  const unit = Math.floor(amountKopecks / quantity);
  const dearer = amountKopecks - unit * quantity;
  if (dearer === 0) return [{ priceKopecks: unit, quantity }];
  return [
    { priceKopecks: unit + 1, quantity: dearer },
    { priceKopecks: unit, quantity: quantity - dearer },
  ].filter((p) => p.priceKopecks > 0);
}

/** The sum of the items' amounts in kopecks (for checks: must equal amounts.electronic plus amounts.advancePayment). */
export function receiptItemsKopecks(receipt: PaymentReceipt): number {
  return receipt.Items.reduce((sum, item) => sum + Math.round(item.amount * 100), 0);
}
