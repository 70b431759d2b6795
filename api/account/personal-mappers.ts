import {
  PickupPoint,
  type OrderMoney,
  type AccountOrder,
  type AccountOrderLine,
  type AccountReturn,
  type OrderDetail,
  type SavedAddress,
} from '~/shared/contract';
import type { AccountOrder as OrderRecord, OrderDetailRecord, ReturnRecord } from '~/models/account-orders.server';
import { DELIVERY_TEXT, isDeliveryId } from '~/core/delivery';
import type { AddressRecord } from '~/models/addresses.server';
import { ADDRESS_FIELDS, orderStatusLabel, returnDeadline } from '~/core/account';
import { refundPartText, returnStatusText } from '~/core/return-notice';
import { cdekTrackingUrl } from '~/core/order-notice';
import { DELIVERY_ID } from '~/shared/checkout-ids';

const CDEK_IDS: readonly string[] = [DELIVERY_ID.cdekPickup, DELIVERY_ID.cdekDoor];
import { formatRussianDate } from '~/core/dates';
import { kopecksToRoubles } from '~/core/money';
import { moneyRows, type OrderBreakdown } from '~/core/order-money';

/** The breakdown in roubles with its rows as shown (core/order-money.ts): what every page reads. */
export function toOrderMoney(b: OrderBreakdown): OrderMoney {
  const r = kopecksToRoubles;
  return {
    GOODS: r(b.goodsKopecks),
    SALE: r(b.saleKopecks),
    PROMO: r(b.promoKopecks),
    BONUS: r(b.bonusKopecks),
    DELIVERY: b.deliveryKopecks === null ? null : r(b.deliveryKopecks),
    TOTAL: r(b.totalKopecks),
    CERTIFICATE: r(b.certificateKopecks),
    DUE: r(b.dueKopecks),
    CHANNEL: b.channel,
    PAID_ONLINE: r(b.paidOnlineKopecks),
    ON_RECEIPT: r(b.onReceiptKopecks),
    COLLECTED: b.collectedKopecks === null ? null : r(b.collectedKopecks),
    ROWS: moneyRows(b).map((row) => ({ KEY: row.key, LABEL: row.label, TEXT: row.text })),
  };
}

// Account rows in the contract's shapes (SPEC §3 "Order (from the order list)"): dates in
// Russian long format, statuses as Russian labels, line prices in whole roubles.

export function toSavedAddress(row: AddressRecord): SavedAddress {
  const out = { id: row.id } as SavedAddress;
  for (const name of ADDRESS_FIELDS) out[name] = row.fields[name] ?? '';
  return out;
}

/** SPEC §3: the line price is an integer of roubles. */
const wholeRoubles = (kopecks: number) => Math.round(kopecks / 100);

function toLine(line: OrderRecord['lines'][number]): AccountOrderLine {
  return {
    id: line.offerId,
    title: line.title,
    size: line.size,
    img: line.image,
    color: line.color,
    quantity: line.quantity,
    price: wholeRoubles(line.priceKopecks),
    isPreorder: line.isPreorder,
    isGift: line.isGift,
    returnable: line.returnable,
    ...(line.byEmail ? { byEmail: true } : {}),
  };
}

export function toAccountOrder(order: OrderRecord): AccountOrder {
  const deadlines = order.deliveredAt
    ? order.lines.filter((l) => !l.isGift).map((l) => returnDeadline(order.deliveredAt as Date, l.isPreorder).getTime())
    : [];
  return {
    ID: order.id,
    DATE: formatRussianDate(order.createdAt),
    STATUS: orderStatusLabel(order.status),
    STATUS_CODE: order.status,
    DELIVERED: order.deliveredAt ? formatRussianDate(order.deliveredAt) : null,
    RETURN_UNTIL: deadlines.length > 0 ? formatRussianDate(new Date(Math.max(...deadlines))) : null,
    ITEMS: order.lines.map(toLine),
    // Read from the breakdown: DISCOUNT is promo and bonuses, so ITEMS − DISCOUNT + DELIVERY = TOTAL.
    TOTAL: {
      ITEMS: kopecksToRoubles(order.money.itemsKopecks),
      DISCOUNT: kopecksToRoubles(order.money.promoKopecks + order.money.bonusKopecks),
      DELIVERY: kopecksToRoubles(order.money.deliveryKopecks ?? 0),
      TOTAL: kopecksToRoubles(order.money.totalKopecks),
    },
    PAY_UNTIL: order.status === 'awaiting_payment' && order.payUntil ? order.payUntil.toISOString() : null,
    MONEY: toOrderMoney(order.money),
  };
}

