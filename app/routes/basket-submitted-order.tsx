import { useEffect } from 'react';
import { data, Link } from 'react-router';
import type { Route } from './+types/basket-submitted-order';
import type { OrderDetail, OrderDetailResponse } from '~/shared/contract';
import { CACHE_PRIVATE, orNull } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { getShopper } from '~/app/lib/session.server';
import { announceCookieChange } from '~/app/lib/shopper-state';
import { NextSteps, onlinePaymentWay, OrderDeliveryCard, OrderItems } from '~/app/ui/OrderItems';
import { reachCheckoutGoalOnce } from '~/app/components/payment/checkout-goal';
import { payUrl } from '~/app/lib/payment-paths';

// SPEC §2: where a placed order lands (/basket/submited-order/?order=<id>): the number, the
// lines, delivery and payment, and what happens next. Only the customer's own order is shown;
// a guest or another customer's number gets the same polite not-found page (nothing leaks).
// Personal: never cached, never indexed.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const raw = url.searchParams.get('order') ?? '';
  const orderId = /^\d{1,12}$/.test(raw) ? Number(raw) : null;
  const [meta, shopper] = await Promise.all([
    context.api.getPageMeta(url.pathname),
    orNull(context.log, 'order page: profile', getShopper(request, context.api)),
  ]);
  let answer: OrderDetailResponse | null = null;
  if (shopper && orderId !== null) {
    try {
      answer = await context.api.getOrderDetail(shopper.token, orderId);
    } catch (err) {
      context.log.error({ err }, 'order page: order detail failed');
    }
  }
  const order = answer && 'order' in answer ? answer.order : null;
  // A number that is not the shopper's order is a 404; the bare page (no number) just points to the account.
  return data(
    { meta, order, loggedIn: shopper !== null },
    { status: order || orderId === null ? 200 : 404, headers: CACHE_PRIVATE },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

/** An order paid online (card, Dolyami, Yandex Split) not paid yet, and not cancelled. */
function awaitingCardPayment(order: OrderDetail): boolean {
  return onlinePaymentWay(order.PAYMENT.ID) !== null && order.STATUS_CODE === 'awaiting_payment';
}

export default function BasketSubmittedOrder({ loaderData }: Route.ComponentProps) {
  const { order, loggedIn } = loaderData;

  useEffect(() => {
    // The basket cookies were cleared by the order's answer: the header's count reads them again.
    announceCookieChange();
    if (!order) return;
    // A card order still awaiting payment counts when it is paid (its paid page).
    if (awaitingCardPayment(order)) return;
    reachCheckoutGoalOnce(order);
  }, [order]);

  if (!order) {
    return (
      <section className="order-done">
        <h1 className="page__title">Заказ не найден</h1>
        <p className="order-done__text">
          {loggedIn
            ? 'Такого заказа нет среди ваших. Все ваши заказы — в личном кабинете.'
            : 'Чтобы посмотреть заказ, войдите в личный кабинет с тем номером телефона, на который он оформлен.'}
        </p>
        <p className="order-done__actions">
          {loggedIn ? (
            <Link to="/personal/" className="button">
              Мои заказы
            </Link>
          ) : (
            <Link to="/auth/?next=/personal/" className="button">
              Войти
            </Link>
          )}
          <Link to="/catalog/" className="button button--ghost">
            Вернуться в каталог
          </Link>
        </p>
      </section>
    );
  }

  const payment = order.PAYMENT;
  const toPay = awaitingCardPayment(order);
  return (
    <section className="order-done order-placed">
      <p className="eyebrow">Спасибо!</p>
      <h1 className="page__title">Заказ оформлен</h1>
      <p className="order-done__number">Номер заказа: №{order.ID}</p>
      {order.CONTACT.EMAIL ? (
        <p className="order-done__text">Письмо с заказом отправили на {order.CONTACT.EMAIL}.</p>
      ) : null}
      {toPay ? (
        <div className="order-pay-now">
          <p className="order-done__text">
            Заказ ждёт оплаты {onlinePaymentWay(order.PAYMENT.ID)}: вещи отложены для вас, пока не истечёт время на
            оплату.
          </p>
          <Link to={payUrl(order.ID)} className="button">
            Оплатить заказ
          </Link>
        </div>
      ) : null}

      <NextSteps order={order} />

      <div className="order-placed__grid">
        <OrderDeliveryCard order={order} />
        <section className="order-placed__card" aria-labelledby="order-payment">
          <h2 className="order-placed__title" id="order-payment">
            Оплата
          </h2>
          <dl className="order-placed__facts">
            <dt>Способ</dt>
            <dd>{payment.NAME}</dd>
            <dt>Статус</dt>
            <dd>{order.STATUS}</dd>
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
