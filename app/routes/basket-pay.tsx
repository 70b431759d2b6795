import { data, Form, Link, redirect, redirectDocument } from 'react-router';
import type { Route } from './+types/basket-pay';
import type { OrderDetail, PaymentWidgetParams } from '~/shared/contract';
import { useRootData } from '~/app/lib/root-data';
import { ApiRequestError } from '~/shared/api-client';
import { CACHE_PRIVATE, orNull } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { getShopper } from '~/app/lib/session.server';
import { PaymentPanel } from '~/app/components/payment/PaymentPanel';
import {
  failedUrl,
  isPaidCardOrder,
  orderPageUrl,
  PAID_ORDER_PATH,
  PAY_FRAME_PATH,
  parseOrderId,
  payUrl,
  repeatUrl,
} from '~/app/lib/payment-paths';
import { isInstalmentPaymentId } from '~/core/delivery';

// SPEC §2/§4: /basket/pay/?order=<id> starts the card payment (payment id 9) of the shopper's own
// order awaiting payment; /basket/pay/frame/ is the same with no header or footer, to sit in a
// frame. The widget's parameters (amount, receipt, e-mail) come from the product API, never from
// the browser. An order paid already goes to its page; a cancelled one (its time to pay ran
// out) says so. Only the customer's own order: guests log in first. Never cached or indexed.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

type PayState =
  | { kind: 'pay'; orderId: number; payment: PaymentWidgetParams }
  | { kind: 'guest' }
  | { kind: 'no-order' }
  | { kind: 'not-found' }
  | { kind: 'expired'; orderId: number }
  | { kind: 'refused'; orderId: number; message: string }
  | { kind: 'unavailable'; orderId: number };

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const frame = url.pathname.startsWith(PAY_FRAME_PATH);
  const orderId = parseOrderId(url.searchParams.get('order'));
  const [meta, shopper] = await Promise.all([
    context.api.getPageMeta(url.pathname),
    orNull(context.log, 'pay page: profile', getShopper(request, context.api)),
  ]);
  const reply = (state: PayState, status = 200) => data({ meta, frame, state }, { status, headers: CACHE_PRIVATE });

  if (!shopper) {
    // An order to pay needs its customer: log in and come back here.
    if (orderId !== null)
      throw redirect(`/auth/?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`, { headers: CACHE_PRIVATE });
    return reply({ kind: 'guest' });
  }
  if (orderId === null) return reply({ kind: 'no-order' });

  let answer;
  try {
    answer = await context.api.getPaymentParams(shopper.token, orderId);
  } catch (err) {
    // The session ended meanwhile: log in and come back.
    if (err instanceof ApiRequestError && err.status === 401)
      throw redirect(`/auth/?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`, { headers: CACHE_PRIVATE });
    context.log.error({ err }, 'pay page: payment params failed');
    return reply({ kind: 'unavailable', orderId }, 502);
  }
  if ('payment' in answer) return reply({ kind: 'pay', orderId, payment: answer.payment });

  // Why not: the order tells (paid already, its time ran out, not a card order, not theirs).
  let order: OrderDetail | null = null;
  try {
    const detail = await context.api.getOrderDetail(shopper.token, orderId);
    order = 'order' in detail ? detail.order : null;
  } catch (err) {
    context.log.error({ err }, 'pay page: order detail failed');
  }
  if (!order) return reply({ kind: 'not-found' }, 404);
  if (isPaidCardOrder(order)) throw redirect(`${PAID_ORDER_PATH}?order=${orderId}`, { headers: CACHE_PRIVATE });
  // Pay in parts: on to the provider's page (Dolyami, Yandex Split; offline, the stand-in's), which
  // brings the shopper back to the paid page or to /basket/bad/.
  if (isInstalmentPaymentId(order.PAYMENT.ID) && order.STATUS_CODE === 'awaiting_payment') {
    let link;
    try {
      link = await context.api.getInstalmentLink(shopper.token, orderId);
    } catch (err) {
      context.log.error({ err }, 'pay page: instalment link failed');
      return reply({ kind: 'unavailable', orderId }, 502);
    }
    // A whole-document load: the provider's page (or the stand-in's, under the API base) is not a storefront route.
    if ('link' in link) throw redirectDocument(link.link, { headers: CACHE_PRIVATE });
    // The provider's approval was settled just now (its callback had not come): the paid page.
    if (link.status === 'paid') throw redirect(`${PAID_ORDER_PATH}?order=${orderId}`, { headers: CACHE_PRIVATE });
    return reply({ kind: 'refused', orderId, message: link.error });
  }
  if (order.STATUS_CODE === 'cancelled') return reply({ kind: 'expired', orderId });
  return reply({ kind: 'refused', orderId, message: answer.error });
}