export function toAccountReturn(row: ReturnRecord): AccountReturn {
  return {
    ID: row.id,
    ORDER_ID: row.orderId,
    DATE: formatRussianDate(row.createdAt),
    STATUS: returnStatusText(row.status, row.refunds, row.decisionNote),
    REASON: row.reason,
    ITEMS: row.lines.map((l) => ({
      id: l.offerId,
      title: l.title,
      size: l.size,
      img: l.image,
      color: l.color,
      quantity: l.quantity,
      price: wholeRoubles(l.priceKopecks),
      isPreorder: l.isPreorder,
    })),
  };
}

/** `order_detail.php`: the order with its delivery (pickup point as stored when ordered), payment and history. */
export function toOrderDetail(order: OrderDetailRecord): OrderDetail {
  const list = toAccountOrder(order);
  const point = order.pickupPoint ? PickupPoint.safeParse(order.pickupPoint) : null;
  const deliveryId = order.deliveryId ?? '';
  return {
    ID: list.ID,
    DATE: list.DATE,
    STATUS: list.STATUS,
    STATUS_CODE: list.STATUS_CODE,
    ITEMS: list.ITEMS,
    TOTAL: {
      ...list.TOTAL,
      DELIVERY: order.deliveryCostPending ? null : list.TOTAL.DELIVERY,
      PAID: order.paidKopecks === null ? null : kopecksToRoubles(order.paidKopecks),
    },
    MONEY: list.MONEY,
    DELIVERY: {
      ID: deliveryId,
      NAME: isDeliveryId(deliveryId) ? DELIVERY_TEXT.delivery[deliveryId].name : 'Согласуем с менеджером',
      CITY: order.deliveryCity,
      ADDRESS: order.deliveryAddress,
      PICKUP_POINT: point?.success ? point.data : null,
      DATE_FROM: order.deliveryDateFrom,
      DATE_TO: order.deliveryDateTo,
      NOTE: order.deliveryNote,
      TRACK_NUMBER: order.trackNumber,
      TRACK_URL: order.trackNumber && CDEK_IDS.includes(deliveryId) ? cdekTrackingUrl(order.trackNumber) : null,
    },
    REFUNDS: order.refunds.map((r) => ({
      RETURN_ID: r.returnRequestId,
      TEXT: refundPartText(r),
      STATUS: r.status,
      DATE: formatRussianDate(r.createdAt),
    })),
    PAYMENT: {
      PAID_AT: order.paidAt ? formatRussianDate(order.paidAt) : null,
      PAY_UNTIL: order.payUntil && !order.paidAt ? order.payUntil.toISOString() : null,
      ID: order.paymentId,
      NAME:
        order.paymentId in DELIVERY_TEXT.payment
          ? DELIVERY_TEXT.payment[order.paymentId as keyof typeof DELIVERY_TEXT.payment].name
          : 'Согласуем с менеджером',
    },
    CONTACT: { NAME: order.customerName, PHONE: order.phone, EMAIL: order.email },
    HISTORY: order.history.map((h) => ({
      STATUS_CODE: h.status,
      STATUS: orderStatusLabel(h.status),
      DATE: formatRussianDate(h.createdAt),
      NOTE: h.note,
    })),
  };
}
