import { useEffect } from 'react';
import { data, Link } from 'react-router';
import type { Route } from './+types/basket-submitted-order';
import { DELIVERY_ID, PAYMENT_ID, type OrderDetail, type OrderDetailResponse } from '~/shared/contract';
import { formatRoubles } from '~/core/pricing';
import { FITTING_MINUTES, SHIPPING_WORKING_DAYS } from '~/core/delivery';
import { CACHE_PRIVATE } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { getShopper } from '~/app/lib/session.server';
import { GOAL, reachGoal } from '~/app/lib/analytics';
import { announceCookieChange } from '~/app/lib/shopper-state';
import { Image } from '~/app/components/Image';
import { datesText } from '~/app/components/checkout/MethodCards';

// SPEC §2: where a placed order lands (/basket/submited-order/?order=<id>): the number, the
// lines, delivery and payment, and what happens next. Only the customer's own order is shown;
// a guest or another customer's number gets the same polite not-found page (nothing leaks).
// Personal: never cached, never indexed.

export const meta: Route.MetaFunction = (args) => [...pageMetaTags(args), { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const raw = url.searchParams.get('order') ?? '';
  const orderId = /^\d{1,12}$/.test(raw) ? Number(raw) : null;
  const [meta, shopper] = await Promise.all([
    context.api.getPageMeta(url.pathname),
    getShopper(request, context.api).catch((err: unknown) => {
      console.error('order page: profile failed', err);
      return null;
    }),
  ]);
  let answer: OrderDetailResponse | null = null;
  if (shopper && orderId !== null) {
    try {
      answer = await context.api.getOrderDetail(shopper.token, orderId);
    } catch (err) {
      console.error('order page: order detail failed', err);
    }
  }
  const order = answer && 'order' in answer ? answer.order : null;
  // A number that is not the shopper's order is a 404; the bare page (no number) just points to the account.
  return data({ meta, order, loggedIn: shopper !== null }, { status: order || orderId === null ? 200 : 404, headers: CACHE_PRIVATE });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function BasketSubmittedOrder({ loaderData }: Route.ComponentProps) {
  const { order, loggedIn } = loaderData;

  useEffect(() => {
    // The basket cookies were cleared by the order's answer: the header's count reads them again.
    announceCookieChange();
    if (!order) return;
    // SPEC §7: the checkout goal, once per order (a reload of this page does not count again).
    const mark = `vitrina:checkout-goal:${order.ID}`;
    try {
      if (sessionStorage.getItem(mark)) return;
      sessionStorage.setItem(mark, '1');
    } catch {
      // Storage refused (private mode): the goal still goes, at worst twice on a reload.
    }
    reachGoal(GOAL.checkout, { order_id: order.ID, order_price: order.TOTAL.TOTAL, currency: 'RUB' });
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

  const { DELIVERY: delivery, PAYMENT: payment, TOTAL: total } = order;
  const dates = datesText(delivery.DATE_FROM, delivery.DATE_TO);
  const point = delivery.PICKUP_POINT;
  return (
    <section className="order-done order-placed">
      <p className="eyebrow">Спасибо!</p>
      <h1 className="page__title">Заказ оформлен</h1>
      <p className="order-done__number">Номер заказа: №{order.ID}</p>
      {order.CONTACT.EMAIL ? <p className="order-done__text">Письмо с заказом отправили на {order.CONTACT.EMAIL}.</p> : null}

      <h2 className="order-placed__title">Что дальше</h2>
      <ol className="order-done__steps">
        {nextSteps(order).map((step) => (
          <li key={step.title}>
            <span>
              <strong>{step.title}</strong> {step.text}
            </span>
          </li>
        ))}
      </ol>

      <div className="order-placed__grid">
        <section className="order-placed__card" aria-labelledby="order-delivery">
          <h2 className="order-placed__title" id="order-delivery">
            Доставка
          </h2>
          <dl className="order-placed__facts">
            <dt>Способ</dt>
            <dd>{delivery.NAME}</dd>
            {point ? (
              <>
                <dt>Пункт выдачи</dt>
                <dd>
                  <span className="order-placed__line">{point.name}</span>
                  <span className="order-placed__line">{point.location.address_full}</span>
                  <span className="order-placed__line order-placed__muted">{point.work_time}</span>
                </dd>
              </>
            ) : (
              <>
                <dt>Адрес</dt>
                <dd>{delivery.ADDRESS || delivery.CITY}</dd>
              </>
            )}
            {dates ? (
              <>
                <dt>Ожидаемая доставка</dt>
                <dd>{dates}</dd>
              </>
            ) : null}
            {delivery.TRACK_NUMBER ? (
              <>
                <dt>Трек-номер</dt>
                <dd>{delivery.TRACK_NUMBER}</dd>
              </>
            ) : null}
          </dl>
          {delivery.NOTE ? <p className="order-placed__note">{delivery.NOTE}</p> : null}
        </section>
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

      <section aria-labelledby="order-items">
        <h2 className="order-placed__title" id="order-items">
          Товары
        </h2>
        <ul className="order-lines">
          {order.ITEMS.map((item) => (
            <li key={`${item.id}-${item.isPreorder ? 'p' : 'n'}`} className="order-line">
              <span className="order-line__photo">{item.img ? <Image src={item.img} alt="" width={60} height={80} /> : null}</span>
              <span className="order-line__text">
                <span className="order-line__title">{item.title}</span>
                <span className="order-line__meta">
                  {[item.size && `Размер ${item.size}`, item.color, item.isPreorder ? 'Предзаказ' : null, item.isGift ? 'Подарок' : null]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </span>
              <span className="order-line__price">
                {item.quantity} × {formatRoubles(item.price)}
              </span>
            </li>
          ))}
        </ul>
        <dl className="basket-totals order-placed__totals">
          <div className="basket-totals__row">
            <dt>Товары</dt>
            <dd>{formatRoubles(total.ITEMS)}</dd>
          </div>
          {total.DISCOUNT > 0 ? (
            <div className="basket-totals__row">
              <dt>Скидка</dt>
              <dd className="is-sale">−{formatRoubles(total.DISCOUNT)}</dd>
            </div>
          ) : null}
          <div className="basket-totals__row">
            <dt>Доставка</dt>
            <dd>
              {total.DELIVERY === null
                ? delivery.ID === DELIVERY_ID.world
                  ? 'по договорённости'
                  : 'стоимость уточнит менеджер'
                : total.DELIVERY > 0
                  ? formatRoubles(total.DELIVERY)
                  : 'бесплатно'}
            </dd>
          </div>
          <div className="basket-totals__row basket-totals__row--total">
            <dt>{payment.ID === PAYMENT_ID.onReceipt ? 'К оплате при получении' : 'К оплате'}</dt>
            <dd>{formatRoubles(total.TOTAL)}</dd>
          </div>
        </dl>
      </section>

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

/** What happens next, by delivery and payment (content/pages/delivery.md, shipment.md). */
function nextSteps(order: OrderDetail): { title: string; text: string }[] {
  const steps: { title: string; text: string }[] = [];
  const deliveryId = order.DELIVERY.ID;
  if (order.PAYMENT.ID === PAYMENT_ID.cardOnline) {
    steps.push({ title: 'Менеджер свяжется с вами', text: 'в рабочее время, с 11:00 до 22:00, и пришлёт ссылку для оплаты картой: заказ ждёт оплаты.' });
  }
  if (deliveryId === DELIVERY_ID.moscowCourier) {
    steps.push({ title: 'Курьер позвонит заранее,', text: 'чтобы согласовать удобное время доставки.' });
    steps.push({
      title: `${FITTING_MINUTES} минут на примерку.`,
      text:
        order.PAYMENT.ID === PAYMENT_ID.onReceipt
          ? 'Оплатите картой или через СБП только то, что оставите; остальное курьер заберёт.'
          : 'Если что-то не подойдёт, курьер заберёт вещь и мы вернём за неё деньги.',
    });
  } else if (deliveryId === DELIVERY_ID.cdekPickup || deliveryId === DELIVERY_ID.cdekDoor) {
    steps.push({ title: 'Передадим заказ в СДЭК', text: `в течение ${SHIPPING_WORKING_DAYS} рабочих дней.` });
    steps.push({ title: 'Трек-номер пришлём', text: 'в СМС и на e-mail: по нему можно следить за посылкой.' });
    steps.push(
      deliveryId === DELIVERY_ID.cdekPickup
        ? { title: 'Когда посылка придёт в пункт выдачи,', text: 'СДЭК пришлёт уведомление: забрать заказ можно в часы работы пункта.' }
        : { title: 'Курьер СДЭК', text: 'свяжется с вами, чтобы договориться о дне доставки.' },
    );
  } else {
    steps.push({ title: 'Менеджер свяжется с вами,', text: 'чтобы согласовать способ, стоимость и сроки доставки.' });
  }
  return steps;
}
