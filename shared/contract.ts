import { z } from 'zod';

// The one description of every product-API response shape this shop defines. SPEC §3/§7
// field names are kept (SECTIONS, ITEMS, NAV_STRING, ...); the storefront's ApiClient types
// come from here, and so will the published OpenAPI document.

export const SectionLink = z.object({
  CODE: z.string(),
  NAME: z.string(),
  SECTION_PAGE_URL: z.string(),
});
export type SectionLink = z.infer<typeof SectionLink>;

export const MenuSection = SectionLink.extend({ SECOND_LVL: z.array(SectionLink) });
export type MenuSection = z.infer<typeof MenuSection>;

export const SectionsResponse = z.object({ SECTIONS: z.array(MenuSection) });
export type SectionsResponse = z.infer<typeof SectionsResponse>;

export const PageMeta = z.object({
  title: z.string(),
  description: z.string(),
  keywords: z.string(),
  seoBottom: z.string().optional(),
  seoDescription: z.string().optional(),
  canonicalPath: z.string(),
});
export type PageMeta = z.infer<typeof PageMeta>;

export const RedirectResponse = z.object({
  redirect: z.object({ location: z.string(), status: z.number().int(), external: z.boolean() }).nullable(),
});
export type RedirectResponse = z.infer<typeof RedirectResponse>;

export const CatalogListItem = z.object({
  ID: z.number().int(),
  NAME: z.string(),
  DETAIL_PAGE_URL: z.string(),
  // Roubles as integers of kopecks are kept internally; the contract speaks roubles (integers).
  PRICE: z.number(),
  OLD_PRICE: z.number().nullable(),
  PREVIEW_PICTURE: z.string().nullable(),
  SECOND_PICTURE: z.string().nullable(),
  COLOR: z.string(),
  IS_NEW: z.boolean(),
  /** Published reviews' average (one decimal) and count (issue #32); absent without reviews. */
  RATING: z.object({ VALUE: z.number(), COUNT: z.number().int() }).optional(),
});
export type CatalogListItem = z.infer<typeof CatalogListItem>;

/** SPEC §7 `GET /wishlist/`: the favourites or viewed products as catalogue cards, latest first (active products only). */
export const WishlistResponse = z.object({ ITEMS: z.array(CatalogListItem) });
export type WishlistResponse = z.infer<typeof WishlistResponse>;

export const NavString = z.object({
  CURRENT_PAGE: z.number().int(),
  PAGE_COUNT: z.number().int(),
  PAGE_SIZE: z.number().int(),
  ITEMS_COUNT: z.number().int(),
});
export type NavString = z.infer<typeof NavString>;

export const FilterValue = z.object({
  URL_ID: z.string(),
  VALUE: z.string(),
  /** Products this value gives together with the other applied filters. */
  COUNT: z.number().int(),
  /** A value that would give no results: shown, but not offered as a link. */
  DISABLED: z.boolean(),
  CHECKED: z.boolean(),
  /** The colour swatch, for colour values. */
  HEX: z.string().optional(),
  /** The canonical filter URL with this value switched on or off. */
  URL: z.string(),
});
export type FilterValue = z.infer<typeof FilterValue>;

export const ListFilter = z.object({
  CODE: z.enum(['size', 'color']),
  NAME: z.string(),
  MULTIPLE: z.literal(true),
  VALUES: z.array(FilterValue),
});
export const PriceFilter = z.object({
  CODE: z.literal('price'),
  NAME: z.string(),
  MULTIPLE: z.literal(false),
  /** Whole roubles: the section's range, and what is applied (null = open end). */
  VALUES: z.object({
    MIN: z.number().int(),
    MAX: z.number().int(),
    FROM: z.number().int().nullable(),
    TO: z.number().int().nullable(),
  }),
});
export const CatalogFilterBlock = z.discriminatedUnion('CODE', [ListFilter, PriceFilter]);
export type CatalogFilterBlock = z.infer<typeof CatalogFilterBlock>;

export const SortOption = z.object({
  CODE: z.enum(['popular', 'new', 'price_asc', 'price_desc']),
  NAME: z.string(),
  SELECTED: z.boolean(),
});
export type SortOption = z.infer<typeof SortOption>;

export const Breadcrumb = z.object({ NAME: z.string(), URL: z.string() });
export type Breadcrumb = z.infer<typeof Breadcrumb>;

export const CatalogSectionResponse = z.object({
  SECTION: SectionLink,
  BREADCRUMBS: z.array(Breadcrumb),
  ITEMS: z.array(CatalogListItem),
  FILTER: z.array(CatalogFilterBlock),
  SORTS: z.array(SortOption),
  /** The canonical URL of what is shown: section plus filter, without sort and page. */
  CANONICAL_URL: z.string(),
  NAV_STRING: NavString,
});
export type CatalogSectionResponse = z.infer<typeof CatalogSectionResponse>;

export const PhotoValue = z.object({
  ID: z.number().int(),
  FULL: z.string(),
  ALT: z.string(),
  WIDTH: z.number().int(),
  HEIGHT: z.number().int(),
});
export type PhotoValue = z.infer<typeof PhotoValue>;

/** SPEC §3 PROPERTIES: each with NAME, VALUE, DESCRIPTION (lists for multiple values). */
export const PropertyValue = z.object({
  NAME: z.string(),
  VALUE: z.union([z.string(), z.array(z.string())]),
  DESCRIPTION: z.union([z.string(), z.array(z.string())]),
});
export type PropertyValue = z.infer<typeof PropertyValue>;

export const ProductProperties = z
  .object({ MORE_PHOTO: z.object({ NAME: z.string(), VALUE: z.array(PhotoValue), DESCRIPTION: z.string() }) })
  .catchall(PropertyValue);
export type ProductProperties = z.infer<typeof ProductProperties>;

export const SizeValue = z.object({ LABEL: z.string(), VALUE: z.string() });

export const ProductOffer = z.object({
  ID: z.number().int(),
  SELECTED: z.boolean(),
  /** 'N': not in stock (pre-order where IS_PREORDER is 'Y'). */
  AVAILABLE: z.enum(['Y', 'N']),
  IS_PREORDER: z.enum(['Y', 'N']),
  IS_OFFER: z.object({ SIZES_CLOTHES: SizeValue.optional(), SIZES_SHOES: SizeValue.optional() }),
  /** The size as a filter URL_ID ('44', '37', 'edinyj'). */
  SIZE_ID: z.string(),
  PRICE: z.number(),
  OLD_PRICE: z.number().nullable(),
  QUANTITY: z.number().int(),
  IMAGE_SRC: z.string().nullable(),
  DETAIL_PAGE_URL: z.string(),
  PROPERTIES: z.record(z.string(), PropertyValue),
});
export type ProductOffer = z.infer<typeof ProductOffer>;

