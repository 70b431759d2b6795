import { useEffect, useRef } from 'react';
import { data, redirect, useRevalidator } from 'react-router';
import type { Route } from './+types/basket';
import type {
  AddressesResponse,
  CartResponse,
  CitiesResponse,
  CheckoutOrderResponse,
  OrderBonusesResponse,
  OrderParamsResponse,
} from '~/shared/contract';
import { ApiRequestError } from '~/shared/api-client';
import type { ShopLoadContext } from '~/shared/context';
import { cartForRequest, preordersForRequest } from '~/core/basket';
import { CACHE_PRIVATE, orNull } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import {
  basketCookie,
  currentBasket,
  isBasketEmpty,
  readBasketCookies,
  writeBasket,
  type BasketCookies,
} from '~/app/lib/basket-state';
import { keepAcceptedBasket } from '~/app/lib/accepted-basket';
import { COOKIE, readCookie } from '~/shared/cookies';
import { getShopper, readSessionToken, requireShopper, type Shopper } from '~/app/lib/session.server';
import { CHECKOUT_FIELDS, CHECKOUT_MAX_LENGTH, CHECKOUT_TEXT } from '~/core/checkout';
import { deliveryMode, isOnlinePaymentId } from '~/core/delivery';
import { CheckoutForm, DEFAULT_CITY } from '~/app/components/checkout/CheckoutForm';
import {
  CHECKOUT_INTENT,
  newIdempotencyKey,
  paramsKey,
  promoChanged,
  PROMO_REFUSED_FIELD,
  type CheckoutFailure,
  type CheckoutValues,
} from '~/app/components/checkout/checkout-state';
import { BasketContents, basketParts } from '~/app/components/basket/BasketContents';
import { BasketSummary } from '~/app/components/basket/BasketSummary';
import { BasketTitle, BasketUnavailable, EmptyBasket, RepairNotice } from '~/app/components/basket/BasketStates';
import { goodsCount } from '~/app/components/catalog/listing-url';
import { payUrl } from '~/app/lib/payment-paths';

// SPEC §3/§4 Basket: the page renders on the server from the basket cookies (so it works before
// any script and after a reload); in the browser every change saves the cookies and reloads
// the server basket (the loader again). The server's answer is the truth: what it repaired
// (unknown offers dropped, quantities cut to stock) is written back to the cookies, with the
// gift covers recounted from its product names.
//
// The loader: the page's meta, the server's basket and the shopper, then (a customer with
// something to buy) the checkout form's start. The action: the checkout form's post, read,
// sent to order.php, and on to the placed order. The page: the basket's lists and summary
// (app/components/basket/), the checkout form below them.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const cookies = readBasketCookies(request.headers.get('cookie'));
  // A customer's basket is kept on the server: ask even when this browser's copy is empty.
  const token = readSessionToken(request);
  const [meta, answer, shopper] = await Promise.all([
    context.api.getPageMeta(pathname),
    isBasketEmpty(cookies) && !token ? { cart: null, failed: false } : loadCart(context, request, cookies, token),
    // The customer (for the checkout form); a failed profile call leaves the basket as a guest's.
    token ? orNull(context.log, 'basket: profile', getShopper(request, context.api)) : null,
  ]);
  const headers = new Headers(CACHE_PRIVATE);
  if (answer.cart?.cart_rev !== undefined)
    headers.append('Set-Cookie', basketCookie(COOKIE.cartRev, String(answer.cart.cart_rev)));
  const hasLines = answer.cart?.items.some((i) => i.IS_GIFT === 'N') ?? false;
  const checkout =
    shopper && answer.cart && hasLines
      ? await loadCheckout(context, shopper, answer.cart, cookies.promoCode ?? null)
      : null;
  return data({ meta, ...answer, promoCode: cookies.promoCode, requested: requestKey(cookies), checkout }, { headers });
}

