import { useEffect } from 'react';
import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/basket-paid';
import type { OrderDetail } from '~/shared/contract';
import { isOnlinePaymentId } from '~/core/delivery';
import { formatRoubles } from '~/core/pricing';
import { CACHE_PRIVATE, orNull } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { getShopper } from '~/app/lib/session.server';
import { NextSteps, OrderDeliveryCard, OrderItems } from '~/app/ui/OrderItems';
import { reachCheckoutGoalOnce } from '~/app/components/payment/checkout-goal';
import { isPaidCardOrder, parseOrderId, payUrl } from '~/app/lib/payment-paths';

// SPEC §2/§4: /basket/submited/cloud-payments/?order=<id>, where a card payment the server has
// verified lands: the order as paid, and what happens next. What the page says comes from the
// order's status on the server, never from the address: an order not paid yet says so and
// offers to pay. The basket cookies were cleared when the order was placed (app/routes/basket.tsx).
// Only the customer's own order; never cached or indexed.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const orderId = parseOrderId(url.searchParams.get('order'));
  const [meta, shopper] = await Promise.all([
    context.api.getPageMeta(url.pathname),
    orNull(context.log, 'paid page: profile', getShopper(request, context.api)),
  ]);
  if (orderId === null) return data({ meta, order: null, found: false, bare: true }, { headers: CACHE_PRIVATE });
  if (!shopper)
    throw redirect(`/auth/?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`, { headers: CACHE_PRIVATE });
  let order: OrderDetail | null = null;
  try {
    const answer = await context.api.getOrderDetail(shopper.token, orderId);
    order = 'order' in answer ? answer.order : null;
  } catch (err) {
    context.log.error({ err }, 'paid page: order detail failed');
  }
  return data(
    { meta, order, found: order !== null, bare: false },
    { status: order ? 200 : 404, headers: CACHE_PRIVATE },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

type Standing = 'paid' | 'awaiting' | 'cancelled' | 'other';

function standingOf(order: OrderDetail): Standing {
  if (order.STATUS_CODE === 'cancelled') return 'cancelled';
  if (isPaidCardOrder(order)) return 'paid';
  return isOnlinePaymentId(order.PAYMENT.ID) ? 'awaiting' : 'other';
}

export default function BasketPaid({ loaderData }: Route.ComponentProps) {
  const { order, bare } = loaderData;
  const standing = order ? standingOf(order) : null;

  useEffect(() => {
    if (order && standing === 'paid') reachCheckoutGoalOnce(order, { payment: 'card' });
  }, [order, standing]);

  if (!order) {
    return (
      <section className="order-done">
        <h1 className="page__title">{bare ? 'Оплата заказа' : 'Заказ не найден'}</h1>
        <p className="order-done__text">
          {bare
            ? 'Здесь показываем заказ после оплаты картой. Все ваши заказы и их статусы — в личном кабинете.'
            : 'Такого заказа нет среди ваших. Все ваши заказы — в личном кабинете.'}
        </p>
        <p className="order-done__actions">
          <Link to="/personal/" className="button">
            Мои заказы
          </Link>
          <Link to="/catalog/" className="button button--ghost">
            Вернуться в каталог
          </Link>
        </p>
      </section>
    );
  }

  if (standing !== 'paid') {
    return (
      <section className="order-done">
        <p className="eyebrow">Заказ №{order.ID}</p>
        <h1 className="page__title">
          {standing === 'awaiting'
            ? 'Заказ ждёт оплаты'
            : standing === 'cancelled'
              ? 'Заказ отменён'
              : 'Заказ оформлен'}
        </h1>
        <p className="order-done__text">
          {standing === 'awaiting'
            ? 'Оплата ещё не подтверждена. Если вы только что оплатили, обновите страницу через минуту; если нет — оплатите заказ, пока не истекло время.'
            : standing === 'cancelled'
              ? 'Время на оплату истекло или заказ отменён. Если деньги списались, мы вернём их на карту.'
              : `Статус заказа: ${order.STATUS}.`}
        </p>
        <p className="order-done__actions">
          {standing === 'awaiting' ? (
            <Link to={payUrl(order.ID)} className="button">
              Оплатить заказ
            </Link>
          ) : null}
          <Link to={`/basket/submited-order/?order=${order.ID}`} className="button button--ghost">
            Посмотреть заказ
          </Link>
        </p>
      </section>
    );
  }

  return (
    <section className="order-done order-placed">
      <p className="eyebrow">Спасибо!</p>
      <h1 className="page__title">Заказ оплачен</h1>
      <p className="order-done__number">Номер заказа: №{order.ID}</p>
      <p className="order-done__text">
        Оплата {formatRoubles(order.MONEY.PAID_ONLINE)} прошла.
        {order.CONTACT.EMAIL ? ` Электронный чек и письмо с заказом придут на ${order.CONTACT.EMAIL}.` : null}
      </p>

      <NextSteps order={order} />

      <div className="order-placed__grid">
        <OrderDeliveryCard order={order} />
        <section className="order-placed__card" aria-labelledby="order-payment">
          <h2 className="order-placed__title" id="order-payment">
            Оплата
          </h2>
          <dl className="order-placed__facts">
            <dt>Способ</dt>
            <dd>{order.PAYMENT.NAME}</dd>
            <dt>Статус</dt>
            <dd>
              <span className="paid-mark">Оплачен</span>
            </dd>
          </dl>
        </section>
      </div>

      <OrderItems order={order} />

      <p className="order-done__actions">
        <Link to="/personal/" className="button">
          Мои заказы
        </Link>
        <Link to="/catalog/" className="button button--ghost">
          Вернуться в каталог
        </Link>
      </p>
    </section>
  );
}