export const ColorVariant = z.object({
  ID: z.number().int(),
  NAME: z.string(),
  COLOR: z.string(),
  HEX: z.string(),
  DETAIL_PAGE_URL: z.string(),
  IMAGE_SRC: z.string().nullable(),
  IS_ACTIVE_PAGE: z.boolean(),
});
export type ColorVariant = z.infer<typeof ColorVariant>;

export const ProductItem = z.object({
  ID: z.number().int(),
  NAME: z.string(),
  DESCRIPTION: z.string(),
  /** The one canonical address of the product, whatever path it was opened under. */
  DETAIL_PAGE_URL: z.string(),
  SECTION: SectionLink,
  COLOR: z.string(),
  IS_NEW: z.boolean(),
  /** PRICE: before discount; DISCOUNT_PRICE: what the shopper pays (equal when no sale). Roubles. */
  PRICE: z.object({ PRICE: z.number(), DISCOUNT_PRICE: z.number() }),
  PROPERTIES: ProductProperties,
  OFFERS: z.array(ProductOffer),
  OTHER_LINK: z.array(ColorVariant),
  /** A gift certificate (ours): 'electronic' goes by e-mail (no colour, size nor parcel), 'plastic' ships; null for goods. */
  CERTIFICATE: z.enum(['electronic', 'plastic']).nullable().optional(),
});
export type ProductItem = z.infer<typeof ProductItem>;

export const ProductResponse = z.object({ ITEM: ProductItem, BREADCRUMBS: z.array(Breadcrumb) });
export type ProductResponse = z.infer<typeof ProductResponse>;

/** GET {current path}: a listing (ITEMS) or a product (ITEM), SPEC §4 Catalogue page. */
export type CatalogPageResponse = CatalogSectionResponse | ProductResponse;

export const SitemapProducts = z.object({
  urls: z.array(z.object({ loc: z.string(), lastmod: z.string() })),
  page: z.number().int(),
  pageCount: z.number().int(),
});
export type SitemapProducts = z.infer<typeof SitemapProducts>;

export const SearchHit = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  image: z.string().nullable(),
  price: z.number(),
  old_price: z.number().nullable(),
  color: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResponse = z.object({ hits: z.array(SearchHit), query: z.string(), total: z.number().int() });
export type SearchResponse = z.infer<typeof SearchResponse>;

export const ApiError = z.object({ error: z.string() });
export type ApiError = z.infer<typeof ApiError>;

// Shop content: information pages and the blog (Markdown rendered to HTML by the API).
export const ContentPage = z.object({ slug: z.string(), title: z.string(), lead: z.string(), html: z.string() });
export type ContentPage = z.infer<typeof ContentPage>;

export const BlogArticleSummary = z.object({
  slug: z.string(),
  title: z.string(),
  lead: z.string(),
  /** 'YYYY-MM-DD' */
  date: z.string(),
  /** '14 октября 2026' (SPEC §9: dates in Russian long format). */
  dateText: z.string(),
  /** The cover image URL (a 1200×1600 illustration). */
  cover: z.string(),
});
export type BlogArticleSummary = z.infer<typeof BlogArticleSummary>;

/** GET /content/blog/: newest first. */
export const BlogListResponse = z.object({ articles: z.array(BlogArticleSummary) });
export type BlogListResponse = z.infer<typeof BlogListResponse>;

export const BlogArticle = BlogArticleSummary.extend({
  html: z.string(),
  /** Catalogue sections the article is about. */
  products: z.array(z.object({ NAME: z.string(), URL: z.string() })),
});
export type BlogArticle = z.infer<typeof BlogArticle>;

// ---------------------------------------------------------------------------------------
// Basket, fast order, waiting list (SPEC §3 Basket, Other payloads; §7)
// ---------------------------------------------------------------------------------------

const YesNo = z.enum(['Y', 'N']);

/** SPEC §3 offer fields in the basket: every size of a line's product, IN_BASKET marking the line's. */
export const BasketOffer = z.object({
  ID: z.number().int(),
  /** Roubles. */
  PRICE: z.number(),
  OLD_PRICE: z.number().nullable(),
  /** How many of this offer the line holds (0 for the other sizes). */
  QUANTITY: z.number().int(),
  /** In stock now. */
  QUANTITY_AVAILABLE: z.number().int(),
  IN_BASKET: YesNo,
  /** 'Y': out of stock but can be pre-ordered. */
  IS_PREORDER: YesNo,
  IS_GIFT: YesNo,
  IMAGE_SRC: z.string().nullable(),
  SIZE: SizeValue.nullable(),
});
export type BasketOffer = z.infer<typeof BasketOffer>;

export const BasketItem = z.object({
  /** The line's offer id (the basket is keyed by offers). */
  ID: z.number().int(),
  /** 'Y': a pre-order line (SPEC §3 preorders), held apart from the normal cart. */
  IS_PREORDER: YesNo,
  IS_GIFT: YesNo,
  QUANTITY: z.number().int(),
  /** Roubles: price × quantity, the promo share of it, and what is paid. */
  SUM: z.number(),
  DISCOUNT: z.number(),
  SUM_WITH_DISCOUNT: z.number(),
  /** Ours: a gift certificate line (no bonuses, no certificates pay for it); absent for goods. */
  CERTIFICATE: z.enum(['electronic', 'plastic']).optional(),
  PRODUCT: z.object({
    ID: z.number().int(),
    NAME: z.string(),
    DETAIL_PAGE_URL: z.string(),
    COLOR: z.string(),
    IMAGE_SRC: z.string().nullable(),
  }),
  OFFERS: z.array(BasketOffer),
});
export type BasketItem = z.infer<typeof BasketItem>;

export const BasketTotal = z.object({
  TOTAL_PRICE_WITHOUT_DISCOUNT: z.number(),
  TOTAL_PRICE_WITH_DISCOUNT: z.number(),
  TOTAL_DISCOUNT: z.number(),
  /** Items counted as the header counts them (the gift cover never counts). */
  TOTAL_QUANTITY: z.number().int(),
});
export type BasketTotal = z.infer<typeof BasketTotal>;

