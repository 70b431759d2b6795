import { data, Form, Link, redirect, useFetcher } from 'react-router';
import type { Route } from './+types/personal-order';
import type { OrderDetail } from '~/shared/contract';
import { requireShopper } from '~/app/lib/session.server';
import { CACHE_PRIVATE, orNull } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { readBasketCookies } from '~/app/lib/basket-state';
import { acceptedBasketCookies } from '~/app/lib/accepted-basket';
import { onlinePaymentWay, OrderDeliveryCard, OrderItems } from '~/app/ui/OrderItems';
import { ReturnForm } from '~/app/components/account/ReturnForm';
import { OrderReviews } from '~/app/components/account/OrderReviews';
import type { AccountActionResult } from '~/app/components/account/account-action';
import { payUrl } from '~/app/lib/payment-paths';

// An order of the account (issue #26, item 8): /personal/orders/<id>/, the customer's own only
// (order_detail.php answers another's number as not found: a 404 here, nothing leaks). Lines,
// the money breakdown (core/order-money.ts), delivery with the tracking link, payment and
// refunds, the status history; «Оплатить» while payable, «Оформить возврат» while returnable,
// «Повторить заказ». Under /personal/: never cached, never indexed.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

const orderIdOf = (raw: string | undefined) =>
  raw && /^\d{1,10}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const shopper = await requireShopper(request, context.api);
  const orderId = orderIdOf(params.id);
  const [meta, answer, reviews] = await Promise.all([
    context.api.getPageMeta('/personal/'),
    orderId === null ? null : context.api.getOrderDetail(shopper.token, orderId),
    // The lines' review state (issue #32); the order shows without it.
    orderId === null
      ? null
      : orNull(context.log, 'review lines', context.api.getReviewLines(shopper.token, { orderId })),
  ]);
  const order = answer && 'order' in answer ? answer.order : null;
  return data(
    {
      meta: { ...meta, title: order ? `Заказ № ${order.ID}` : 'Заказ не найден' },
      order,
      reviews: order ? reviews : null,
    },
    { status: order ? 200 : 404, headers: CACHE_PRIVATE },
  );
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return actionHeaders ?? loaderHeaders;
}

/**
 * «Повторить заказ»: the order's lines go into the customer's basket (order_to_cart.php, as the
 * basket of an order cancelled unpaid does): in-stock lines into the cart, pre-orders as
 * pre-orders while their size can still be pre-ordered, the gift cover with its coats; what is
 * there stays. Then the basket, whose cookies become the saved basket.
 */
export async function action({ context, request, params }: Route.ActionArgs) {
  const shopper = await requireShopper(request, context.api);
  const orderId = orderIdOf(params.id);
  if (orderId === null) throw data(null, { status: 404 });
  const answer = await context.api.orderToCart(shopper.token, orderId);
  if ('error' in answer) throw data(null, { status: 404 });
  const headers = new Headers(CACHE_PRIVATE);
  for (const cookie of acceptedBasketCookies(answer, readBasketCookies(request.headers.get('cookie'))))
    headers.append('Set-Cookie', cookie);
  throw redirect('/basket/', { headers });
}

const REFUND_STATUS = { pending: 'в пути', done: 'возвращено', manual: 'переведём вручную' } as const;

export default function PersonalOrder({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  // The return request's answer outlives its form (which goes once nothing is left to return).
  const returned = useFetcher<AccountActionResult>({ key: `return-${order?.ID ?? 0}` }).data;
  if (!order) {
    return (
      <section className="order-done">
        <h1 className="page__title">Заказ не найден</h1>
        <p className="order-done__text">Такого заказа нет среди ваших. Все ваши заказы — в личном кабинете.</p>
        <p className="order-done__actions">
          <Link to="/personal/" className="button">
            Мои заказы
          </Link>
        </p>
      </section>
    );
  }
  const payable = onlinePaymentWay(order.PAYMENT.ID) !== null && order.STATUS_CODE === 'awaiting_payment';
  const returnable = order.ITEMS.some((i) => i.returnable > 0);
  // Pre-orders repeat too; an order still awaiting its payment is paid, not repeated.
  const repeatable = !payable && order.ITEMS.some((i) => !i.isGift);
  return (
    <section className="order-done order-placed order-page">
      <p className="eyebrow">
        <Link to="/personal/">Мои заказы</Link>
      </p>
      <h1 className="page__title">Заказ № {order.ID}</h1>
      <p className="order-page__meta">
        от {order.DATE} · <strong>{order.STATUS}</strong>
      </p>

      <div className="order-page__actions">
        {payable ? (
          <Link to={payUrl(order.ID)} className="button">
            Оплатить
          </Link>
        ) : null}
        {repeatable ? (
          <Form method="post">
            <button type="submit" className="button">
              Повторить заказ
            </button>
          </Form>
        ) : null}
      </div>

      <div className="order-placed__grid">
        <OrderDeliveryCard order={order} />
        <PaymentCard order={order} />
      </div>

      <OrderItems order={order} />

      <OrderReviews reviews={loaderData.reviews} />

      {returned?.ok && !returnable ? (
        <p className="account-form__done" role="status">
          {returned.message}
        </p>
      ) : null}
      {returnable ? (
        <details className="order-card__return order-page__return">
          <summary>Оформить возврат</summary>
          <p className="order-card__hint">
            Выберите, что вернуть. <a href="/return/">Условия возврата</a>
          </p>
          <ReturnForm order={order} action="/personal/" fetcherKey={`return-${order.ID}`} />
        </details>
      ) : null}

      <section aria-labelledby="order-history">
        <h2 className="order-placed__title" id="order-history">
          История заказа
        </h2>
        <ol className="order-history">
          {order.HISTORY.map((h, i) => (
            <li key={i} className="order-history__step">
              <span className="order-history__date">{h.DATE}</span> <strong>{h.STATUS}</strong>
              {h.NOTE ? <span className="order-history__note"> — {h.NOTE}</span> : null}
            </li>
          ))}
        </ol>
      </section>
    </section>
  );
}

function PaymentCard({ order }: { order: OrderDetail }) {
  const m = order.MONEY;
  const refunds = order.REFUNDS ?? [];
  return (
    <section className="order-placed__card" aria-labelledby="order-payment">
      <h2 className="order-placed__title" id="order-payment">
        Оплата
      </h2>
      <dl className="order-placed__facts">
        <dt>Способ</dt>
        <dd>{order.PAYMENT.NAME}</dd>
        {m.CERTIFICATE > 0 ? (
          <>
            <dt>Сертификатами</dt>
            <dd>{m.ROWS.find((r) => r.KEY === 'certificate')?.TEXT.replace('−', '')}</dd>
          </>
        ) : null}
        <dt>{m.ROWS.at(-1)?.LABEL}</dt>
        <dd>
          {m.ROWS.at(-1)?.TEXT}
          {order.PAYMENT.PAID_AT ? (
            <span className="order-placed__line order-placed__muted">{order.PAYMENT.PAID_AT}</span>
          ) : null}
        </dd>
        {refunds.length > 0 ? (
          <>
            <dt>Возвраты</dt>
            <dd>
              {refunds.map((r, i) => (
                <span key={i} className="order-placed__line">
                  Заявка № {r.RETURN_ID}, {r.DATE}: {r.TEXT} ({REFUND_STATUS[r.STATUS]})
                </span>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