/**
 * Another online method for the order (from /basket/bad/: «Оплатить картой», «Долями», «Яндекс
 * Сплит»): the server changes it while the order waits, then this page pays it that way.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const url = new URL(request.url);
  const form = await request.formData();
  const orderId = parseOrderId(String(form.get('order') ?? url.searchParams.get('order') ?? ''));
  const paymentId = String(form.get('payment_id') ?? '');
  const shopper = await getShopper(request, context.api).catch(() => null);
  if (!shopper || orderId === null)
    throw redirect(`/auth/?next=${encodeURIComponent('/personal/')}`, { headers: CACHE_PRIVATE });
  let answer;
  try {
    answer = await context.api.changePayment(shopper.token, orderId, paymentId);
  } catch (err) {
    context.log.error({ err }, 'pay page: change payment failed');
    throw redirect(failedUrl(orderId, 'не удалось сменить способ оплаты, попробуйте ещё раз'), {
      headers: CACHE_PRIVATE,
    });
  }
  if (!answer.success) throw redirect(failedUrl(orderId, answer.error), { headers: CACHE_PRIVATE });
  throw redirect(payUrl(orderId), { headers: CACHE_PRIVATE });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function BasketPay({ loaderData }: Route.ComponentProps) {
  const { frame, state } = loaderData;
  return (
    <section className={frame ? 'pay pay--frame' : 'pay'}>
      {state.kind === 'pay' ? <p className="eyebrow">Заказ №{state.orderId}</p> : null}
      <h1 className="page__title">{state.kind === 'not-found' ? 'Заказ не найден' : 'Оплата заказа'}</h1>
      <PayBody state={state} frame={frame} />
    </section>
  );
}

function PayBody({ state, frame }: { state: PayState; frame: boolean }) {
  // Inside a frame, the shop's pages open in the whole window.
  const top = frame ? '_top' : undefined;
  switch (state.kind) {
    case 'pay':
      return (
        <>
          <SimulatedPaymentNote />
          <PaymentPanel key={state.orderId} orderId={state.orderId} payment={state.payment} frame={frame} />
        </>
      );
    case 'guest':
      return (
        <>
          <p className="pay__text">
            Чтобы оплатить заказ, войдите в личный кабинет с тем номером телефона, на который он оформлен.
          </p>
          <p className="pay__actions">
            <Link to="/auth/?next=/personal/" className="button" target={top}>
              Войти
            </Link>
          </p>
        </>
      );
    case 'no-order':
      return (
        <>
          <p className="pay__text">Не указан заказ. Заказы, которые ждут оплаты, — в личном кабинете.</p>
          <p className="pay__actions">
            <Link to="/personal/" className="button" target={top}>
              Мои заказы
            </Link>
          </p>
        </>
      );
    case 'not-found':
      return (
        <>
          <p className="pay__text">Такого заказа нет среди ваших. Все ваши заказы — в личном кабинете.</p>
          <p className="pay__actions">
            <Link to="/personal/" className="button" target={top}>
              Мои заказы
            </Link>
          </p>
        </>
      );
    case 'expired':
      return (
        <>
          <p className="eyebrow">Заказ №{state.orderId}</p>
          <p className="pay__text">
            Время на оплату истекло: заказ отменён, а вещи вернулись в продажу. Если они ещё есть в наличии, их можно
            заказать снова.
          </p>
          <Form
            method="post"
            action={repeatUrl(state.orderId)}
            className="pay__actions"
            target={top}
            reloadDocument={frame}
          >
            <input type="hidden" name="order" value={state.orderId} />
            <button type="submit" className="button">
              Вернуть товары в корзину
            </button>
            <Link to="/catalog/" className="button button--ghost" target={top}>
              Вернуться в каталог
            </Link>
          </Form>
        </>
      );
    case 'refused':
      return (
        <>
          <p className="pay__text">{state.message}</p>
          <p className="pay__actions">
            <Link to={orderPageUrl(state.orderId)} className="button" target={top}>
              Посмотреть заказ
            </Link>
          </p>
        </>
      );
    case 'unavailable':
      return (
        <>
          <p className="pay__text">
            Оплата сейчас недоступна. Попробуйте обновить страницу через минуту — заказ №{state.orderId} ждёт оплаты.
          </p>
          <p className="pay__actions">
            <Link to={orderPageUrl(state.orderId)} className="button button--ghost" target={top}>
              Посмотреть заказ
            </Link>
          </p>
        </>
      );
  }
}

/** A demo shop (offline payment stand-ins, ALLOW_OFFLINE_PAYMENTS): nobody is charged, and the page says so. */
function SimulatedPaymentNote() {
  if (!useRootData()?.env.PAYMENTS_SIMULATED) return null;
  return (
    <p className="pay__demo" role="note">
      Демо-магазин: оплата не настоящая, деньги не списываются. Тестовая карта — {'4242\u00a04242\u00a04242\u00a04242'}.
    </p>
  );
}