/** SPEC §7 `POST /api/personal/get_cart.php`. */
export const CartResponse = z.object({
  items: z.array(BasketItem),
  total: BasketTotal,
  /** The promo code applies. */
  promocode: z.boolean(),
  /** Why the promo code given does not apply (Russian), or null. */
  promo_code_error: z.string().nullable(),
  /** What was repaired (unknown offers dropped, quantities cut to stock), in Russian. */
  errors: z.array(z.string()),
  /** The basket as the server accepted it ('id:qty' lists, gift cover excluded): the storefront writes these back to its cookies. */
  cart: z.string(),
  preorders: z.string(),
  /** A logged-in customer's saved basket revision: send it back with the next copy (`cart_rev`). */
  cart_rev: z.number().int().optional(),
});
export type CartResponse = z.infer<typeof CartResponse>;

export const FormFieldErrors = z.object({ name: z.string().optional(), phone: z.string().optional() });

/** SPEC §7 `GET /api/catalog/fastorder.php`: success, or error data with an error field. */
export const FastOrderResponse = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), order_id: z.number().int() }),
  z.object({ success: z.literal(false), data: z.object({ error: z.string(), fields: FormFieldErrors }) }),
]);
export type FastOrderResponse = z.infer<typeof FastOrderResponse>;

/** SPEC §7 `GET /api/catalog/addtowishlist.php` (the waiting list): success, or error.data.error with fields. */
export const WaitingListResponse = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), message: z.string() }),
  z.object({
    success: z.literal(false),
    error: z.object({ data: z.object({ error: z.string(), fields: FormFieldErrors }) }),
  }),
]);
export type WaitingListResponse = z.infer<typeof WaitingListResponse>;

/** SPEC §7 `POST /api/personal/subscribe_form.php`: `message` on success (an address already subscribed too), `error` on failure (Russian, shown above the field). */
export const NewsletterResponse = z.union([z.object({ message: z.string() }), z.object({ error: z.string() })]);
export type NewsletterResponse = z.infer<typeof NewsletterResponse>;

/**
 * `POST /api/newsletter/{status,confirm,unsubscribe}` (a letter's link, body `token`): the
 * subscription's state after the call ('unknown': no such token), its address masked, and
 * whether this call changed it.
 */
export const NewsletterLinkResponse = z.object({
  status: z.enum(['pending', 'confirmed', 'unsubscribed', 'unknown']),
  email: z.string().nullable(),
  changed: z.boolean(),
});
export type NewsletterLinkResponse = z.infer<typeof NewsletterLinkResponse>;

/**
 * `check_certificate.php`: a gift certificate's balance (roubles), its number in groups of four
 * and the last day it is valid ('YYYY-MM-DD', Moscow), with the sentence to show; or why not.
 */
export const CertificateCheckResponse = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), code: z.string(), balance: z.number(), expires: z.string(), text: z.string() }),
  z.object({ success: z.literal(false), error: z.string() }),
]);
export type CertificateCheckResponse = z.infer<typeof CertificateCheckResponse>;

/** Staff-only `POST /staff/stock/` (action 'set'): the stock change and who was told. */
export const StockChangeResponse = z.object({
  data: z
    .object({
      offer_id: z.number().int(),
      previous: z.number().int(),
      quantity: z.number().int(),
      notified: z.number().int(),
    })
    .nullable(),
  errors: z.record(z.string(), z.string()),
  warnings: z.array(z.string()),
});
export type StockChangeResponse = z.infer<typeof StockChangeResponse>;

/** One address suggestion (DaData's shape, INTEGRATIONS.md §3): `value` to show, the full address, and the fields the shop reads. */
export const AddressSuggestion = z.object({
  value: z.string(),
  unrestricted_value: z.string(),
  data: z.object({
    postal_code: z.string().nullable(),
    country: z.string().nullable(),
    region: z.string().nullable(),
    region_type: z.string().nullable(),
    region_with_type: z.string().nullable(),
    city: z.string().nullable(),
    city_type: z.string().nullable(),
    city_with_type: z.string().nullable(),
    city_fias_id: z.string().nullable(),
    city_kladr_id: z.string().nullable(),
    settlement_with_type: z.string().nullable(),
    street: z.string().nullable(),
    street_type: z.string().nullable(),
    street_with_type: z.string().nullable(),
    house: z.string().nullable(),
    house_type: z.string().nullable(),
    flat: z.string().nullable(),
    fias_id: z.string().nullable(),
    kladr_id: z.string().nullable(),
    fias_level: z.string().nullable(),
    geo_lat: z.string().nullable(),
    geo_lon: z.string().nullable(),
  }),
});
export type AddressSuggestion = z.infer<typeof AddressSuggestion>;

/** SPEC §7 `POST /api/dadata/`: the address suggestions, best first (none when the provider fails). */
export const AddressSuggestionsResponse = z.object({ suggestions: z.array(AddressSuggestion) });
export type AddressSuggestionsResponse = z.infer<typeof AddressSuggestionsResponse>;

// Accounts (SPEC §3 Account, §7 /api/personal/*). A customer's lists travel as SPEC's
// comma-separated strings: cart 'id:qty,...', wishlist and watched 'id,id,...'.
export const UserMain = z.object({
  ID: z.number().int(),
  PHONE: z.string(),
  cart: z.string(),
  preorders: z.string(),
  wishlist: z.string(),
  watched: z.string(),
});
export type UserMain = z.infer<typeof UserMain>;

export const UserInfo = z.object({
  FIRSTNAME: z.string(),
  LASTNAME: z.string(),
  SECONDNAME: z.string(),
  PHONE: z.string(),
  EMAIL: z.string(),
});
export type UserInfo = z.infer<typeof UserInfo>;

/** `send_sms.php` (and the e-mail code): sent, or why not; `resend_in`: seconds until another may be asked for. */
export const SendCodeResponse = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), resend_in: z.number().int() }),
  z.object({ success: z.literal(false), error: z.string(), resend_in: z.number().int().optional() }),
]);
export type SendCodeResponse = z.infer<typeof SendCodeResponse>;

/** SPEC §7 `auth_phone.php`: `user` with `jwt_token` and the main data; on error `data` with an `error` field. */
export const AuthResponse = z.union([
  z.object({ user: UserMain.extend({ jwt_token: z.string() }) }),
  z.object({ data: z.object({ error: z.string() }) }),
]);
export type AuthResponse = z.infer<typeof AuthResponse>;

