import { Form, Link } from 'react-router';
import type { AccountOrder } from '~/shared/contract';
import { formatRoubles } from '~/core/pricing';
import { moscowClock } from '~/core/payment-notice';
import { payUrl, repeatUrl } from '~/app/lib/payment-paths';
import { Image } from '~/app/ui/Image';
import { ReturnForm } from './ReturnForm';
import { OrderMoneyRows } from '~/app/ui/OrderMoneyRows';

/** The customer's orders, newest first: number, date, status, lines, totals, and the return form while the period lasts. */
export function OrderList({ orders }: { orders: AccountOrder[] }) {
  return (
    <section className="account__section" aria-labelledby="account-orders">
      <h2 className="account__title" id="account-orders">
        Мои заказы
      </h2>
      {orders.length === 0 ? (
        <p className="account__empty">
          Заказов пока нет. <a href="/catalog/">Перейти в каталог</a>
        </p>
      ) : (
        <ol className="order-list">
          {orders.map((order) => (
            <li key={order.ID}>
              <OrderCard order={order} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function OrderCard({ order }: { order: AccountOrder }) {
  const titleId = `order-${order.ID}`;
  const canReturn = order.ITEMS.some((i) => i.returnable > 0);
  return (
    <article className="order-card" aria-labelledby={titleId}>
      <header className="order-card__head">
        <h3 className="order-card__title" id={titleId}>
          Заказ № {order.ID}
        </h3>
        <span className="order-card__status">{order.STATUS}</span>
        <p className="order-card__dates">
          от {order.DATE}
          {order.DELIVERED ? ` · получен ${order.DELIVERED}` : null}
        </p>
      </header>
      {order.PAY_UNTIL ? (
        // Issue #26: an order awaiting online payment can be paid here until its hold ends.
        <div className="order-card__pay">
          <p className="order-card__hint">
            Оплатите до {moscowClock(new Date(order.PAY_UNTIL))} по Москве: до этого времени вещи отложены для вас.
          </p>
          <Link to={payUrl(order.ID)} className="button" aria-label={`Оплатить заказ № ${order.ID}`}>
            Оплатить
          </Link>
        </div>
      ) : null}
      {order.STATUS_CODE === 'cancelled' ? (
        <Form method="post" action={repeatUrl(order.ID)} className="order-card__pay">
          <input type="hidden" name="order" value={order.ID} />
          <button
            type="submit"
            className="button button--ghost"
            aria-label={`Вернуть в корзину товары заказа № ${order.ID}`}
          >
            Вернуть товары в корзину
          </button>
        </Form>
      ) : null}
      <ul className="order-lines">
        {order.ITEMS.map((item) => (
          <li key={`${item.id}-${item.isPreorder ? 'p' : 'n'}`} className="order-line">
            <span className="order-line__photo">
              {item.img ? <Image src={item.img} alt="" width={60} height={80} /> : null}
            </span>
            <span className="order-line__text">
              <span className="order-line__title">{item.title}</span>
              <span className="order-line__meta">
                {[
                  // An electronic certificate has no size or colour to speak of.
                  item.byEmail ? null : item.size && `Размер ${item.size}`,
                  item.byEmail ? null : item.color,
                  item.isPreorder ? 'Предзаказ' : null,
                  item.isGift ? 'Подарок' : null,
                ]
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
      <OrderMoneyRows money={order.MONEY} variant="card" />
      <p className="order-card__more">
        <a href={`/personal/orders/${order.ID}/`}>Подробнее о заказе</a>
      </p>
      {canReturn && order.RETURN_UNTIL ? (
        <details className="order-card__return">
          <summary>Оформить возврат</summary>
          <p className="order-card__hint">
            Вернуть вещи можно до {order.RETURN_UNTIL}. <a href="/return/">Условия возврата</a>
          </p>
          <ReturnForm order={order} />
        </details>
      ) : null}
    </article>
  );
}