/** The server's basket for these cookies (and the customer's saved one); `failed` when it could not be had. */
async function loadCart({ api, log }: ShopLoadContext, request: Request, cookies: BasketCookies, token: string | null) {
  const cartRev = Number(readCookie(request.headers.get('cookie'), COOKIE.cartRev));
  try {
    const cart = await api.getCart({
      ids: cartForRequest(cookies.cart),
      preorderIds: preordersForRequest(cookies.preorders),
      promoCode: cookies.promoCode,
      token,
      cartRev: Number.isInteger(cartRev) ? cartRev : null,
    });
    return { cart, failed: false };
  } catch (err) {
    log.error({ err }, 'basket failed to load');
    return { cart: null, failed: true };
  }
}

/**
 * What the checkout form starts from (SPEC §3 Order checkout): the profile, the saved
 * addresses (the first fills the form), the shop's cities, and the delivery and payment methods
 * for that city and this basket, so the form is whole before any script runs.
 */
async function loadCheckout(
  { api, log }: ShopLoadContext,
  shopper: Shopper,
  cart: CartResponse,
  promoCode: string | null,
) {
  const [addresses, cities, bonuses] = await Promise.all([
    orNull<AddressesResponse>(log, 'basket: addresses', api.getAddresses(shopper.token)),
    orNull<CitiesResponse>(log, 'basket: cities', api.getCities()),
    orNull<OrderBonusesResponse>(
      log,
      'basket: bonuses',
      api.getOrderBonuses({ token: shopper.token, ids: cart.cart, preorderIds: cart.preorders, promoCode }),
    ),
  ]);
  const saved = addresses && 'addresses' in addresses ? addresses.addresses : [];
  const city = saved[0]?.city || DEFAULT_CITY;
  const params = await orNull<OrderParamsResponse>(
    log,
    'basket: order params',
    api.getOrderParams({ city, ids: cart.cart, preorderIds: cart.preorders }),
  );
  return {
    profile: shopper.profile.userInfo,
    addresses: saved,
    cities: cities?.cities ?? [],
    initialParams: { key: paramsKey(city, cart.cart, cart.preorders), params },
    idempotencyKey: newIdempotencyKey(),
    bonuses,
  };
}