/** SPEC §7 `profile_main.php`: the profile of the token's customer. */
export const ProfileResponse = z.object({ userMain: UserMain, userInfo: UserInfo, subscribed: z.boolean() });
export type ProfileResponse = z.infer<typeof ProfileResponse>;

/** `logout.php`: the sessions ended (this one, or every one of the customer). */
export const LogoutResponse = z.object({ success: z.literal(true), revoked: z.number().int() });
export type LogoutResponse = z.infer<typeof LogoutResponse>;

// The personal account (SPEC §7 profile_change.php, addresses, orders, returns, subscribe.php).
// Shopper mistakes answer 200 with `success: false` and the Russian `error`; `field` names the
// form field at fault (change[...] names, address field names).

/** `profile_change.php`: the profile after the change, or why not. */
export const ProfileChangeResponse = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), profile: UserInfo }),
  z.object({ success: z.literal(false), error: z.string(), field: z.string().optional() }),
]);
export type ProfileChangeResponse = z.infer<typeof ProfileChangeResponse>;

/** A saved delivery address; empty strings for fields not given. */
export const SavedAddress = z.object({
  id: z.number().int(),
  city: z.string(),
  street: z.string(),
  house: z.string(),
  flat: z.string(),
  postal_code: z.string(),
  comment: z.string(),
});
export type SavedAddress = z.infer<typeof SavedAddress>;

/** SPEC §7 `addresses.php`: the list, or an error (SPEC §8: stored as the addresses error, the list not replaced). */
export const AddressesResponse = z.union([
  z.object({ addresses: z.array(SavedAddress) }),
  z.object({ error: z.string() }),
]);
export type AddressesResponse = z.infer<typeof AddressesResponse>;

/** `address_add.php` and `address_remove.php`: done (the address's id), or why not. */
export const AddressChangeResponse = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), id: z.number().int() }),
  z.object({ success: z.literal(false), error: z.string(), field: z.string().optional() }),
]);
export type AddressChangeResponse = z.infer<typeof AddressChangeResponse>;

/** SPEC §3 "Order (from the order list)": a formatted line; `returnable`: how many may still be asked back. */
export const AccountOrderLine = z.object({
  id: z.number().int(),
  title: z.string(),
  size: z.string(),
  img: z.string(),
  color: z.string(),
  quantity: z.number().int(),
  price: z.number().int(),
  isPreorder: z.boolean(),
  isGift: z.boolean(),
  returnable: z.number().int(),
  /** An electronic gift certificate: sent by e-mail, so no size or colour is shown for it. */
  byEmail: z.boolean().optional(),
});
export type AccountOrderLine = z.infer<typeof AccountOrderLine>;

/**
 * An order's money (core/order-money.ts orderMoney, issue #26), roubles: the one breakdown every
 * page, message and receipt reads. ROWS are its rows as shown, in order, the last one what is
 * left to pay (on receipt or online) or what was paid.
 */
export const OrderMoney = z.object({
  /** The goods at full prices; the sale, promo and bonuses taken off them. */
  GOODS: z.number(),
  SALE: z.number(),
  PROMO: z.number(),
  BONUS: z.number(),
  /** Null: to be confirmed by staff. */
  DELIVERY: z.number().nullable(),
  /** What the receipt adds up to. */
  TOTAL: z.number(),
  /** Paid with gift certificates. */
  CERTIFICATE: z.number(),
  /** TOTAL − CERTIFICATE: what the provider or the courier takes. */
  DUE: z.number(),
  /** How DUE is paid: 'online' (card, pay in parts), 'receipt' (to the courier), 'other' (as agreed). */
  CHANNEL: z.enum(['online', 'receipt', 'other']),
  /** Charged online (verified); 0 while unpaid. */
  PAID_ONLINE: z.number(),
  /** The courier takes this at the door (0 once the fitting is recorded, or for an online order). */
  ON_RECEIPT: z.number(),
  /** Taken at the door after the fitting; null until then. */
  COLLECTED: z.number().nullable(),
  ROWS: z.array(
    z.object({
      KEY: z.enum(['goods', 'sale', 'promo', 'bonus', 'delivery', 'total', 'certificate', 'final']),
      LABEL: z.string(),
      /** The value as shown ('17 000 ₽', '−1 700 ₽', 'бесплатно'). */
      TEXT: z.string(),
    }),
  ),
});
export type OrderMoney = z.infer<typeof OrderMoney>;

/** An order of the account: DATE and DELIVERED in Russian long format, STATUS as a Russian label, totals in roubles. */
export const AccountOrder = z.object({
  ID: z.number().int(),
  DATE: z.string(),
  STATUS: z.string(),
  STATUS_CODE: z.string(),
  DELIVERED: z.string().nullable(),
  /** The last day any line may be returned (content/pages/return.md), null when not received. */
  RETURN_UNTIL: z.string().nullable(),
  ITEMS: z.array(AccountOrderLine),
  /** ITEMS − DISCOUNT (promo and bonuses) + DELIVERY = TOTAL; MONEY has it all by kind. */
  TOTAL: z.object({ ITEMS: z.number(), DISCOUNT: z.number(), DELIVERY: z.number(), TOTAL: z.number() }),
  /** An order awaiting online payment with time left: when its hold ends (ISO 8601); the account offers «Оплатить» until then. */
  PAY_UNTIL: z.string().nullable().optional(),
  MONEY: OrderMoney,
});
export type AccountOrder = z.infer<typeof AccountOrder>;

/** `order_to_cart.php` (ours): an order's lines put back in the customer's basket (the basket as now saved), or why not. */
export const OrderToCartResponse = z.union([CartResponse, z.object({ error: z.string() })]);
export type OrderToCartResponse = z.infer<typeof OrderToCartResponse>;

/** SPEC §7 `orders.php`: value.orders, newest first. */
export const OrdersResponse = z.object({ value: z.object({ orders: z.array(AccountOrder) }) });
export type OrdersResponse = z.infer<typeof OrdersResponse>;

/** A return request of the account with the lines asked back. */
export const AccountReturn = z.object({
  ID: z.number().int(),
  ORDER_ID: z.number().int(),
  DATE: z.string(),
  STATUS: z.string(),
  REASON: z.string(),
  ITEMS: z.array(AccountOrderLine.omit({ isGift: true, returnable: true, byEmail: true })),
});
export type AccountReturn = z.infer<typeof AccountReturn>;

