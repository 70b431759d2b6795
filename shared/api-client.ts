import type { SiteSettings } from './site-defaults';
import type { ReviewLinesResponse, ReviewListResponse, ReviewWriteResponse } from './reviews-contract';
import type {
  CatalogPageResponse,
  CatalogSectionResponse,
  PageMeta,
  RedirectResponse,
  SearchResponse,
  SectionsResponse,
  SitemapProducts,
} from './contract';
import type {
  BlogArticle,
  BlogListResponse,
  CartResponse,
  ContentPage,
  FastOrderResponse,
  NewsletterLinkResponse,
  NewsletterResponse,
  WaitingListResponse,
} from './contract';
import type { AddressSuggestionsResponse } from './contract';
import type { WishlistResponse } from './contract';
import type { BirthdayResponse, BonusesResponse } from './contract';
import type {
  CheckoutOrderResponse,
  CitiesResponse,
  DeliveryCostResponse,
  OrderDetailResponse,
  OrderParamsResponse,
  OrderToCartResponse,
} from './contract';
import type { CertificateCheckResponse, OrderBonusesResponse } from './contract';
import type {
  ChangePaymentResponse,
  InstalmentLinkResponse,
  PaymentParamsResponse,
  PaymentStatusResponse,
} from './contract';
import type { AuthResponse, LogoutResponse, ProfileResponse, SendCodeResponse } from './contract';
import type {
  AddressChangeResponse,
  AddressesResponse,
  OrdersResponse,
  ProfileChangeResponse,
  ReturnCreateResponse,
  ReturnsResponse,
  SubscribeResponse,
} from './contract';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ApiClientOptions {
  /** '/backend' in the browser, 'http://in-process/backend' on the server, or a remote API. */
  baseUrl: string;
  fetch?: typeof fetch;
  /**
   * The server's kept public answers (server/in-process-fetch.server.ts): a GET's answer, parsed
   * once and deep-frozen, if one is kept for this address, so the call needs no Request, Response,
   * stream nor parse. Every request that asks gets the same frozen objects: read them, never change
   * them (a change throws).
   */
  keptValue?: (url: string) => Promise<unknown>;
  headers?: Record<string, string>;
}

type Query = Record<string, string | number | undefined | null>;

