import { data, Form, Link, redirect } from 'react-router';
import type { Route } from './+types/basket-repeat';
import type { OrderDetail } from '~/shared/contract';
import { CACHE_PRIVATE, orNull } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { getShopper } from '~/app/lib/session.server';
import { readBasketCookies } from '~/app/lib/basket-state';
import { acceptedBasketCookies } from '~/app/lib/accepted-basket';
import { orderPageUrl, parseOrderId, payUrl } from '~/app/lib/payment-paths';
import { OrderItems } from '~/app/ui/OrderItems';

// Issue #26: /basket/repeat/?order=<id>, where the notice of an order cancelled unpaid (its time
// to pay ran out) leads: the order's lines and one button that puts them back in the basket
// (order_to_cart.php adds them to the customer's saved basket, summed and cut to stock), then
// the basket. Only the customer's own order: a guest logs in first, another customer's number
// is "not found" and shows nothing of it. Never cached or indexed.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

const loginFor = (url: URL) => `/auth/?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`;

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const orderId = parseOrderId(url.searchParams.get('order'));
  const [meta, shopper] = await Promise.all([
    context.api.getPageMeta(url.pathname),
    orNull(context.log, 'repeat page: profile', getShopper(request, context.api)),
  ]);
  if (!shopper) throw redirect(loginFor(url), { headers: CACHE_PRIVATE });
  let order: OrderDetail | null = null;
  if (orderId !== null) {
    try {
      const answer = await context.api.getOrderDetail(shopper.token, orderId);
      order = 'order' in answer ? answer.order : null;
    } catch (err) {
      context.log.error({ err }, 'repeat page: order detail failed');
    }
  }
  // Still waiting for its money: paid, not repeated.
  if (order?.STATUS_CODE === 'awaiting_payment') throw redirect(payUrl(order.ID), { headers: CACHE_PRIVATE });
  const error =
    url.searchParams.get('error') === '1'
      ? 'Не удалось вернуть товары в корзину. Попробуйте ещё раз через минуту.'
      : null;
  return data({ meta, order, error }, { status: order ? 200 : 404, headers: CACHE_PRIVATE });
}

export async function action({ context, request }: Route.ActionArgs) {
  const url = new URL(request.url);
  const form = await request.formData();
  const orderId = parseOrderId(String(form.get('order') ?? url.searchParams.get('order') ?? ''));
  const shopper = await getShopper(request, context.api).catch(() => null);
  if (!shopper) throw redirect(loginFor(url), { headers: CACHE_PRIVATE });
  if (orderId === null) throw redirect('/personal/', { headers: CACHE_PRIVATE });
  let answer;
  try {
    answer = await context.api.orderToCart(shopper.token, orderId);
  } catch (err) {
    context.log.error({ err }, 'repeat page: order to cart failed');
    throw redirect(`/basket/repeat/?order=${orderId}&error=1`, { headers: CACHE_PRIVATE });
  }
  if ('error' in answer) throw redirect(`/basket/repeat/?order=${orderId}`, { headers: CACHE_PRIVATE });
  // The browser's copy becomes the saved basket (as at login); the basket page recounts the gift covers.
  const headers = new Headers(CACHE_PRIVATE);
  for (const cookie of acceptedBasketCookies(answer, readBasketCookies(request.headers.get('cookie'))))
    headers.append('Set-Cookie', cookie);
  throw redirect('/basket/', { headers });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function BasketRepeat({ loaderData }: Route.ComponentProps) {
  const { order, error } = loaderData;
  if (!order || order.STATUS_CODE !== 'cancelled') {
    return (
      <section className="order-done">
        <h1 className="page__title">{order ? `Заказ №${order.ID}` : 'Заказ не найден'}</h1>
        <p className="order-done__text">
          {order
            ? `Этот заказ не отменён: его статус — ${order.STATUS.toLowerCase()}.`
            : 'Такого заказа нет среди ваших. Все ваши заказы — в личном кабинете.'}
        </p>
        <p className="order-done__actions">
          {order ? (
            <Link to={orderPageUrl(order.ID)} className="button">
              Посмотреть заказ
            </Link>
          ) : null}
          <Link to="/personal/" className={order ? 'button button--ghost' : 'button'}>
            Мои заказы
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="order-done order-placed">
      <p className="eyebrow">Заказ №{order.ID}</p>
      <h1 className="page__title">Заказ отменён</h1>
      <p className="order-done__text">
        Время на оплату истекло, поэтому заказ отменён, а вещи вернулись в продажу. Верните их в корзину одной кнопкой и
        оформите заказ снова — пока они есть в наличии.
      </p>
      {error ? (
        <p className="form-banner" role="alert">
          {error}
        </p>
      ) : null}
      <Form method="post" className="order-done__actions">
        <input type="hidden" name="order" value={order.ID} />
        <button type="submit" className="button">
          Вернуть товары в корзину
        </button>
        <Link to="/catalog/" className="button button--ghost">
          Вернуться в каталог
        </Link>
      </Form>
      <OrderItems order={order} totals={false} />
    </section>
  );
}