/** SPEC §7 `returns.php`: value.orders (the return requests), newest first. */
export const ReturnsResponse = z.object({ value: z.object({ orders: z.array(AccountReturn) }) });
export type ReturnsResponse = z.infer<typeof ReturnsResponse>;

/** `return_add.php` (ours): the new request's id, or why not. */
export const ReturnCreateResponse = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), id: z.number().int() }),
  z.object({ success: z.literal(false), error: z.string() }),
]);
export type ReturnCreateResponse = z.infer<typeof ReturnCreateResponse>;

/** SPEC §7 `subscribe.php`: the account's newsletter flag as now set. */
export const SubscribeResponse = z.object({ success: z.literal(true), subscribed: z.boolean() });
export type SubscribeResponse = z.infer<typeof SubscribeResponse>;

// The loyalty programme in the account (content/pages/loyalty.md): bonuses.php and birthday.php.
// One bonus is one rouble: amounts are whole roubles; dates in Russian long format (Moscow days).

/** One entry of the bonus history, newest first: `amount` signed (+ credited, − spent or burnt); `expires`: the last day the bonuses it added can be spent. */
export const BonusHistoryEntry = z.object({
  date: z.string(),
  kind: z.enum(['credit', 'birthday', 'spend', 'release', 'restore', 'expire', 'cancel', 'manual']),
  text: z.string(),
  amount: z.number().int(),
  expires: z.string().nullable(),
});
export type BonusHistoryEntry = z.infer<typeof BonusHistoryEntry>;

/** Bonuses a received order will bring once its return period is over, and the day they come. */
export const BonusPending = z.object({ order_id: z.number().int(), amount: z.number().int(), date: z.string() });
export type BonusPending = z.infer<typeof BonusPending>;

/** `bonuses.php`: the balance to spend now, the birthday ('YYYY-MM-DD', null until set), the history and the bonuses to come. */
export const BonusesResponse = z.object({
  balance: z.number().int(),
  birthday: z.string().nullable(),
  history: z.array(BonusHistoryEntry),
  pending: z.array(BonusPending),
});
export type BonusesResponse = z.infer<typeof BonusesResponse>;

/** `birthday.php`: the birthday as stored ('YYYY-MM-DD') and whether the gift was granted at once (its window is open), or why not. */
export const BirthdayResponse = z.discriminatedUnion('success', [
  z.object({ success: z.literal(true), birthday: z.string(), granted: z.boolean() }),
  z.object({ success: z.literal(false), error: z.string(), field: z.literal('birthday') }),
]);
export type BirthdayResponse = z.infer<typeof BirthdayResponse>;

// ---------------------------------------------------------------------------------------
// Checkout and delivery (SPEC §3 Order checkout, Pickup point; §7 get_cities.php,
// get_order_params.php, getdeliverycost.php, order.php, /api/cdek/). Money in roubles.
// ---------------------------------------------------------------------------------------

/** A city the shop delivers to. `COUNTRY_CODE` 'ZZ' is the one entry for the rest of the world. */
export const DeliveryCity = z.object({
  /** Stable id: the CDEK city code as text, or 'world'. */
  ID: z.string(),
  NAME: z.string(),
  /** 'Свердловская обл', 'Минская обл'; '' for federal cities and the world entry. */
  REGION: z.string(),
  COUNTRY: z.string(),
  COUNTRY_CODE: z.string(),
  /** CDEK's city code (INTEGRATIONS.md §2), null outside CDEK's reach. */
  CDEK_CODE: z.number().int().nullable(),
});
export type DeliveryCity = z.infer<typeof DeliveryCity>;

/** SPEC §7 `GET /api/catalog/get_cities.php`. */
export const CitiesResponse = z.object({ cities: z.array(DeliveryCity) });
export type CitiesResponse = z.infer<typeof CitiesResponse>;

/** SPEC §3 Pickup point (CDEK's field names, INTEGRATIONS.md §2). */
export const PickupPoint = z.object({
  code: z.string(),
  name: z.string(),
  /** 'PVZ' (a pickup point) or 'POSTAMAT' (a parcel locker). */
  type: z.enum(['PVZ', 'POSTAMAT']),
  work_time: z.string(),
  address_comment: z.string(),
  nearest_metro_station: z.string().nullable(),
  is_dressing_room: z.boolean(),
  phones: z.array(z.string()),
  location: z.object({
    city: z.string(),
    city_code: z.number().int(),
    postal_code: z.string(),
    /** Street and house ('ул. Тверская, 12'). */
    address: z.string(),
    /** With country, region, city and postal code. */
    address_full: z.string(),
    /** City and street, for a list line. */
    address_small: z.string(),
    latitude: z.number(),
    longitude: z.number(),
  }),
});
export type PickupPoint = z.infer<typeof PickupPoint>;

export { DELIVERY_ID, PAYMENT_ID } from './checkout-ids';

export const DeliveryMethod = z.object({
  ID: z.string(),
  NAME: z.string(),
  DESCRIPTION: z.string(),
  /** 'address': street and house needed; 'pickup': a pickup point (PVZS); 'contact': staff agree the details; 'email': nothing to carry (electronic certificates). */
  MODE: z.enum(['address', 'pickup', 'contact', 'email']),
  /** Roubles; null when it is not known online ('по договорённости', or the calculator failed). */
  PRICE: z.number().nullable(),
  /** Russian text of the price: '700 ₽', 'от 390 ₽', 'по договорённости', 'стоимость уточнит менеджер'. */
  PRICE_TEXT: z.string(),
  /** Russian text of the timing: 'на следующий рабочий день', '2–9 дней'. */
  PERIOD_TEXT: z.string(),
  /** Expected delivery dates (YYYY-MM-DD, Moscow), null when not known. */
  DATE_FROM: z.string().nullable(),
  DATE_TO: z.string().nullable(),
  /** A basket mixing goods in stock and pre-orders: when the pre-orders are expected (DATE_* are the goods'). */
  PREORDER_DATE_FROM: z.string().nullable().optional(),
  PREORDER_DATE_TO: z.string().nullable().optional(),
  /** What the shopper should know about this basket with this method (the outerwear trips), or null. */
  NOTE: z.string().nullable(),
  /** Pickup points of the city ('139' only). */
  PVZS: z.array(PickupPoint).optional(),
  /** The pickup-point map page, for an iframe ('139' only). */
  FRAME_PVZ: z.string().optional(),
});
export type DeliveryMethod = z.infer<typeof DeliveryMethod>;

