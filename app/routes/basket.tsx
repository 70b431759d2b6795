import { useEffect, useRef } from 'react';
import { data, Link, redirect, useRevalidator } from 'react-router';
import type { Route } from './+types/basket';
import type { BasketItem, CartResponse, CitiesResponse, OrderBonusesResponse, OrderParamsResponse, AddressesResponse } from '~/shared/contract';
import { ApiRequestError, type ApiClient } from '~/shared/api-client';
import {
  applyGiftCover,
  cartForRequest,
  clearBasket,
  parseCartCookie,
  preordersForRequest,
  removeLine,
  removePreorder,
  replaceOffer,
  serializeCart,
  serializePreorders,
  setPreorderQuantity,
  setQuantity,
  type PreorderLine,
} from '~/core/basket';
import { formatRoubles } from '~/core/pricing';
import { CACHE_PRIVATE } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import {
  basketCookie,
  currentBasket,
  isBasketEmpty,
  preorderDataOf,
  readBasketCookies,
  useBasketCookies,
  writeBasket,
  type BasketCookies,
} from '~/app/lib/basket-state';
import { COOKIE, readCookie } from '~/shared/cookies';
import { useShopperCounts } from '~/app/lib/shopper-state';
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
import { BasketLine, GiftLine, type LineActions } from '~/app/components/basket/BasketLines';
import { PromoCodeForm } from '~/app/components/basket/PromoCodeForm';
import { goodsCount } from '~/app/components/catalog/listing-url';
import { payUrl } from '~/app/lib/payment-paths';

// SPEC §3/§4 Basket: the page renders on the server from the basket cookies (so it works before
// any script and after a reload); in the browser every change saves the cookies and reloads
// the server basket (the loader again). The server's answer is the truth: what it repaired
// (unknown offers dropped, quantities cut to stock) is written back to the cookies, with the
// gift covers recounted from its product names.