/** The storefront's only way to data: the product API of SPEC §7, typed by shared/contract. */
export class ApiClient {
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly options: ApiClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.doFetch = options.fetch ?? ((...args) => fetch(...args));
  }

  getMenu(): Promise<SectionsResponse> {
    return this.get('/catalog/', { iscollection: 'no' });
  }

  getPageMeta(path: string, productName?: string | null): Promise<PageMeta> {
    return this.get('/page-meta/', { path, product: productName ?? undefined });
  }

  /** The site's texts staff edit: the top banner, the home page's, the shops, the stylist chat. */
  getSiteSettings(): Promise<SiteSettings> {
    return this.get('/site-settings/');
  }

  async findRedirect(path: string): Promise<RedirectResponse['redirect']> {
    return (await this.get<RedirectResponse>('/redirect/', { path })).redirect;
  }

  /** A section listing only (home-page rows and the like); null when it does not exist. */
  async getSectionPage(path: string, query: Query = {}): Promise<CatalogSectionResponse | null> {
    const page = await this.getCatalogPage(path, query);
    return page && 'ITEMS' in page ? page : null;
  }

  /** SPEC §7 `GET {current path}` with sort and PAGEN_1: a listing (ITEMS) or a product (ITEM); null for 404. */
  getCatalogPage(path: string, query: Query = {}): Promise<CatalogPageResponse | null> {
    return this.get<CatalogPageResponse | null>(path, query, { allow404: true });
  }

  /** Canonical product addresses for the sitemap, one page of them. */
  getSitemapProducts(page: number): Promise<SitemapProducts> {
    return this.get('/sitemap/products/', { page });
  }

  /** SPEC §7 `GET /api/search?q=`. */
  search(q: string, limit?: number): Promise<SearchResponse> {
    return this.get('/api/search', { q, limit });
  }

  /** An information page's text (content/pages/{slug}.md); null when there is none. */
  getContentPage(slug: string): Promise<ContentPage | null> {
    return this.get<ContentPage | null>(`/content/pages/${encodeURIComponent(slug)}/`, {}, { allow404: true });
  }

  /** Blog articles, newest first. */
  async getBlogList(): Promise<BlogListResponse['articles']> {
    return (await this.get<BlogListResponse>('/content/blog/')).articles;
  }

  /** null when there is no such article. */
  getBlogArticle(slug: string): Promise<BlogArticle | null> {
    return this.get<BlogArticle | null>(`/content/blog/${encodeURIComponent(slug)}/`, {}, { allow404: true });
  }

  /** SPEC §7 `POST /api/personal/get_cart.php`: the basket priced by the server ('id:qty' lists). */
  getCart(basket: {
    ids?: string | undefined;
    preorderIds?: string | undefined;
    promoCode?: string | null;
    /** A customer's session: the basket is then the one kept on the server. */
    token?: string | null;
    /** The saved revision the browser's copy was made from. */
    cartRev?: number | null;
    /** At login: add this (guest) basket to the saved one. */
    merge?: boolean;
  }): Promise<CartResponse> {
    return this.post('/api/personal/get_cart.php', {
      ids: basket.ids,
      preorder_ids: basket.preorderIds,
      promo_code: basket.promoCode,
      token: basket.token,
      cart_rev: basket.cartRev,
      merge: basket.merge ? 'Y' : undefined,
    });
  }

  /**
   * SPEC §7 `GET /api/catalog/fastorder.php`: one offer ordered by a guest. `key` is the
   * idempotency key of this submission: a retry with the same key gets the same order.
   */
  fastOrder(order: {
    id: number;
    name: string;
    phone: string;
    key: string;
    recaptchaToken: string;
  }): Promise<FastOrderResponse> {
    const { recaptchaToken, ...fields } = order;
    // 422: the key was used for another submission; the answer's error is for the shopper.
    return this.get(
      '/api/catalog/fastorder.php',
      { ...fields, recaptcha_token: recaptchaToken },
      { allowStatuses: [422] },
    );
  }

  /** SPEC §7 `GET /api/catalog/addtowishlist.php`: tell me when this size is back. */
  joinWaitingList(entry: { productId: number; name: string; phone: string }): Promise<WaitingListResponse> {
    return this.get('/api/catalog/addtowishlist.php', {
      product_id: entry.productId,
      name: entry.name,
      phone: entry.phone,
    });
  }

  /** SPEC §7 `POST /api/personal/subscribe_form.php`: `message` on success, `error` to show above the field. */
  subscribeNewsletter(email: string): Promise<NewsletterResponse> {
    return this.post('/api/personal/subscribe_form.php', { email });
  }

  /** A newsletter letter's link: what the token's subscription is (`status`), or confirm it, or unsubscribe it. */
  newsletterLink(action: 'status' | 'confirm' | 'unsubscribe', token: string): Promise<NewsletterLinkResponse> {
    return this.post(`/api/newsletter/${action}`, { token });
  }

  /** SPEC §7 `POST /api/personal/send_sms.php`: a login code by SMS (`phone` digits only, the captcha token of action send_sms). */
  sendLoginCode(request: { phone: string; captchaToken: string }): Promise<SendCodeResponse> {
    return this.post('/api/personal/send_sms.php', { phone: request.phone, recaptcha_token: request.captchaToken });
  }

  /** SPEC §7 `POST /api/personal/auth_phone.php`: `user` with `jwt_token`, or `data.error`. */
  authPhone(request: { phone: string; code: string }): Promise<AuthResponse> {
    return this.post('/api/personal/auth_phone.php', request);
  }

  /** `POST /api/personal/send_email_code.php`: a login code by e-mail (captcha action send_email); answers as sendLoginCode does. */
  sendEmailCode(request: { email: string; captchaToken: string }): Promise<SendCodeResponse> {
    return this.post('/api/personal/send_email_code.php', {
      email: request.email,
      recaptcha_token: request.captchaToken,
    });
  }

  /** `POST /api/personal/auth_email.php`: `user` with `jwt_token`, or `data.error`, as authPhone. */
  authEmail(request: { email: string; code: string }): Promise<AuthResponse> {
    return this.post('/api/personal/auth_email.php', request);
  }

  /** SPEC §7 `POST /api/personal/profile_main.php`; null when the token is not (or no longer) a session. */
  async getProfile(token: string): Promise<ProfileResponse | null> {
    try {
      return await this.post<ProfileResponse>('/api/personal/profile_main.php', { 'params[token]': token });
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 401) return null;
      throw err;
    }
  }

  /** Ends the token's session, or with `all` every session of its customer. */
  logout(token: string, all = false): Promise<LogoutResponse> {
    return this.post('/api/personal/logout.php', { token, all: all ? 'yes' : undefined });
  }

  /** SPEC §7 `profile_change.php`: `change` keys lower-cased (firstname, lastname, secondname, email); only non-empty values are sent (SPEC §5). */
  changeProfile(
    token: string,
    change: Partial<Record<'firstname' | 'lastname' | 'secondname' | 'email', string>>,
  ): Promise<ProfileChangeResponse> {
    const body: Query = { token };
    for (const [k, v] of Object.entries(change)) if (v && v.trim() !== '') body[`change[${k}]`] = v;
    return this.post('/api/personal/profile_change.php', body);
  }

  /** SPEC §7 `addresses.php`: the saved addresses, or `error` (SPEC §8: keep the list shown). */
  getAddresses(token: string): Promise<AddressesResponse> {
    return this.post('/api/personal/addresses.php', { token });
  }

  /** SPEC §7 `address_add.php`: adds an address, or with `id` edits one; only non-empty fields are sent (SPEC §5). */
  saveAddress(
    token: string,
    address: {
      id?: number | undefined;
      fields: Partial<Record<'city' | 'street' | 'house' | 'flat' | 'postal_code' | 'comment', string>>;
    },
  ): Promise<AddressChangeResponse> {
    const body: Query = { token, id: address.id };
    for (const [k, v] of Object.entries(address.fields)) if (v && v.trim() !== '') body[k] = v;
    return this.post('/api/personal/address_add.php', body);
  }

  /** SPEC §7 `address_remove.php`. */
  removeAddress(token: string, id: number): Promise<AddressChangeResponse> {
    return this.post('/api/personal/address_remove.php', { token, id });
  }

  /** SPEC §7 `orders.php`: value.orders, newest first. */
  getOrders(token: string): Promise<OrdersResponse> {
    return this.post('/api/personal/orders.php', { token });
  }

  /** SPEC §7 `returns.php`: value.orders, the return requests, newest first. */
  getReturns(token: string): Promise<ReturnsResponse> {
    return this.post('/api/personal/returns.php', { token });
  }

  /** `return_add.php`: asks back lines of a received order (`items`: offer id → quantity) within the return period. */
  createReturn(
    token: string,
    request: { orderId: number; items: Record<number, number>; reason: string },
  ): Promise<ReturnCreateResponse> {
    const body: Query = { token, order_id: request.orderId, reason: request.reason };
    for (const [offerId, quantity] of Object.entries(request.items))
      if (quantity > 0) body[`items[${offerId}]`] = quantity;
    return this.post('/api/personal/return_add.php', body);
  }

  /** SPEC §7 `subscribe.php`: the account's newsletter toggle. */
  setSubscribed(token: string, active: boolean): Promise<SubscribeResponse> {
    return this.post('/api/personal/subscribe.php', { token, active: active ? 'yes' : 'no' });
  }

  /** `bonuses.php`: the balance, the birthday, the history and the bonuses to come (content/pages/loyalty.md). */
  getBonuses(token: string): Promise<BonusesResponse> {
    return this.post('/api/personal/bonuses.php', { token });
  }

  /** `birthday.php`: sets the birthday, once ('ДД.ММ.ГГГГ' or 'YYYY-MM-DD'). */
  setBirthday(token: string, birthday: string): Promise<BirthdayResponse> {
    return this.post('/api/personal/birthday.php', { token, birthday });
  }

  /**
   * SPEC §7 `GET /wishlist/`: favourites (`wishlist`) or viewed products (`watched`) as cards,
   * latest first. With a token: the customer's list, after adding or removing `ids` (add puts
   * them first). Without one: `show` only, the cards of `ids` (a guest's views). A dead token
   * (or a change without one) answers 401.
   */
  wishlist(request: {
    mode: 'wishlist' | 'watched';
    action?: 'show' | 'add' | 'remove';
    token?: string | null;
    ids?: readonly number[];
  }): Promise<WishlistResponse> {
    return this.get('/wishlist/', {
      action: request.action ?? 'show',
      mode: request.mode,
      token: request.token,
      filter: request.ids?.length ? request.ids.join(',') : undefined,
    });
  }

  /**
   * SPEC §7 `POST /api/dadata/`: address suggestions while the shopper types (debounce the calls).
   * `type`: 'address' (city to house), 'city' or 'street'; `city` restricts to that city, and
   * `restrictValue` drops it from each value. Over 120 calls a minute from one IP the API answers 429.
   */
  suggestAddress(request: {
    query: string;
    type?: 'address' | 'city' | 'street';
    city?: string;
    restrictValue?: boolean;
  }): Promise<AddressSuggestionsResponse> {
    return this.post('/api/dadata/', {
      query: request.query,
      type: request.type ?? 'address',
      restrict_value: request.restrictValue === false ? undefined : 'true',
      city: request.city,
    });
  }

  /** SPEC §7 `GET /api/catalog/get_cities.php`: the cities the shop delivers to. */
  getCities(): Promise<CitiesResponse> {
    return this.get('/api/catalog/get_cities.php');
  }

  /** SPEC §7 `GET /api/catalog/get_order_params.php`: delivery and payment methods for a city and basket ('id:qty' lists). */
  getOrderParams(request: {
    city: string;
    ids?: string | undefined;
    preorderIds?: string | undefined;
  }): Promise<OrderParamsResponse> {
    return this.get('/api/catalog/get_order_params.php', {
      city: request.city,
      ids: request.ids,
      preorder_ids: request.preorderIds,
    });
  }

  /** SPEC §7 `GET /api/catalog/getdeliverycost.php`: the delivery cost of a method for this basket and address or pickup point. */
  getDeliveryCost(request: {
    city: string;
    deliveryId: string;
    pickupPoint?: string | undefined;
    address?: string | undefined;
    ids?: string | undefined;
    preorderIds?: string | undefined;
    basketCost?: number | undefined;
  }): Promise<DeliveryCostResponse> {
    return this.get('/api/catalog/getdeliverycost.php', {
      'data[city]': request.city,
      delivery_id: request.deliveryId,
      code_pvz: request.pickupPoint,
      delivery_address: request.address,
      ids: request.ids,
      preorder_ids: request.preorderIds,
      basketcost: request.basketCost,
    });
  }

  /**
   * SPEC §7 `order.php`: places the token's customer's order from the basket lists and the form
   * fields (a free set: firstname, lastname, secondname, phone, email, city, delivery_id, street,
   * house, flat, postcode, comment, code_pvz, payment_id). `deliverycost` is what the shopper saw
   * (roubles, '' when to be confirmed); `key` makes a repeat of this submission find the same
   * order. Sent as a POST body (the path also answers GET, as SPEC writes it), so addresses and
   * phones stay out of access logs.
   */
  placeCheckoutOrder(request: {
    token: string;
    ids?: string | undefined;
    preorderIds?: string | undefined;
    promoCode?: string | null | undefined;
    fields: Record<string, string>;
    deliveryCost: number | null;
    key: string;
  }): Promise<CheckoutOrderResponse> {
    const body: Query = { ...request.fields };
    Object.assign(body, {
      token: request.token,
      ids: request.ids,
      preorder_ids: request.preorderIds,
      promo_code: request.promoCode ?? undefined,
      deliverycost: request.deliveryCost === null ? '' : request.deliveryCost,
      key: request.key,
    });
    return this.post('/api/catalog/order.php', body, { allowStatuses: [422] });
  }

  /** `order_bonuses.php` (ours): the customer's bonuses and the most this basket can take. */
  getOrderBonuses(request: {
    token: string;
    ids?: string | undefined;
    preorderIds?: string | undefined;
    promoCode?: string | null | undefined;
  }): Promise<OrderBonusesResponse> {
    return this.post('/api/catalog/order_bonuses.php', {
      token: request.token,
      ids: request.ids,
      preorder_ids: request.preorderIds,
      promo_code: request.promoCode ?? undefined,
    });
  }

  /** `check_certificate.php` (ours): a gift certificate's balance, or why it cannot pay (429 when checked too often). */
  checkCertificate(code: string): Promise<CertificateCheckResponse> {
    return this.post('/api/catalog/check_certificate.php', { code }, { allowStatuses: [429] });
  }

  /** `order_detail.php` (ours): one order of the token's customer; `error` when it is not theirs or does not exist. */
  getOrderDetail(token: string, orderId: number): Promise<OrderDetailResponse> {
    return this.post('/api/personal/order_detail.php', { token, order_id: orderId });
  }

  /** `order_to_cart.php` (ours): puts an order's lines (pre-orders as pre-orders) back in the token's customer's basket. */
  orderToCart(token: string, orderId: number): Promise<OrderToCartResponse> {
    return this.post('/api/personal/order_to_cart.php', { token, order_id: orderId });
  }

  /** `payment_params.php` (ours): the CloudPayments widget parameters of the token's customer's unpaid order. */
  getPaymentParams(token: string, orderId: number): Promise<PaymentParamsResponse> {
    return this.post('/api/catalog/payment_params.php', { token, order_id: orderId });
  }

  /** `instalment_link.php` (ours): the pay-in-parts provider's page (Dolyami, Yandex Split) for the customer's unpaid order. */
  getInstalmentLink(token: string, orderId: number): Promise<InstalmentLinkResponse> {
    return this.post('/api/catalog/instalment_link.php', { token, order_id: orderId });
  }

  /** `change_payment.php` (ours): another online method (card, Dolyami, Yandex Split) for the customer's order awaiting payment. */
  changePayment(token: string, orderId: number, paymentId: string): Promise<ChangePaymentResponse> {
    return this.post('/api/catalog/change_payment.php', { token, order_id: orderId, payment_id: paymentId });
  }

  /**
   * SPEC §7 `success_payment_order.php`: the browser says a payment went through; the server
   * asks the provider and answers `paid` only when it verified it (the token limits it to the
   * customer's own order).
   */
  checkPayment(request: {
    orderId: number;
    paymentNum?: string | undefined;
    token?: string | undefined;
  }): Promise<PaymentStatusResponse> {
    return this.get('/api/catalog/success_payment_order.php', {
      order_id: request.orderId,
      payment_num: request.paymentNum,
      token: request.token,
    });
  }

  /** A product's published reviews, rating and fit advice (issue #32): public, cached with the catalogue. */
  getReviews(
    productId: number,
    query: { sort?: string; rating?: number | null; photos?: boolean; page?: number } = {},
  ): Promise<ReviewListResponse> {
    return this.get('/api/reviews/list.php', {
      product_id: productId,
      sort: query.sort && query.sort !== 'new' ? query.sort : undefined,
      rating: query.rating ?? undefined,
      photos: query.photos ? 1 : undefined,
      page: query.page && query.page > 1 ? query.page : undefined,
    });
  }

  /** The customer's order lines with their review state (of one order or one product). */
  getReviewLines(token: string, scope: { orderId?: number; productId?: number } = {}): Promise<ReviewLinesResponse> {
    return this.post('/api/personal/review_lines.php', { token, order_id: scope.orderId, product_id: scope.productId });
  }

  /** A new review (`review_add.php`) or a rejected one sent again (`review_resend.php`); photos as base64. */
  writeReview(token: string, body: Record<string, unknown>, resend = false): Promise<ReviewWriteResponse> {
    return this.postJson(resend ? '/api/personal/review_resend.php' : '/api/personal/review_add.php', {
      token,
      ...body,
    });
  }

  private async postJson<T>(path: string, body: unknown): Promise<T> {
    const res = await this.doFetch(`${this.base}${path}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', ...this.options.headers },
      body: JSON.stringify(body),
    });
    return this.read<T>(res, path, {});
  }

  private async post<T>(path: string, body: Query, opts: { allowStatuses?: readonly number[] } = {}): Promise<T> {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(body)) if (v !== undefined && v !== null) form.set(k, String(v));
    const res = await this.doFetch(`${this.base}${path}`, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
        ...this.options.headers,
      },
      body: form.toString(),
    });
    return this.read<T>(res, path, opts);
  }

  private async get<T>(
    path: string,
    query: Query = {},
    opts: { allow404?: boolean; allowStatuses?: readonly number[] } = {},
  ): Promise<T> {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
    const qs = search.toString();
    const url = `${this.base}${path}${qs ? `?${qs}` : ''}`;
    const kept = await this.options.keptValue?.(url);
    if (kept !== undefined) return kept as T;
    const res = await this.doFetch(url, { headers: { accept: 'application/json', ...this.options.headers } });
    return this.read<T>(res, path, opts);
  }

  private async read<T>(
    res: Response,
    path: string,
    opts: { allow404?: boolean; allowStatuses?: readonly number[] },
  ): Promise<T> {
    if (res.status === 404 && opts.allow404) return null as T;
    // Statuses whose body is an answer for the shopper (a rate limit's Russian message).
    if (!res.ok && !opts.allowStatuses?.includes(res.status)) {
      const text = await res.text().catch(() => '');
      throw new ApiRequestError(res.status, path, `API ${res.status} for ${path}: ${text.slice(0, 200)}`);
    }
    return (await res.json()) as T;
  }
}