export const PaymentMethod = z.object({
  ID: z.string(),
  NAME: z.string(),
  DESCRIPTION: z.string(),
  /** The delivery methods it can be chosen with. */
  DELIVERY_IDS: z.array(z.string()),
  /** Pay in parts: why it cannot be chosen for this basket (Russian), or null when it can. */
  DISABLED_REASON: z.string().nullable().optional(),
  /** Pay in parts: the 4 payments for the basket's amount before delivery (the form recomputes with the delivery cost); null when unavailable. */
  SCHEDULE: z
    .array(z.object({ /** YYYY-MM-DD */ DATE: z.string(), /** Roubles. */ AMOUNT: z.number() }))
    .nullable()
    .optional(),
});
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** SPEC §7 `GET /api/catalog/get_order_params.php` (city, ids, preorder_ids). */
export const OrderParamsResponse = z.object({
  /** The city as the shop knows it; null when the name is not one of get_cities.php (then only staff-agreed delivery). */
  city: DeliveryCity.nullable(),
  delivery_methods: z.array(DeliveryMethod),
  payment_methods: z.array(PaymentMethod),
});
export type OrderParamsResponse = z.infer<typeof OrderParamsResponse>;

/**
 * `POST /api/catalog/order_bonuses.php` (ours): the customer's bonuses and the most this basket
 * can take (roubles: one bonus is one rouble), with the reason when it can take none.
 */
export const OrderBonusesResponse = z.object({ balance: z.number(), max: z.number(), note: z.string().nullable() });
export type OrderBonusesResponse = z.infer<typeof OrderBonusesResponse>;

/** SPEC §7 `GET /api/catalog/getdeliverycost.php`: `deliverycost` in roubles, null when it cannot be known now (SPEC §8: shown as to be confirmed). */
export const DeliveryCostResponse = z.object({
  deliverycost: z.number().nullable(),
  /** Russian text of the cost ('390 ₽', 'бесплатно', 'стоимость уточнит менеджер'). */
  text: z.string(),
  DATE_FROM: z.string().nullable(),
  DATE_TO: z.string().nullable(),
  /** As DeliveryMethod's: when the pre-orders of a mixed basket are expected. */
  PREORDER_DATE_FROM: z.string().nullable().optional(),
  PREORDER_DATE_TO: z.string().nullable().optional(),
  /** Why there is no cost (Russian), or null. */
  error: z.string().nullable(),
});
export type DeliveryCostResponse = z.infer<typeof DeliveryCostResponse>;

/** SPEC §7 `order.php`: success with the order id, or `data` as the error set (form field → Russian message; `error` for the form as a whole). */
export const CheckoutOrderResponse = z.discriminatedUnion('success', [
  z.object({
    success: z.literal(true),
    order_id: z.number().int(),
    user_id: z.number().int(),
    payment_id: z.string(),
    /** Roubles: what the shopper pays (SPEC §5), delivery included when known. */
    pay_amount: z.number(),
    status: z.string(),
  }),
  z.object({
    success: z.literal(false),
    data: z.record(z.string(), z.string()),
    /** The server's delivery cost when the one sent differs (roubles; null: to be confirmed). */
    deliverycost: z.number().nullable().optional(),
  }),
]);
export type CheckoutOrderResponse = z.infer<typeof CheckoutOrderResponse>;

/** `POST /api/personal/order_detail.php` (ours): one order of the token's customer, with delivery, payment and history. */
/**
 * A gift certificate bought in the order (after its payment): the number in groups of four, in
 * full for an electronic one, '•••• 1234' for a plastic card; roubles; the last day it is valid.
 */
export const OrderCertificate = z.object({
  KIND: z.enum(['electronic', 'plastic']),
  CODE: z.string(),
  NOMINAL: z.number(),
  BALANCE: z.number(),
  EXPIRES: z.string(),
  MAILED: z.boolean(),
});
export type OrderCertificate = z.infer<typeof OrderCertificate>;

export const OrderDetail = z.object({
  ID: z.number().int(),
  DATE: z.string(),
  STATUS: z.string(),
  STATUS_CODE: z.string(),
  ITEMS: z.array(AccountOrderLine),
  TOTAL: z.object({
    ITEMS: z.number(),
    DISCOUNT: z.number(),
    DELIVERY: z.number().nullable(),
    TOTAL: z.number(),
    PAID: z.number().nullable(),
  }),
  MONEY: OrderMoney,
  DELIVERY: z.object({
    ID: z.string(),
    NAME: z.string(),
    CITY: z.string(),
    /** The address or the pickup point's address. */
    ADDRESS: z.string(),
    PICKUP_POINT: PickupPoint.nullable(),
    DATE_FROM: z.string().nullable(),
    DATE_TO: z.string().nullable(),
    NOTE: z.string().nullable(),
    TRACK_NUMBER: z.string().nullable(),
    /** The carrier's tracking page for the track number (CDEK), or null. */
    TRACK_URL: z.string().nullable().optional(),
  }),
  /** PAID_AT: when the online payment was verified (Russian date), null while unpaid; PAY_UNTIL: until when an unpaid online order waits. */
  PAYMENT: z.object({
    ID: z.string(),
    NAME: z.string(),
    PAID_AT: z.string().nullable().optional(),
    PAY_UNTIL: z.string().nullable().optional(),
  }),
  /** Money given back for returns: the means in words, 'pending' | 'done' | 'manual', the date. */
  REFUNDS: z
    .array(
      z.object({
        RETURN_ID: z.number().int(),
        TEXT: z.string(),
        STATUS: z.enum(['pending', 'done', 'manual']),
        DATE: z.string(),
      }),
    )
    .optional(),
  CONTACT: z.object({ NAME: z.string(), PHONE: z.string(), EMAIL: z.string() }),
  HISTORY: z.array(
    z.object({ STATUS_CODE: z.string(), STATUS: z.string(), DATE: z.string(), NOTE: z.string().nullable() }),
  ),
  /** Gift certificates the order bought, once issued (absent when none). */
  CERTIFICATES: z.array(OrderCertificate).optional(),
});
export type OrderDetail = z.infer<typeof OrderDetail>;

export const OrderDetailResponse = z.union([z.object({ order: OrderDetail }), z.object({ error: z.string() })]);
export type OrderDetailResponse = z.infer<typeof OrderDetailResponse>;

// ---------------------------------------------------------------------------------------
// Card payment online (SPEC §3 Payment receipt, §4 payment_id 9, §7 success_payment_order.php;
// INTEGRATIONS.md §1 CloudPayments). Money in roubles with at most two decimals.
// ---------------------------------------------------------------------------------------