/**
 * The checkout form's post (intent 'order'): order.php for the customer of the session with
 * the basket of the cookies, the form's fields (a free set) and the delivery cost the shopper
 * saw. Placed: the new address saved when asked, the basket cookies cleared, and on to
 * /basket/submited-order/ (a card order: to /basket/pay/). Refused: order.php's `data` back to
 * the form (a changed delivery cost with the new cost, to confirm again). Anything unexpected:
 * SPEC §8's text.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const shopper = await requireShopper(request, context.api);
  const post = readCheckoutPost(await request.formData());
  if (post.intent !== CHECKOUT_INTENT) return refuse(post, { error: 'Неизвестное действие' }, 400);

  const basket = readBasketCookies(request.headers.get('cookie'));
  let answer: CheckoutOrderResponse;
  try {
    answer = await context.api.placeCheckoutOrder({
      token: shopper.token,
      ids: cartForRequest(basket.cart),
      preorderIds: preordersForRequest(basket.preorders),
      // A code the basket showed refused is simply not applied (issue #26): it never blocks the order.
      promoCode: post.promoRefused ? null : basket.promoCode,
      fields: post.fields,
      deliveryCost: post.deliveryCost,
      key: post.key,
    });
  } catch (err) {
    // The session ended between the page and the post: log in again, back to the basket.
    if (err instanceof ApiRequestError && err.status === 401)
      throw redirect('/auth/?next=/basket/', { headers: CACHE_PRIVATE });
    context.log.error({ err }, 'checkout: order failed');
    return refuse(post, { error: CHECKOUT_TEXT.serverError }, 502);
  }
  if (!answer.success) {
    // The code stopped working after the page showed it applied: the amount is not what the
    // shopper saw. The page reloads with the code refused beside its field; the next press orders.
    const errors = answer.data.promo_code
      ? { ...answer.data, promo_code: promoChanged(answer.data.promo_code) }
      : answer.data;
    return refuse(post, errors, 200, answer.deliverycost !== undefined ? { deliveryCost: answer.deliverycost } : {});
  }
  if (post.values.save_address && deliveryMode(post.values.delivery_id) === 'address')
    await saveAddress(context, shopper, post.values);
  throw redirect(placedOrderPage(answer), { headers: clearedBasket() });
}

type CheckoutPost = ReturnType<typeof readCheckoutPost>;

const formText = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** The checkout form's post as order.php takes it: the fields (each cut to its length), the cost seen, the order's key. */
function readCheckoutPost(form: FormData) {
  const values = {} as CheckoutValues;
  for (const name of CHECKOUT_FIELDS) values[name] = formText(form, name).slice(0, CHECKOUT_MAX_LENGTH[name] + 1);
  values.save_address = formText(form, 'save_address') === 'yes';
  const sentKey = formText(form, 'key');
  const costText = formText(form, 'deliverycost').trim();
  const { save_address: _saveAddress, ...checked } = values;
  // Bonuses and gift certificates (PayExtras): the applied numbers and one typed but not applied.
  const bonuses = formText(form, 'bonuses').trim().slice(0, 20);
  const certificates = [formText(form, 'certificates'), formText(form, 'certificate_code')]
    .map((v) => v.trim())
    .filter(Boolean)
    .join(',')
    .slice(0, 400);
  // SPEC §5: the phone is sent as digits only.
  const fields: Record<string, string> = { ...checked, phone: checked.phone.replace(/\D/g, ''), bonuses, certificates };
  return {
    intent: formText(form, 'intent'),
    values,
    key: /^[A-Za-z0-9-]{8,64}$/.test(sentKey) ? sentKey : newIdempotencyKey(),
    deliveryCost: costText !== '' && Number.isFinite(Number(costText)) ? Number(costText) : null,
    fields,
    /** The bonuses as typed, for the form shown again. */
    bonusesTyped: formText(form, 'bonuses').slice(0, 20),
    promoRefused: formText(form, PROMO_REFUSED_FIELD) === 'yes',
  };
}

/** The form again, with what was sent, the same key and the errors to show. */
function refuse(
  post: CheckoutPost,
  errors: Record<string, string>,
  status = 200,
  extra: Pick<CheckoutFailure, 'deliveryCost'> = {},
) {
  return data(
    {
      ok: false,
      errors,
      values: post.values,
      key: post.key,
      bonuses: post.bonusesTyped,
      ...extra,
    } satisfies CheckoutFailure,
    {
      status,
      headers: CACHE_PRIVATE,
    },
  );
}

/** The new delivery address into the address book, when the shopper asked: the order stands whatever happens here (a failure is logged only). */
async function saveAddress({ api, log }: ShopLoadContext, shopper: Shopper, values: CheckoutValues): Promise<void> {
  await orNull(
    log,
    'basket: address save',
    api.saveAddress(shopper.token, {
      fields: {
        city: values.city,
        street: values.street,
        house: values.house,
        flat: values.flat,
        postal_code: values.postcode,
      },
    }),
  );
}

/**
 * SPEC §4 Order: the cart is cleared (the customer's saved basket was cleared with the order).
 * A card order (payment id 9) too, although SPEC clears the cart on payment success: the order
 * is placed and holds the stock, so the lines would only be ordered twice; an unpaid order
 * gives its stock back when its time runs out.
 */
function clearedBasket(): Headers {
  const headers = new Headers(CACHE_PRIVATE);
  for (const name of [COOKIE.cart, COOKIE.preorders, COOKIE.promoCode])
    headers.append('Set-Cookie', basketCookie(name, ''));
  return headers;
}

/**
 * SPEC §4: payment id 9 starts the online payment; any other goes to the placed order's page.
 * Pay in parts goes through the same pay page, which sends the shopper on to the provider.
 * Paid in full with gift certificates: nothing to pay online, straight to the placed order.
 */
