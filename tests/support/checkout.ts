import { PaymentParamsResponse } from '~/shared/contract';
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