export const meta: Route.MetaFunction = (args) => [...pageMetaTags(args), { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const cookieHeader = request.headers.get('cookie');
  const cookies = readBasketCookies(cookieHeader);
  const requested = requestKey(cookies);
  // A customer's basket is kept on the server: ask even when this browser's copy is empty.
  const token = readSessionToken(request);
  const cartRev = Number(readCookie(cookieHeader, COOKIE.cartRev));
  const [meta, answer, shopper] = await Promise.all([
    context.api.getPageMeta(pathname),
    isBasketEmpty(cookies) && !token
      ? { cart: null, failed: false }
      : context.api
          .getCart({
            ids: cartForRequest(cookies.cart),
            preorderIds: preordersForRequest(cookies.preorders),
            promoCode: cookies.promoCode,
            token,
            cartRev: Number.isInteger(cartRev) ? cartRev : null,
          })
          .then(
            (cart) => ({ cart, failed: false }),
            (err: unknown) => {
              console.error('basket failed to load', err);
              return { cart: null, failed: true };
            },
          ),
    // The customer (for the checkout form); a failed profile call leaves the basket as a guest's.
    token ? orNull('profile', getShopper(request, context.api)) : null,
  ]);
  const headers = new Headers(CACHE_PRIVATE);
  if (answer.cart?.cart_rev !== undefined) headers.append('Set-Cookie', basketCookie(COOKIE.cartRev, String(answer.cart.cart_rev)));
  const hasLines = answer.cart?.items.some((i) => i.IS_GIFT === 'N') ?? false;
  const checkout = shopper && answer.cart && hasLines ? await loadCheckout(context.api, shopper, answer.cart, cookies.promoCode ?? null) : null;
  return data({ meta, ...answer, promoCode: cookies.promoCode, requested, checkout }, { headers });
}

/** A call the page can do without: logged, null, never thrown. */
async function orNull<T>(what: string, load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (err) {
    console.error(`basket: ${what} failed`, err);
    return null;
  }
}

/**
 * What the checkout form starts from (SPEC §3 Order checkout): the profile, the saved
 * addresses (the first fills the form), the shop's cities, and the delivery and payment methods
 * for that city and this basket, so the form is whole before any script runs.
 */
async function loadCheckout(api: ApiClient, shopper: Shopper, cart: CartResponse, promoCode: string | null) {
  const [addresses, cities, bonuses] = await Promise.all([
    orNull<AddressesResponse>('addresses', api.getAddresses(shopper.token)),
    orNull<CitiesResponse>('cities', api.getCities()),
    orNull<OrderBonusesResponse>('bonuses', api.getOrderBonuses({ token: shopper.token, ids: cart.cart, preorderIds: cart.preorders, promoCode })),
  ]);
  const saved = addresses && 'addresses' in addresses ? addresses.addresses : [];
  const city = saved[0]?.city || DEFAULT_CITY;
  const params = await orNull<OrderParamsResponse>('order params', api.getOrderParams({ city, ids: cart.cart, preorderIds: cart.preorders }));
  return {
    profile: shopper.profile.userInfo,
    addresses: saved,
    cities: cities?.cities ?? [],
    initialParams: { key: paramsKey(city, cart.cart, cart.preorders), params },
    idempotencyKey: newIdempotencyKey(),
    bonuses,
  };
}

const formText = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

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
  const form = await request.formData();
  const values = {} as CheckoutValues;
  for (const name of CHECKOUT_FIELDS) values[name] = formText(form, name).slice(0, CHECKOUT_MAX_LENGTH[name] + 1);
  values.save_address = formText(form, 'save_address') === 'yes';
  const sentKey = formText(form, 'key');
  const key = /^[A-Za-z0-9-]{8,64}$/.test(sentKey) ? sentKey : newIdempotencyKey();
  const refuse = (errors: Record<string, string>, status = 200, extra: Pick<CheckoutFailure, 'deliveryCost'> = {}) =>
    data({ ok: false, errors, values, key, bonuses: formText(form, 'bonuses').slice(0, 20), ...extra } satisfies CheckoutFailure, {
      status,
      headers: CACHE_PRIVATE,
    });
  if (formText(form, 'intent') !== CHECKOUT_INTENT) return refuse({ error: 'Неизвестное действие' }, 400);

  const basket = readBasketCookies(request.headers.get('cookie'));
  const costText = formText(form, 'deliverycost').trim();
  const deliveryCost = costText !== '' && Number.isFinite(Number(costText)) ? Number(costText) : null;
  const { save_address: saveAddress, ...checked } = values;
  // Bonuses and gift certificates (PayExtras): the applied numbers and one typed but not applied.
  const bonuses = formText(form, 'bonuses').trim().slice(0, 20);
  const certificates = [formText(form, 'certificates'), formText(form, 'certificate_code')]
    .map((v) => v.trim())
    .filter(Boolean)
    .join(',')
    .slice(0, 400);
  // SPEC §5: the phone is sent as digits only.
  const fields: Record<string, string> = { ...checked, phone: checked.phone.replace(/\D/g, ''), bonuses, certificates };
  let answer;
  try {
    answer = await context.api.placeCheckoutOrder({
      token: shopper.token,
      ids: cartForRequest(basket.cart),
      preorderIds: preordersForRequest(basket.preorders),
      // A code the basket showed refused is simply not applied (issue #26): it never blocks the order.
      promoCode: formText(form, PROMO_REFUSED_FIELD) === 'yes' ? null : basket.promoCode,
      fields,
      deliveryCost,
      key,
    });
  } catch (err) {
    // The session ended between the page and the post: log in again, back to the basket.
    if (err instanceof ApiRequestError && err.status === 401) throw redirect('/auth/?next=/basket/', { headers: CACHE_PRIVATE });
    console.error('checkout: order failed', err);
    return refuse({ error: CHECKOUT_TEXT.serverError }, 502);
  }
  if (!answer.success) {
    // The code stopped working after the page showed it applied: the amount is not what the
    // shopper saw. The page reloads with the code refused beside its field; the next press orders.
    const errors = answer.data.promo_code ? { ...answer.data, promo_code: promoChanged(answer.data.promo_code) } : answer.data;
    return refuse(errors, 200, answer.deliverycost !== undefined ? { deliveryCost: answer.deliverycost } : {});
  }

  if (saveAddress && deliveryMode(values.delivery_id) === 'address') {
    // The order stands whatever happens here: a failed save is logged only.
    await orNull(
      'address save',
      context.api.saveAddress(shopper.token, {
        fields: { city: values.city, street: values.street, house: values.house, flat: values.flat, postal_code: values.postcode },
      }),
    );
  }
  const headers = new Headers(CACHE_PRIVATE);
  // SPEC §4 Order: the cart is cleared (the customer's saved basket was cleared with the order).
  // A card order (payment id 9) too, although SPEC clears the cart on payment success: the order
  // is placed and holds the stock, so the lines would only be ordered twice; an unpaid order
  // gives its stock back when its time runs out.
  for (const name of [COOKIE.cart, COOKIE.preorders, COOKIE.promoCode]) headers.append('Set-Cookie', basketCookie(name, ''));
  // SPEC §4: payment id 9 starts the online payment; any other goes to the placed order's page.
  // Pay in parts goes through the same pay page, which sends the shopper on to the provider.
  // Paid in full with gift certificates: nothing to pay online, straight to the placed order.
  const next =
    isOnlinePaymentId(answer.payment_id) && answer.status === 'awaiting_payment' ? payUrl(answer.order_id) : `/basket/submited-order/?order=${answer.order_id}`;
  throw redirect(next, { headers });
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return actionHeaders.has('set-cookie') ? actionHeaders : loaderHeaders;
}

