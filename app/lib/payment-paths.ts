import type { OrderDetail } from '~/shared/contract';
import { isOnlinePaymentId } from '~/core/delivery';

// The card payment's addresses (SPEC §2) and the check's answer, shared by the routes and the pay page.

export const PAY_PATH = '/basket/pay/';
export const PAY_FRAME_PATH = '/basket/pay/frame/';
export const PAY_CHECK_PATH = '/basket/pay/check/';
/** SPEC §2: /basket/submited/cloud-payments/ shows the paid order. */
export const PAID_ORDER_PATH = '/basket/submited/cloud-payments/';
export const PAYMENT_FAILED_PATH = '/basket/bad/';

/** What POST /basket/pay/check/ answers. */
export type PaymentCheckAnswer =
  | { paid: true; status: string; message: null; to: string }
  | { paid: false; status: string; message: string | null }
  | { error: string; loggedOut?: boolean };

export const payUrl = (orderId: number) => `${PAY_PATH}?order=${orderId}`;
export const orderPageUrl = (orderId: number) => `/basket/submited-order/?order=${orderId}`;
/** An order cancelled unpaid: the page that puts its lines back in the basket (core/payment-notice.ts repeatLink). */
export const repeatUrl = (orderId: number) => `/basket/repeat/?order=${orderId}`;

/** The failure page for an order, with the widget's reason when it gave one. */
export function failedUrl(orderId: number, reason: string | null): string {
  const query = new URLSearchParams({ order: String(orderId) });
  if (reason) query.set('reason', reason);
  return `${PAYMENT_FAILED_PATH}?${query.toString()}`;
}

/** A number from ?order=, or null. */
export function parseOrderId(raw: string | null): number | null {
  return raw !== null && /^\d{1,12}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/** An online order (card, SPEC §9 payment id 9, or pay in parts) past 'awaiting_payment' and not cancelled is paid: the server moves it only on a verified payment. */
export function isPaidCardOrder(order: Pick<OrderDetail, 'PAYMENT' | 'STATUS_CODE'>): boolean {
  return (
    isOnlinePaymentId(order.PAYMENT.ID) && order.STATUS_CODE !== 'awaiting_payment' && order.STATUS_CODE !== 'cancelled'
  );
}
