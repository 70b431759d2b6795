import { data, Form, Link, redirect } from 'react-router';
import { DELIVERY_TEXT, isInstalmentPaymentId, isOnlinePaymentId } from '~/core/delivery';
import { isInstalmentAvailable } from '~/core/instalments';
import { PAYMENT_ID } from '~/shared/checkout-ids';
import type { Route } from './+types/basket-bad';
import { CACHE_PRIVATE, orNull } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { getShopper } from '~/app/lib/session.server';
import { isPaidCardOrder, PAID_ORDER_PATH, parseOrderId, payUrl } from '~/app/lib/payment-paths';

// SPEC §2/§8: /basket/bad/?order=<id>[&reason=…], where a failed card payment lands: what went
// wrong (the widget's reason when it gave one), another try, or another way to pay. The order
// keeps waiting for payment until its time runs out. An order that got paid after all (another
// try in another tab) goes to its paid page. Never cached or indexed.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

/** The widget's reason, as text to show: one line, at most 200 characters. */
function cleanReason(raw: string | null): string | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim().slice(0, 200);
  return text === '' ? null : text;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const orderId = parseOrderId(url.searchParams.get('order'));
  const reason = cleanReason(url.searchParams.get('reason'));
  const [meta, shopper] = await Promise.all([
    context.api.getPageMeta(url.pathname),
    orNull(context.log, 'payment failed page: profile', getShopper(request, context.api)),
  ]);
  let cancelled = false;
  // The order's method, and the other online ones it can be paid by instead (pay in parts only within its limits).
  let paymentId: string | null = null;
  let others: { id: string; name: string }[] = [];
  if (shopper && orderId !== null) {
    try {
      const answer = await context.api.getOrderDetail(shopper.token, orderId);
      const order = 'order' in answer ? answer.order : null;
      if (order && isPaidCardOrder(order)) {
        throw redirect(`${PAID_ORDER_PATH}?order=${orderId}`, { headers: CACHE_PRIVATE });
      }
      cancelled = order?.STATUS_CODE === 'cancelled';
      if (order && order.STATUS_CODE === 'awaiting_payment' && isOnlinePaymentId(order.PAYMENT.ID)) {
        paymentId = order.PAYMENT.ID;
        // Pay in parts' limits are about what is left after certificates.
        const total = Math.round(order.MONEY.DUE * 100);
        others = [PAYMENT_ID.cardOnline, PAYMENT_ID.dolyami, PAYMENT_ID.yandexSplit]
          .filter((id) => id !== paymentId && (!isInstalmentPaymentId(id) || isInstalmentAvailable(total)))
          .map((id) => ({ id, name: DELIVERY_TEXT.payment[id].name }));
      }
    } catch (err) {
      if (err instanceof Response) throw err;
      context.log.error({ err }, 'payment failed page: order detail failed');
    }
  }
  return data({ meta, orderId, reason, cancelled, paymentId, others }, { headers: CACHE_PRIVATE });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function BasketBad({ loaderData }: Route.ComponentProps) {
  const { orderId, reason, cancelled, paymentId, others } = loaderData;
  const inParts = paymentId !== null && isInstalmentPaymentId(paymentId);
  return (
    <section className="order-done pay-failed">
      {orderId !== null ? <p className="eyebrow">Заказ №{orderId}</p> : null}
      <h1 className="page__title">Оплата не прошла</h1>
      {cancelled ? (
        <>
          <p className="order-done__text">
            Время на оплату истекло: заказ отменён, а вещи вернулись в продажу. Деньги за него не списаны.
          </p>
          <p className="order-done__actions">
            <Link to="/catalog/" className="button">
              Вернуться в каталог
            </Link>
          </p>
        </>
      ) : (
        <>
          <p className="order-done__text">
            Деньги не списаны.
            {reason ? (
              <>
                {' '}
                Причина: <span className="pay-failed__reason">{reason}</span>.
              </>
            ) : inParts ? (
              ` Сервис «${DELIVERY_TEXT.payment[paymentId as '10' | '11'].name}» не одобрил оплату частями, или она была прервана.`
            ) : (
              ' Банк или платёжная система отклонили платёж, или форма оплаты была закрыта.'
            )}
          </p>
          {inParts ? null : (
            <ul className="pay-failed__tips">
              <li>Проверьте номер карты, срок действия и код из СМС.</li>
              <li>Убедитесь, что на карте достаточно средств и разрешены покупки в интернете.</li>
              <li>Можно заплатить другой картой, через СБП или Yandex Pay.</li>
            </ul>
          )}
          <p className="order-done__actions">
            {orderId !== null ? (
              <Link to={payUrl(orderId)} className="button">
                Попробовать ещё раз
              </Link>
            ) : (
              <Link to="/personal/" className="button">
                Мои заказы
              </Link>
            )}
          </p>
          <section className="pay-failed__other" aria-labelledby="pay-other">
            <h2 className="order-placed__title" id="pay-other">
              Выбрать другой способ
            </h2>
            <p className="order-done__text">
              {orderId !== null
                ? `Заказ №${orderId} ждёт оплаты, пока не истечёт время на неё; потом он отменится сам, а вещи вернутся в продажу. `
                : ''}
              {others.length > 0
                ? 'Его можно оплатить другим способом:'
                : 'Чтобы оплатить заказ иначе, напишите или позвоните нам — менеджер поможет.'}
            </p>
            {orderId !== null && others.length > 0 ? (
              <div className="order-done__actions">
                {others.map((m) => (
                  <Form key={m.id} method="post" action={`/basket/pay/?order=${orderId}`}>
                    <input type="hidden" name="order" value={orderId} />
                    <input type="hidden" name="payment_id" value={m.id} />
                    <button type="submit" className="button button--ghost">
                      {m.id === PAYMENT_ID.cardOnline ? 'Оплатить картой онлайн' : `Оплатить: ${m.name}`}
                    </button>
                  </Form>
                ))}
              </div>
            ) : null}
            <p className="order-done__links">
              <Link to="/basket/">Корзина</Link>
              <Link to="/contacts/">Контакты</Link>
              <Link to="/delivery/">Доставка и оплата</Link>
            </p>
          </section>
        </>
      )}
    </section>
  );
}
