import { data, Link, redirect } from 'react-router';
import type { Route } from './+types/basket-submitted';
import { CACHE_PRIVATE } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { getShopper } from '~/app/lib/session.server';
import type { ShopLoadContext } from '~/shared/context';
import { isPaidCardOrder, PAID_ORDER_PATH } from '~/app/lib/payment-paths';
import { SUPPORT_HOURS } from '~/app/lib/shop-info';

// SPEC §2: where a fast order (and a paid online order) lands: the order number from ?order=
// and what happens next. Personal: never cached, never indexed.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const raw = url.searchParams.get('order') ?? '';
  const order = /^\d{1,12}$/.test(raw) ? raw : null;
  const [meta, paid] = await Promise.all([
    context.api.getPageMeta(url.pathname),
    order ? paidCardOrder(request, context, Number(order)) : false,
  ]);
  // SPEC §2: online payment success goes to /basket/submited/; the paid order has its own page.
  if (paid) throw redirect(`${PAID_ORDER_PATH}?order=${order}`, { headers: CACHE_PRIVATE });
  return data({ meta, order }, { headers: CACHE_PRIVATE });
}

/** Whether the logged-in shopper's order `orderId` is a card order that has been paid (a guest's fast order: never asked). */
async function paidCardOrder(request: Request, { api, log }: ShopLoadContext, orderId: number): Promise<boolean> {
  try {
    const shopper = await getShopper(request, api);
    if (!shopper) return false;
    const answer = await api.getOrderDetail(shopper.token, orderId);
    return 'order' in answer && isPaidCardOrder(answer.order);
  } catch (err) {
    log.error({ err }, 'submitted page: order look-up failed');
    return false;
  }
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function BasketSubmitted({ loaderData }: Route.ComponentProps) {
  const { order } = loaderData;
  return (
    <section className="order-done">
      <p className="eyebrow">Спасибо!</p>
      <h1 className="page__title">Заказ оформлен</h1>
      {order ? <p className="order-done__number">Номер заказа: №{order}</p> : null}
      <ol className="order-done__steps">
        <li>
          <span>
            <strong>Менеджер позвонит</strong>, чтобы подтвердить заказ, — в рабочее время: {SUPPORT_HOURS}.
          </span>
        </li>
        <li>
          <span>
            <strong>Оплату и доставку</strong> согласуем по телефону: курьером, в пункт выдачи или в одном из наших
            магазинов.
          </span>
        </li>
        <li>
          <span>
            <strong>Отправим заказ</strong> в течение 3 рабочих дней после подтверждения.
          </span>
        </li>
      </ol>
      <p className="order-done__links">
        <Link to="/delivery/">Доставка и оплата</Link>
        <Link to="/return/">Возврат и обмен</Link>
      </p>
      <Link to="/catalog/" className="button">
        Вернуться в каталог
      </Link>
    </section>
  );
}
