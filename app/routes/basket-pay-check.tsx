import type { Route } from './+types/basket-pay-check';
import { ApiRequestError } from '~/shared/api-client';
import { getShopper } from '~/app/lib/session.server';
import { CACHE_PRIVATE as NO_STORE, loggedOut, orNull } from '~/app/lib/route-data.server';
import { PAID_ORDER_PATH, parseOrderId, type PaymentCheckAnswer } from '~/app/lib/payment-paths';

// POST /basket/pay/check/ (order, transaction): the widget said the payment went through; the
// server asks the product API (SPEC §7 success_payment_order.php), which confirms with the
// provider before it says paid. The browser's word alone never marks anything paid. JSON for
// the pay page's script, with the session token it never sees.

const LOG_IN_TO_PAY = 'Войдите, чтобы оплатить заказ';

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const rawOrder = String(form.get('order') ?? '');
  const rawTransaction = String(form.get('transaction') ?? '');
  const orderId = parseOrderId(rawOrder);
  // A provider's transaction id: digits (CloudPayments) or the stand-in's token-like ids.
  const paymentNum = /^[A-Za-z0-9_-]{1,64}$/.test(rawTransaction) ? rawTransaction : undefined;
  if (orderId === null) return Response.json({ error: 'Неверный запрос' }, { status: 400, headers: NO_STORE });

  const shopper = await orNull(context.log, 'payment check: profile', getShopper(request, context.api));
  if (!shopper) return loggedOut(LOG_IN_TO_PAY, NO_STORE);
  try {
    const answer = await context.api.checkPayment({ orderId, paymentNum, token: shopper.token });
    const body: PaymentCheckAnswer = answer.paid
      ? { paid: true, status: answer.status, message: null, to: `${PAID_ORDER_PATH}?order=${orderId}` }
      : { paid: false, status: answer.status, message: answer.message };
    return Response.json(body, { headers: NO_STORE });
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 401) return loggedOut(LOG_IN_TO_PAY, NO_STORE);
    context.log.error({ err }, 'payment check failed');
    // Not known yet: the page asks again, then tells the shopper the payment is being processed.
    return Response.json({ paid: false, status: 'unknown', message: null } satisfies PaymentCheckAnswer, {
      status: 502,
      headers: NO_STORE,
    });
  }
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: 'POST' } });
}