/** SPEC §3 Payment receipt (CloudPayments CustomerReceipt): lines add up exactly to amounts.electronic. */
export const PaymentReceipt = z.object({
  Items: z.array(
    z.object({
      label: z.string(),
      price: z.number(),
      quantity: z.number(),
      /** The line total after its discount. */
      amount: z.number(),
      vat: z.literal(0),
      measurementUnit: z.literal('шт'),
    }),
  ),
  email: z.string(),
  phone: z.string(),
  amounts: z.object({ electronic: z.number(), advancePayment: z.number().optional() }),
});
export type PaymentReceipt = z.infer<typeof PaymentReceipt>;

/** The widget's options and the `pay('charge', …)` parameters for one unpaid order. */
export const PaymentWidgetParams = z.object({
  /** Where the widget script comes from (CloudPayments' host, or the offline stand-in's). */
  scriptUrl: z.string(),
  /** `new cp.CloudPayments(options)`: SPEC §9 Yandex Pay, bank Pay and SBP on, Apple Pay and Google Pay off. */
  options: z.object({
    language: z.literal('ru-RU'),
    applePaySupport: z.literal(false),
    googlePaySupport: z.literal(false),
    yandexPaySupport: z.literal(true),
    tinkoffPaySupport: z.literal(true),
    sbpSupport: z.literal(true),
  }),
  params: z.object({
    publicId: z.string(),
    description: z.string(),
    amount: z.number(),
    currency: z.literal('RUB'),
    invoiceId: z.string(),
    accountId: z.string(),
    email: z.string(),
    skin: z.string(),
    data: z.object({ CloudPayments: z.object({ CustomerReceipt: PaymentReceipt }) }),
  }),
});
export type PaymentWidgetParams = z.infer<typeof PaymentWidgetParams>;

/** `POST /api/catalog/payment_params.php` (ours; token, order_id): the widget parameters of the customer's order awaiting payment, or why not (already paid, cancelled, not theirs). */
export const PaymentParamsResponse = z.union([
  z.object({ payment: PaymentWidgetParams }),
  z.object({ error: z.string(), status: z.string().optional() }),
]);
export type PaymentParamsResponse = z.infer<typeof PaymentParamsResponse>;

/** `POST /api/catalog/instalment_link.php` (ours; token, order_id): the pay-in-parts provider's page for the customer's order awaiting payment, or why not. */
export const InstalmentLinkResponse = z.union([
  z.object({ link: z.string(), provider: z.enum(['dolyami', 'yandex-split']) }),
  z.object({ error: z.string(), status: z.string().optional() }),
]);
export type InstalmentLinkResponse = z.infer<typeof InstalmentLinkResponse>;

/** `POST /api/catalog/change_payment.php` (ours; token, order_id, payment_id): another online method (9, 10, 11) for the customer's order still awaiting payment. */
export const ChangePaymentResponse = z.union([
  z.object({ success: z.literal(true) }),
  z.object({ success: z.literal(false), error: z.string(), status: z.string().optional() }),
]);
export type ChangePaymentResponse = z.infer<typeof ChangePaymentResponse>;

/** SPEC §7 `GET /api/catalog/success_payment_order.php` (order_id, payment_num): the server asks the provider; `paid` only when it verified the payment. */
export const PaymentStatusResponse = z.object({
  order_id: z.number().int(),
  paid: z.boolean(),
  /** The order's status code after the check ('new' once paid, 'awaiting_payment', 'cancelled'). */
  status: z.string(),
  /** Russian text for the shopper when not paid, or null. */
  message: z.string().nullable(),
});
export type PaymentStatusResponse = z.infer<typeof PaymentStatusResponse>;

// ---------------------------------------------------------------------------------------------
// Product feeds (issue #32, docs/feeds.md): the settings staff edit (today through the staff
// API, later the back office) and the build report. Defaults: core/feeds.ts.

export const FEED_CHANNELS = ['yandex', 'google', 'vk'] as const;
export type FeedChannel = (typeof FEED_CHANNELS)[number];

const sectionCode = z.string().regex(/^[a-z0-9_-]{1,100}$/, 'Код раздела: латинские буквы, цифры, _ и -');

/** One feed's selection and link tags. An empty `sections` is the whole catalogue. */
export const FeedChannelSettings = z.object({
  enabled: z.boolean(),
  /** Section codes whose products (their subsections' too) go in; [] = every section. */
  sections: z.array(sectionCode).max(500),
  /** Section codes left out (with their subsections), after `sections`. */
  excludeSections: z.array(sectionCode).max(500),
  /** Product ids left out. */
  excludeProducts: z.array(z.number().int().positive()).max(100_000),
  /** Added to every offer's link: utm_source, utm_medium, utm_campaign, utm_content, utm_term. */
  utm: z.partialRecord(
    z.enum(['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'], {
      error: 'Допустимы метки utm_source, utm_medium, utm_campaign, utm_content, utm_term',
    }),
    z
      .string()
      .max(200, 'Метка длиннее 200 знаков')
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f\s]*$/, 'Метка без пробелов и управляющих символов'),
  ),
});
export type FeedChannelSettings = z.infer<typeof FeedChannelSettings>;

export const FeedSettings = z.object({
  /** <shop><name>: the shop's short name. */
  shopName: z.string().trim().min(1, 'Укажите название магазина').max(100),
  /** <shop><company>: the legal name. */
  company: z.string().trim().min(1, 'Укажите название компании').max(200),
  /** <vendor> and g:brand of every offer. */
  vendor: z.string().trim().min(1, 'Укажите бренд').max(100),
  /** Width of the photos' links (/img/{width}/…), one the image server makes. */
  imageWidth: z.number().int().min(320, 'Ширина фото не меньше 320').max(3072),
  /** Google's availability_date of a pre-order size: this many days after the build. */
  preorderDays: z.number().int().min(1).max(365),
  /** Which section codes are women's and men's (Yandex «Пол», Google gender); the rest unisex. */
  genders: z.object({ female: z.array(sectionCode).max(100), male: z.array(sectionCode).max(100) }),
  channels: z.object({ yandex: FeedChannelSettings, google: FeedChannelSettings, vk: FeedChannelSettings }),
});
export type FeedSettings = z.infer<typeof FeedSettings>;