export default function Basket({ loaderData, actionData }: Route.ComponentProps) {
  const { cart: server, failed, promoCode, requested, checkout } = loaderData;
  const revalidator = useRevalidator();
  const local = useBasketCookies();
  const { loggedIn } = useShopperCounts();
  const busy = revalidator.state === 'loading';

  // Write the server's repaired basket back to the cookies, unless the shopper has changed it
  // again since this answer was asked for (its own reload is on the way).
  useEffect(() => {
    if (server && requestKey(currentBasket()) === requested) syncCookies(server);
  }, [server, requested]);

  // A removed line takes its focused button with it: the heading takes the focus instead (and
  // after «Очистить корзину» the short empty page is shown from its top).
  const title = useRef<HTMLHeadingElement>(null);
  const rescueFocus = useRef<'keep' | 'top' | null>(null);
  useEffect(() => {
    const rescue = rescueFocus.current;
    if (!rescue || busy) return;
    rescueFocus.current = null;
    if (rescue === 'top') window.scrollTo({ top: 0 });
    if (document.activeElement === document.body || document.activeElement === null) title.current?.focus({ preventScroll: rescue === 'keep' });
  }, [server, busy]);

  /** SPEC §4: each change saves the cookies and reloads the server basket. */
  function save(next: Partial<BasketCookies>) {
    writeBasket(next);
    void revalidator.revalidate();
  }

  const names = server?.items.map((i) => ({ offerId: i.ID, productName: i.PRODUCT.NAME })) ?? [];
  const actions: LineActions = {
    onQuantity(item, quantity) {
      const basket = currentBasket();
      if (item.IS_PREORDER === 'Y') {
        const preorders = setPreorderQuantity(basket.preorders, item.ID, quantity);
        save({ preorders, cart: applyGiftCover(basket.cart, names, preorders) });
      } else {
        save({ cart: applyGiftCover(setQuantity(basket.cart, item.ID, quantity), names, basket.preorders) });
      }
    },
    onSize(item, offerId) {
      const basket = currentBasket();
      // Another size of the same product: a coat stays a coat, so the covers stay as they are.
      save({ cart: applyGiftCover(replaceOffer(basket.cart, item.ID, offerId), [...names, { offerId, productName: item.PRODUCT.NAME }], basket.preorders) });
    },
    onRemove(item) {
      rescueFocus.current = 'keep';
      const basket = currentBasket();
      if (item.IS_PREORDER === 'Y') {
        const preorders = removePreorder(basket.preorders, item.ID);
        save({ preorders, cart: applyGiftCover(basket.cart, names, preorders) });
      } else {
        save({ cart: applyGiftCover(removeLine(basket.cart, item.ID), names, basket.preorders) });
      }
    },
  };

  const lines = server?.items.filter((i) => i.IS_GIFT === 'N' && i.IS_PREORDER === 'N') ?? [];
  const gifts = server?.items.filter((i) => i.IS_GIFT === 'Y') ?? [];
  const preorders = server?.items.filter((i) => i.IS_GIFT === 'N' && i.IS_PREORDER === 'Y') ?? [];
  const quantityOf = (item: BasketItem) => (item.IS_PREORDER === 'Y' ? local?.preorders.get(item.ID)?.quantity : local?.cart.get(item.ID)) ?? item.QUANTITY;

  if (failed) {
    return (
      <section className="basket">
        <h1 className="page__title" ref={title} tabIndex={-1}>
          Корзина
        </h1>
        <div className="basket-empty">
          <p className="basket-empty__title">Не удалось загрузить корзину</p>
          <p>Проверьте соединение и попробуйте ещё раз — товары в корзине сохранены.</p>
          <button type="button" className="button" onClick={() => void revalidator.revalidate()} aria-busy={busy}>
            Обновить
          </button>
        </div>
      </section>
    );
  }

  if (!server || (lines.length === 0 && preorders.length === 0)) {
    return (
      <section className="basket">
        <h1 className="page__title" ref={title} tabIndex={-1}>
          Корзина
        </h1>
        {server && server.errors.length > 0 ? <RepairNotice errors={server.errors} /> : null}
        <div className="basket-empty">
          <p className="basket-empty__title">Корзина пуста</p>
          <p>Загляните в каталог — там новая коллекция, пальто, трикотаж и деним.</p>
          <Link to="/catalog/" className="button">
            Перейти в каталог
          </Link>
        </div>
      </section>
    );
  }

  const total = server.total;
  return (
    <section className="basket" aria-busy={busy}>
      <header className="basket__head">
        <h1 className="page__title" ref={title} tabIndex={-1}>
          Корзина
        </h1>
        <p className="basket__count">{goodsCount(total.TOTAL_QUANTITY)}</p>
      </header>
      {server.errors.length > 0 ? <RepairNotice errors={server.errors} /> : null}

      <div className="basket__layout">
        <div className="basket__lines">
          {lines.length > 0 || gifts.length > 0 ? (
            <>
              <h2 className="visually-hidden">Товары</h2>
              <ul className="basket-list" aria-label="Товары в корзине">
                {lines.map((item) => (
                  <BasketLine key={item.ID} item={item} quantity={quantityOf(item)} actions={actions} />
                ))}
                {gifts.map((item) => (
                  <GiftLine key={item.ID} item={item} />
                ))}
              </ul>
            </>
          ) : null}
          {preorders.length > 0 ? (
            <section className="basket__preorders" aria-labelledby="basket-preorders">
              <h2 className="basket__subtitle" id="basket-preorders">
                Предзаказ
              </h2>
              <p className="basket__note">
                Этих размеров пока нет в наличии: отправим, как только они поступят. <Link to="/pre-order/">Как работает предзаказ</Link>
              </p>
              <ul className="basket-list" aria-label="Предзаказ">
                {preorders.map((item) => (
                  <BasketLine key={item.ID} item={item} quantity={quantityOf(item)} actions={actions} />
                ))}
              </ul>
            </section>
          ) : null}
          <button
            type="button"
            className="link-button basket__clear"
            onClick={() => {
              rescueFocus.current = 'top';
              save(clearBasket());
            }}
          >
            Очистить корзину
          </button>
        </div>

        <aside className="basket__summary" aria-label="Итого" data-keep-clear>
          <PromoCodeForm
            key={`${promoCode ?? ''}|${server.promocode}|${server.promo_code_error ?? ''}`}
            code={promoCode}
            applied={server.promocode}
            error={server.promo_code_error}
            onApply={(code) => save({ promoCode: code })}
            onRemove={() => save({ promoCode: null })}
          />
          <dl className="basket-totals">
            <div className="basket-totals__row">
              <dt>Сумма без скидки</dt>
              <dd>{formatRoubles(total.TOTAL_PRICE_WITHOUT_DISCOUNT)}</dd>
            </div>
            <div className="basket-totals__row">
              <dt>Скидка</dt>
              <dd className={total.TOTAL_DISCOUNT > 0 ? 'is-sale' : undefined}>
                {total.TOTAL_DISCOUNT > 0 ? `−${formatRoubles(total.TOTAL_DISCOUNT)}` : formatRoubles(0)}
              </dd>
            </div>
            <div className="basket-totals__row basket-totals__row--total">
              <dt>Итого</dt>
              <dd>{formatRoubles(total.TOTAL_PRICE_WITH_DISCOUNT)}</dd>
            </div>
          </dl>
          {/* The checkout form itself is below the basket (#checkout): it needs the page's width. */}
          <div className="basket__checkout">
            {checkout ? (
              <a href="#checkout" className="button basket__to-checkout">
                Перейти к оформлению
              </a>
            ) : (
              <>
                <p>
                  Чтобы оформить заказ с доставкой, войдите по номеру телефона: товары из корзины сохранятся. Или купите модель в один клик на её странице —
                  менеджер перезвонит и всё согласует.
                </p>
                {/* SPEC §4: logging in from the basket comes back here, with this basket joined to the customer's. */}
                {loggedIn ? null : (
                  <Link to="/auth/?next=/basket/" className="button button--ghost basket__login">
                    Войти
                  </Link>
                )}
              </>
            )}
          </div>
          <p className="basket__small">
            <Link to="/delivery/">Доставка</Link> по России, СНГ и миру · <Link to="/return/">Возврат</Link> в течение 7 дней
          </p>
        </aside>
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

/** What the server repaired (sold out, cut to stock, no longer sold), as it says it. */
function RepairNotice({ errors }: { errors: readonly string[] }) {
  return (
    <div className="basket-notice" role="status">
      <p className="basket-notice__title">Мы обновили корзину</p>
      <ul>
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}

/** What a basket asks the server for: two answers for the same key describe the same basket. */
function requestKey(basket: Pick<BasketCookies, 'cart' | 'preorders' | 'promoCode'>): string {
  return `${cartForRequest(basket.cart)}|${preordersForRequest(basket.preorders)}|${basket.promoCode ?? ''}`;
}

/** The server's accepted basket into the cookies: its cart and pre-orders, the gift covers recounted. */
function syncCookies(server: CartResponse): void {
  const current = currentBasket();
  const preorders = new Map<number, PreorderLine>();
  for (const [id, quantity] of parseCartCookie(server.preorders)) {
    const item = server.items.find((i) => i.ID === id && i.IS_PREORDER === 'Y');
    const productData = current.preorders.get(id)?.productData ?? (item ? preorderDataOf(item) : null);
    if (productData) preorders.set(id, { quantity, isPreorder: true, productData });
  }
  const names = server.items.map((i) => ({ offerId: i.ID, productName: i.PRODUCT.NAME }));
  const cart = applyGiftCover(parseCartCookie(server.cart), names, preorders);
  if (serializeCart(cart) !== serializeCart(current.cart) || serializePreorders(preorders) !== serializePreorders(current.preorders)) {
    writeBasket({ cart, preorders });
  }
}
