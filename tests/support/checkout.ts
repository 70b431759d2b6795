import { PaymentParamsResponse } from '~/shared/contract';
import { MOSCOW_COURIER_PRICE_KOPECKS } from '~/core/delivery';
import { getJson, postForm } from './api';

/**
 * Pays an order awaiting a card payment as the shopper would: the widget's parameters from
 * payment_params.php, then the offline stand-in's 'Оплатить' with the 3-D Secure code, which
 * sends the signed Check and Pay notifications to the shop. Returns the transaction id.
 */
export async function payByCard(apiBase: string, token: string, orderId: number): Promise<{ transactionId: string; amount: number }> {
  const answer = await getJson(apiBase, '/api/catalog/payment_params.php', PaymentParamsResponse, { init: postForm({ token, order_id: String(orderId) }) });
  if (!('payment' in answer)) throw new Error(answer.error);
  const p = Buffer.from(JSON.stringify(answer.payment.params)).toString('base64url');
  const res = await fetch(`${apiBase}/api/cloudpayments/offline/charge/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ p, action: 'pay', code: '1234', card: '4242 4242 4242 4242' }),
  });
  const body = (await res.json()) as { success: boolean; transactionId: string; message: string };
  if (!body.success) throw new Error(`payment declined: ${body.message}`);
  return { transactionId: body.transactionId, amount: answer.payment.params.amount };
}

/** order.php's fields for the Moscow courier, paid on receipt (`extra` changes any). */
export function courierForm(token: string, ids: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    token,
    ids,
    firstname: 'Анна',
    lastname: 'Иванова',
    phone: '+7 (916) 123-45-67',
    email: 'anna@example.com',
    city: 'Москва',
    delivery_id: '1',
    street: 'ул Тверская',
    house: '12',
    flat: '5',
    payment_id: '1',
    deliverycost: String(MOSCOW_COURIER_PRICE_KOPECKS / 100),
    key: `k-${Math.random().toString(36).slice(2, 12)}`,
    ...extra,
  };
}