export const FEED_LEFT_OUT_REASONS = [
  'inactive',
  'excluded',
  'certificate',
  'no_offers',
  'no_photo',
  'no_price',
  'sold_out',
] as const;
export type FeedLeftOutReason = (typeof FEED_LEFT_OUT_REASONS)[number];

/** One offer (or a whole product, offer_id null) a feed left out, and why. */
export const FeedLeftOut = z.object({
  product_id: z.number().int(),
  offer_id: z.number().int().nullable(),
  name: z.string(),
  reason: z.enum(FEED_LEFT_OUT_REASONS),
  /** The reason in Russian, for staff. */
  reason_text: z.string(),
});
export type FeedLeftOut = z.infer<typeof FeedLeftOut>;

/** What a feed build wrote down: when, from which catalogue, how much, and what it left out. */
export const FeedBuildReport = z.object({
  channel: z.enum(FEED_CHANNELS),
  built_at: z.string(),
  catalog_version: z.number().int(),
  /** The settings and site address the build was made with (a hash): a change makes it stale. */
  settings_key: z.string(),
  duration_ms: z.number().int(),
  products: z.number().int(),
  offers: z.number().int(),
  bytes: z.number().int(),
  gzip_bytes: z.number().int(),
  br_bytes: z.number().int(),
  /** Offers left out per reason (a product left out whole counts each of its offers). */
  left_out_counts: z.record(z.string(), z.number().int()),
  left_out_total: z.number().int(),
  /** The first ones of each reason (at most FEED_LEFT_OUT_SAMPLE each). */
  left_out: z.array(FeedLeftOut),
});
export type FeedBuildReport = z.infer<typeof FeedBuildReport>;

/** Staff-only `GET /staff/feeds/`: every feed's address, settings and last build. */
export const StaffFeedsResponse = z.object({
  catalog_version: z.number().int(),
  settings: FeedSettings,
  feeds: z.array(
    z.object({
      channel: z.enum(FEED_CHANNELS),
      url: z.string(),
      enabled: z.boolean(),
      last_build: FeedBuildReport.nullable(),
      /** The last build matches today's catalogue and settings (the next request serves it as is). */
      current: z.boolean(),
    }),
  ),
});
export type StaffFeedsResponse = z.infer<typeof StaffFeedsResponse>;

/** The back office's `GET /admin/feeds` and the answer of `POST /admin/feeds/settings`: one record, id 'feeds'. */
export const AdminFeedsResponse = z.object({ data: StaffFeedsResponse.extend({ id: z.literal('feeds') }) });
export type AdminFeedsResponse = z.infer<typeof AdminFeedsResponse>;

/** Staff-only `POST /staff/feeds/` (action 'settings' or 'build'): the feeds after the change, or the fields refused. */
export const StaffFeedsActionResponse = z.object({
  data: StaffFeedsResponse.nullable(),
  errors: z.record(z.string(), z.string()),
  warnings: z.array(z.string()),
});
export type StaffFeedsActionResponse = z.infer<typeof StaffFeedsActionResponse>;

// The 1C exchange in the back office (issue #31, docs/exchange-1c.md): the log of sessions (each
// file imported with its counts, warnings and error), the settings, re-sending orders. Admin only.

/** What the shop reads from 1C's packages (app_state 'exchange_settings'; defaults core/commerceml.ts). */
export const ExchangeSettingsBody = z.object({
  salePriceType: z.string().trim().max(200).nullable(),
  oldPriceType: z.string().trim().max(200).nullable(),
  sizeCharacteristic: z.string().trim().min(1).max(200),
  colorProperty: z.string().trim().min(1).max(200),
  owns: z.object({ name: z.boolean(), description: z.boolean(), prices: z.boolean() }),
});
export type ExchangeSettingsBody = z.infer<typeof ExchangeSettingsBody>;

export const ExchangeFileLog = z.object({
  filename: z.string(),
  kind: z.string().nullable(),
  status: z.enum(['applying', 'done', 'failed']),
  step: z.number().int(),
  steps: z.number().int(),
  counts: z.record(z.string(), z.number()),
  warnings: z.array(z.string()),
  error: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});

export const ExchangeSessionLog = z.object({
  id: z.number().int(),
  type: z.enum(['catalog', 'sale']),
  account: z.string(),
  ip: z.string(),
  started_at: z.string(),
  last_seen_at: z.string(),
  files: z.array(ExchangeFileLog),
  exports: z.array(
    z.object({
      id: z.number().int(),
      orders: z.number().int(),
      created_at: z.string(),
      confirmed_at: z.string().nullable(),
    }),
  ),
});

/** `GET /admin/exchange` and the answer of `POST /admin/exchange/settings`: one record, id 'exchange'. */
export const AdminExchangeResponse = z.object({
  data: z.object({
    id: z.literal('exchange'),
    endpoint: z.string(),
    legacy_endpoint: z.string(),
    /** The account 1C logs in with (its login; the password is only ever shown once, when set). */
    account: z
      .object({
        id: z.number().int(),
        login: z.string(),
        password_set: z.boolean(),
        password_changed_at: z.string().nullable(),
        disabled: z.boolean(),
      })
      .nullable(),
    settings: ExchangeSettingsBody,
    orders: z.object({
      /** The end of the last export 1C confirmed: the next one starts there. */
      confirmed_until: z.string().nullable(),
      /** Orders 1C has not acknowledged yet (their units are held out of 1C's quantities). */
      unacknowledged: z.number().int(),
    }),
    sessions: z.array(ExchangeSessionLog),
  }),
});
export type AdminExchangeResponse = z.infer<typeof AdminExchangeResponse>;

/** `POST /admin/exchange/resend-orders`: the confirmed exports set aside and the orders 1C gets again. */
export const AdminExchangeResendResponse = z.object({
  data: z.object({ id: z.literal('exchange-resend'), exports: z.number().int(), orders: z.number().int() }),
});
export type AdminExchangeResendResponse = z.infer<typeof AdminExchangeResendResponse>;

/** `POST /admin/exchange/password`: the body; `email` makes the exchange account when there is none yet. */
export const ExchangePasswordBody = z.object({ email: z.string().trim().max(254).optional() }).strict();

/** The new password of the exchange account, shown once (only its hash is kept). */
export const AdminExchangePasswordResponse = z.object({
  data: z.object({
    id: z.literal('exchange-password'),
    login: z.string(),
    password: z.string(),
    created: z.boolean(),
  }),
});
export type AdminExchangePasswordResponse = z.infer<typeof AdminExchangePasswordResponse>;