function placedOrderPage(placed: Extract<CheckoutOrderResponse, { success: true }>): string {
  return isOnlinePaymentId(placed.payment_id) && placed.status === 'awaiting_payment'
    ? payUrl(placed.order_id)
    : `/basket/submited-order/?order=${placed.order_id}`;
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return actionHeaders.has('set-cookie') ? actionHeaders : loaderHeaders;
}

export default function Basket({ loaderData, actionData }: Route.ComponentProps) {
  const { cart: server, failed, promoCode, requested, checkout } = loaderData;
  const revalidator = useRevalidator();
  const busy = revalidator.state === 'loading';
  useAcceptedBasketKept(server, requested);
  const focus = useFocusRescue(server, busy);
  /** SPEC §4: each change saves the cookies and reloads the server basket. */
  const save = (next: Partial<BasketCookies>) => {
    writeBasket(next);
    void revalidator.revalidate();
  };

  if (failed)
    return <BasketUnavailable titleRef={focus.title} busy={busy} onRetry={() => void revalidator.revalidate()} />;
  const { lines, preorders } = server ? basketParts(server) : { lines: [], preorders: [] };
  if (!server || (lines.length === 0 && preorders.length === 0))
    return <EmptyBasket titleRef={focus.title} errors={server?.errors ?? []} />;
  return (
    <section className="basket" aria-busy={busy}>
      <header className="basket__head">
        <BasketTitle titleRef={focus.title} />
        <p className="basket__count">{goodsCount(server.total.TOTAL_QUANTITY)}</p>
      </header>
      {server.errors.length > 0 ? <RepairNotice errors={server.errors} /> : null}
      <div className="basket__layout">
        <BasketContents
          server={server}
          save={save}
          onLineRemoved={() => focus.after('keep')}
          onCleared={() => focus.after('top')}
        />
        <BasketSummary server={server} promoCode={promoCode} checkoutBelow={checkout !== null} save={save} />
      </div>
      {checkout ? (
        <CheckoutForm
          cart={server}
          profile={checkout.profile}
          addresses={checkout.addresses}
          cities={checkout.cities}
          initialParams={checkout.initialParams}
          ids={server.cart}
          preorderIds={server.preorders}
          idempotencyKey={checkout.idempotencyKey}
          failure={actionData && 'values' in actionData ? actionData : null}
          bonuses={checkout.bonuses}
        />
      ) : null}
    </section>
  );
}

/**
 * Writes the server's repaired basket back to the cookies, unless the shopper has changed it
 * again since this answer was asked for (its own reload is on the way).
 */
function useAcceptedBasketKept(server: CartResponse | null, requested: string): void {
  useEffect(() => {
    if (server && requestKey(currentBasket()) === requested) keepAcceptedBasket(server);
  }, [server, requested]);
}

/**
 * A removed line takes its focused button with it: the heading takes the focus instead (and
 * after «Очистить корзину» the short empty page is shown from its top), once the new basket is in.
 */
function useFocusRescue(server: CartResponse | null, busy: boolean) {
  const title = useRef<HTMLHeadingElement>(null);
  const rescue = useRef<'keep' | 'top' | null>(null);
  useEffect(() => {
    const how = rescue.current;
    if (!how || busy) return;
    rescue.current = null;
    if (how === 'top') window.scrollTo({ top: 0 });
    if (document.activeElement === document.body || document.activeElement === null)
      title.current?.focus({ preventScroll: how === 'keep' });
  }, [server, busy]);
  return {
    title,
    /** Said before a change that may take the focused element away. */
    after(how: 'keep' | 'top') {
      rescue.current = how;
    },
  };
}

/** What a basket asks the server for: two answers for the same key describe the same basket. */
function requestKey(basket: Pick<BasketCookies, 'cart' | 'preorders' | 'promoCode'>): string {
  return `${cartForRequest(basket.cart)}|${preordersForRequest(basket.preorders)}|${basket.promoCode ?? ''}`;
}
