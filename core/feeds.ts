// Product feeds for advertising and marketplaces (issue #32, docs/feeds.md): Yandex's YML
// (Маркет, Товары, Директ; VK reads the same format) and Google Merchant Center's RSS 2.0.
// Pure: which offers of a product go into a feed and why others stay out, their links,
// prices and attributes, and the XML text of each piece. The server streams the pieces into a
// file (server/feeds.server.ts); models/feeds.server.ts reads the catalogue in batches.
import type { FeedChannel, FeedChannelSettings, FeedLeftOutReason, FeedSettings } from '~/shared/contract';
import { fitImageWidth, imageUrl, mediaUrl } from '~/shared/image-url';

// ---------------------------------------------------------------------------------------------
// Channels and settings

/** Raised whenever the writers below change what they write: files built before are rebuilt. */
export const FEED_FORMAT_VERSION = 1;

/**
 * A build older than this is made again even when nothing changed: Яндекс refuses a YML whose
 * date is more than about ten days old (../shared/EXCHANGE.md), and Директ fetches daily.
 */
export const FEED_MAX_AGE_MS = 24 * 3_600_000;

/** Entries of each left-out reason a build report keeps (the counts are whole). */
export const FEED_LEFT_OUT_SAMPLE = 50;

export type FeedFormat = 'yml' | 'google';

export interface FeedChannelInfo {
  /** The feed's address on the shop. */
  path: string;
  format: FeedFormat;
  contentType: string;
}

/** VK's product import reads YML: its feed is the Yandex format with its own selection and tags. */
export const FEED_CHANNEL_INFO: Readonly<Record<FeedChannel, FeedChannelInfo>> = {
  yandex: { path: '/feeds/yandex.yml', format: 'yml', contentType: 'application/xml; charset=utf-8' },
  google: { path: '/feeds/google.xml', format: 'google', contentType: 'application/xml; charset=utf-8' },
  vk: { path: '/feeds/vk.yml', format: 'yml', contentType: 'application/xml; charset=utf-8' },
};

const channelDefaults = (source: string): FeedChannelSettings => ({
  enabled: true,
  sections: [],
  excludeSections: [],
  excludeProducts: [],
  utm: { utm_source: source, utm_medium: 'cpc', utm_campaign: 'feed' },
});

/**
 * The settings a shop starts with: every section, the brand's names, photos 1024 px wide
 * (Yandex and Google take 1024×1365 JPEGs; the image server never enlarges a smaller original),
 * pre-orders shipped within four weeks (content/pages/pre-order.md: «от двух до четырёх недель»).
 */
export const DEFAULT_FEED_SETTINGS: FeedSettings = {
  shopName: 'Vitrina',
  company: 'ООО «Витрина»',
  vendor: 'Vitrina',
  imageWidth: 1024,
  preorderDays: 28,
  genders: { female: ['woman'], male: ['muzhchinam'] },
  channels: { yandex: channelDefaults('yandex'), google: channelDefaults('google'), vk: channelDefaults('vk') },
};

/**
 * `patch` over `base`, one level into `genders` and into each channel (a partial object keeps
 * the rest of its level; arrays and the UTM tags are replaced whole). Unchecked: the caller
 * validates the result with the contract's FeedSettings.
 */
export function mergeFeedSettings(base: FeedSettings, patch: unknown): unknown {
  if (!isRecord(patch)) return base;
  const channels = isRecord(patch.channels) ? patch.channels : {};
  return {
    ...base,
    ...patch,
    genders: { ...base.genders, ...(isRecord(patch.genders) ? patch.genders : {}) },
    channels: Object.fromEntries(
      (Object.keys(base.channels) as FeedChannel[]).map((c) => {
        const own = channels[c];
        return [c, { ...base.channels[c], ...(isRecord(own) ? own : {}) }];
      }),
    ),
  };
}

/** Stored settings over the defaults. */
export function withFeedDefaults(stored: unknown): unknown {
  return mergeFeedSettings(DEFAULT_FEED_SETTINGS, stored);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON with object keys sorted: equal settings give equal text (the build key hashes it). */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

// ---------------------------------------------------------------------------------------------
// XML text

// XML 1.0 allows tab, line feed, carriage return and the characters from U+0020 up, except the
// surrogates (a pair is one character; a lone half is not) and U+FFFE/U+FFFF. C1 controls
// (U+007F–U+009F) are allowed but discouraged, and feed checkers refuse them: dropped too.
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text without characters an XML 1.0 document cannot hold. */
export function stripNonXml(s: string): string {
  return s.replace(NOT_XML, '');
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text for an element or a double- or single-quoted attribute. */
export function xmlEscape(s: string): string {
  return stripNonXml(s).replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** A CDATA section holding `s` exactly: a `]]>` inside is split across two sections. */
export function cdata(s: string): string {
  return `<![CDATA[${stripNonXml(s).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/** At most `max` characters, cut at a word with '…' when longer; whitespace runs made one space. */
export function clip(s: string, max: number): string {
  const text = s.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

// ---------------------------------------------------------------------------------------------
// Values

/** YML's price: roubles, with kopecks only when there are any ('12900', '12900.5' is '12900.50'). */
export function ymlPrice(kopecks: number): string {
  const roubles = Math.trunc(kopecks / 100);
  const rest = kopecks % 100;
  return rest === 0 ? String(roubles) : `${roubles}.${String(rest).padStart(2, '0')}`;
}

/** Google's price: '12900.00 RUB'. */
export function googlePrice(kopecks: number): string {
  return `${Math.trunc(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')} RUB`;
}

const MSK_OFFSET_MS = 3 * 3_600_000;

/** RFC 3339 in Moscow time (UTC+3 all year since 2014): '2026-11-28T14:05:09+03:00'. */
export function moscowTimestamp(at: Date): string {
  return `${new Date(at.getTime() + MSK_OFFSET_MS).toISOString().slice(0, 19)}+03:00`;
}

/** Google's availability_date form: '2026-12-26T14:05+0300'. */
export function googleDate(at: Date): string {
  return `${new Date(at.getTime() + MSK_OFFSET_MS).toISOString().slice(0, 16)}+0300`;
}

const UTM_ORDER = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const;

/** A tag's value in a query: percent-encoded, but Директ's {placeholders} left as they are so it can fill them. */
function encodeTag(value: string): string {
  return encodeURIComponent(value).replace(/%7B/gi, '{').replace(/%7D/gi, '}');
}

/**
 * An offer's link: the product's canonical address, the size chosen (`offer`, as the product
 * page reads it) and the feed's UTM tags in a fixed order.
 */
export function offerLink(
  siteUrl: string,
  productPath: string,
  offerId: number,
  utm: FeedChannelSettings['utm'],
): string {
  const query = [`offer=${offerId}`];
  for (const key of UTM_ORDER) {
    const value = utm[key];
    if (value) query.push(`${key}=${encodeTag(value)}`);
  }
  return `${siteUrl}${productPath}?${query.join('&')}`;
}

/**
 * Google's product taxonomy for each garment kind (shared/art.ts): coats and jackets 5598,
 * shirts and tops 212, trousers 204, shorts 207, skirts 1581, dresses 2271, handbags 3032,
 * scarves 177, hats 173, belts 169, shoes 187; anything else Apparel & Accessories > Clothing (1604).
 */
const GOOGLE_CATEGORY: Readonly<Record<string, number>> = {
  'warm-coat': 5598,
  coat: 5598,
  trench: 5598,
  puffer: 5598,
  'fur-coat': 5598,
  'denim-jacket': 5598,
  blazer: 5598,
  sweater: 212,
  cardigan: 212,
  'knit-top': 212,
  shirt: 212,
  blouse: 212,
  tshirt: 212,
  top: 212,
  trousers: 204,
  jeans: 204,
  shorts: 207,
  skirt: 1581,
  dress: 2271,
  bag: 3032,
  scarf: 177,
  hat: 173,
  belt: 169,
  boots: 187,
  shoes: 187,
};
export const GOOGLE_CLOTHING_CATEGORY = 1604;

export function googleCategory(kind: string): number {
  return GOOGLE_CATEGORY[kind] ?? GOOGLE_CLOTHING_CATEGORY;
}

export type FeedGender = 'female' | 'male' | 'unisex';
const YML_GENDER: Readonly<Record<FeedGender, string>> = { female: 'Женский', male: 'Мужской', unisex: 'Унисекс' };

// ---------------------------------------------------------------------------------------------
// The catalogue as a feed sees it

export interface FeedSection {
  id: number;
  code: string;
  name: string;
  url: string;
  parentId: number | null;
  /** 'category' holds products; 'new' and 'sale' are built from flags and are no feed category. */
  kind: string;
}

export interface FeedOffer {
  id: number;
  size: string;
  sizeType: string;
  intlSize: string | null;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  /** What can be sold now: the stock the shop holds less what orders took (orders take it when placed). */
  quantity: number;
  preorder: boolean;
}

export interface FeedProduct {
  id: number;
  slug: string;
  name: string;
  description: string;
  sectionId: number;
  kind: string;
  colorName: string;
  /** The model: the smallest product id of its colour group (numeric, as YML's group_id must be). */
  groupId: number;
  active: boolean;
  certificate: string | null;
  article: string;
  /** Media paths ('products/x/1.jpg'), in order. */
  photos: string[];
  offers: FeedOffer[];
}

export interface FeedBuildContext {
  channel: FeedChannel;
  settings: FeedSettings;
  siteUrl: string;
  builtAt: Date;
  sections: ReadonlyMap<number, FeedSection>;
}

export type FeedAvailability = 'in_stock' | 'preorder' | 'out_of_stock';

/** In stock while any is left; otherwise a pre-order if the size is open for one. */
export function offerAvailability(o: Pick<FeedOffer, 'quantity' | 'preorder'>): FeedAvailability {
  if (o.quantity > 0) return 'in_stock';
  return o.preorder ? 'preorder' : 'out_of_stock';
}

/** One offer as every feed writes it. */
export interface FeedItem {
  offerId: number;
  productId: number;
  groupId: number;
  url: string;
  availability: FeedAvailability;
  priceKopecks: number;
  /** The price before the sale, only when above the price. */
  oldPriceKopecks: number | null;
  categoryId: number;
  /** Section names from the top ('Женщинам', 'Юбки'). */
  categoryPath: string[];
  pictures: string[];
  name: string;
  vendor: string;
  vendorCode: string;
  description: string;
  color: string;
  /** The Russian size ('44', shoes '38'); null for one-size items. */
  size: string | null;
  gender: FeedGender;
  googleCategory: number;
}

export interface FeedLeftOutEntry {
  productId: number;
  offerId: number | null;
  name: string;
  reason: FeedLeftOutReason;
  /** Offers this entry stands for (a product left out whole counts each of its sizes). */
  offers: number;
}

export const FEED_LEFT_OUT_TEXT: Readonly<Record<FeedLeftOutReason, string>> = {
  inactive: 'Товар снят с продажи',
  excluded: 'Исключён настройками фида',
  certificate: 'Подарочный сертификат: в фиды одежды не входит',
  no_offers: 'Нет ни одного размера',
  no_photo: 'Нет фото',
  no_price: 'Нет цены',
  sold_out: 'Размер распродан, предзаказа нет',
};

/** Yandex's name and description limits (Google's are larger). */
export const NAME_MAX = 150;
export const DESCRIPTION_MAX = 3000;
/** Photos an offer lists (YML and Google take up to 10 more each). */
export const PICTURES_MAX = 10;

/** The section and its ancestors, the top one first. A broken chain (a loop) stops after 20 steps. */
export function sectionChain(sections: ReadonlyMap<number, FeedSection>, id: number): FeedSection[] {
  const chain: FeedSection[] = [];
  let cur = sections.get(id);
  while (cur && chain.length < 20) {
    chain.unshift(cur);
    cur = cur.parentId === null ? undefined : sections.get(cur.parentId);
  }
  return chain;
}

/** Whether the channel's selection takes a product of this section chain. */
function selected(channel: FeedChannelSettings, chain: FeedSection[], productId: number): boolean {
  const codes = chain.map((s) => s.code);
  if (channel.sections.length > 0 && !codes.some((c) => channel.sections.includes(c))) return false;
  if (codes.some((c) => channel.excludeSections.includes(c))) return false;
  return !channel.excludeProducts.includes(productId);
}

function genderOf(settings: FeedSettings, chain: FeedSection[]): FeedGender {
  const codes = chain.map((s) => s.code);
  if (codes.some((c) => settings.genders.female.includes(c))) return 'female';
  if (codes.some((c) => settings.genders.male.includes(c))) return 'male';
  return 'unisex';
}

/** The canonical product address: under its own section (models/sections.server.ts productUrl). */
function productPath(chain: FeedSection[], slug: string): string {
  const own = chain[chain.length - 1];
  return `${own ? own.url : '/catalog/all/'}${slug}/`;
}

/**
 * The offers of one product a feed writes, and what it leaves out with why. Whole products
 * stay out when inactive, not selected, gift certificates, without sizes or without photos;
 * single sizes when they have no price, and in YML when sold out with no pre-order (an offer
 * nobody can buy; Google keeps it as out_of_stock, as Merchant Center asks).
 */
export function planProduct(p: FeedProduct, ctx: FeedBuildContext): { items: FeedItem[]; leftOut: FeedLeftOutEntry[] } {
  const channel = ctx.settings.channels[ctx.channel];
  const chain = sectionChain(ctx.sections, p.sectionId);
  const whole = (reason: FeedLeftOutReason) => ({
    items: [],
    leftOut: [{ productId: p.id, offerId: null, name: p.name, reason, offers: Math.max(1, p.offers.length) }],
  });
  if (!p.active) return whole('inactive');
  if (!selected(channel, chain, p.id)) return whole('excluded');
  if (p.certificate) return whole('certificate');
  if (p.offers.length === 0) return whole('no_offers');
  if (p.photos.length === 0) return whole('no_photo');

  const format = FEED_CHANNEL_INFO[ctx.channel].format;
  const path = productPath(chain, p.slug);
  const width = fitImageWidth(ctx.settings.imageWidth);
  const pictures = p.photos.slice(0, PICTURES_MAX).map((photo) => `${ctx.siteUrl}${imageUrl(mediaUrl(photo), width)}`);
  const name = clip(`${p.name}, ${p.colorName.toLowerCase()}`, NAME_MAX);
  const description = clip(p.description, DESCRIPTION_MAX);
  const gender = genderOf(ctx.settings, chain);
  const items: FeedItem[] = [];
  const leftOut: FeedLeftOutEntry[] = [];
  for (const o of p.offers) {
    const offerOut = (reason: FeedLeftOutReason) =>
      leftOut.push({ productId: p.id, offerId: o.id, name: `${p.name}, ${o.size}`, reason, offers: 1 });
    if (!(o.priceKopecks > 0)) {
      offerOut('no_price');
      continue;
    }
    const availability = offerAvailability(o);
    if (format === 'yml' && availability === 'out_of_stock') {
      offerOut('sold_out');
      continue;
    }
    items.push({
      offerId: o.id,
      productId: p.id,
      groupId: p.groupId,
      url: offerLink(ctx.siteUrl, path, o.id, channel.utm),
      availability,
      priceKopecks: o.priceKopecks,
      oldPriceKopecks: o.oldPriceKopecks !== null && o.oldPriceKopecks > o.priceKopecks ? o.oldPriceKopecks : null,
      categoryId: p.sectionId,
      categoryPath: chain.map((s) => s.name),
      pictures,
      name,
      vendor: ctx.settings.vendor,
      vendorCode: p.article,
      description,
      color: p.colorName,
      size: o.sizeType === 'none' ? null : o.size,
      gender,
      googleCategory: googleCategory(p.kind),
    });
  }
  return { items, leftOut };
}

// ---------------------------------------------------------------------------------------------
// YML (Яндекс Маркет, Товары, Директ; VK)

/** Feed categories: the sections that hold products, each under its parent when that one is a category too. */
export function ymlCategories(sections: Iterable<FeedSection>): string {
  const list = [...sections].filter((s) => s.kind === 'category');
  const ids = new Set(list.map((s) => s.id));
  return list
    .map((s) => {
      const parent = s.parentId !== null && ids.has(s.parentId) ? ` parentId="${s.parentId}"` : '';
      return `<category id="${s.id}"${parent}>${xmlEscape(s.name)}</category>\n`;
    })
    .join('');
}

export function ymlHead(ctx: FeedBuildContext): string {
  const s = ctx.settings;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<yml_catalog date="${moscowTimestamp(ctx.builtAt)}">\n<shop>\n` +
    `<name>${xmlEscape(s.shopName)}</name>\n<company>${xmlEscape(s.company)}</company>\n<url>${xmlEscape(`${ctx.siteUrl}/`)}</url>\n` +
    `<currencies><currency id="RUR" rate="1"/></currencies>\n` +
    `<categories>\n${ymlCategories(ctx.sections.values())}</categories>\n<offers>\n`
  );
}

/**
 * One size as an <offer>: elements in the order of Yandex's YML reference; a pre-order is
 * available="false" (Маркет reads it as «под заказ»); sizes, colour, gender and age as params
 * (the clothing guide's required ones).
 */
export function ymlOffer(item: FeedItem): string {
  const available = item.availability === 'in_stock' ? 'true' : 'false';
  let out = `<offer id="${item.offerId}" available="${available}" group_id="${item.groupId}">\n<url>${xmlEscape(item.url)}</url>\n<price>${ymlPrice(item.priceKopecks)}</price>\n`;
  if (item.oldPriceKopecks !== null) out += `<oldprice>${ymlPrice(item.oldPriceKopecks)}</oldprice>\n`;
  out += `<currencyId>RUR</currencyId>\n<categoryId>${item.categoryId}</categoryId>\n`;
  for (const p of item.pictures) out += `<picture>${xmlEscape(p)}</picture>\n`;
  out += `<name>${xmlEscape(item.name)}</name>\n<vendor>${xmlEscape(item.vendor)}</vendor>\n`;
  if (item.vendorCode) out += `<vendorCode>${xmlEscape(item.vendorCode)}</vendorCode>\n`;
  if (item.description) out += `<description>${cdata(item.description)}</description>\n`;
  out += `<param name="Цвет">${xmlEscape(item.color)}</param>\n`;
  if (item.size !== null) out += `<param name="Размер" unit="RU">${xmlEscape(item.size)}</param>\n`;
  out += `<param name="Пол">${YML_GENDER[item.gender]}</param>\n<param name="Возраст">Взрослый</param>\n</offer>\n`;
  return out;
}

export const YML_TAIL = '</offers>\n</shop>\n</yml_catalog>\n';

// ---------------------------------------------------------------------------------------------
// Google Merchant Center (RSS 2.0 with the g: namespace)

export const GOOGLE_NS = 'http://base.google.com/ns/1.0';

export function googleHead(ctx: FeedBuildContext): string {
  const s = ctx.settings;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:g="${GOOGLE_NS}">\n<channel>\n` +
    `<title>${xmlEscape(s.shopName)}</title>\n<link>${xmlEscape(`${ctx.siteUrl}/`)}</link>\n` +
    `<description>${xmlEscape(`${s.shopName}: ${moscowTimestamp(ctx.builtAt)}`)}</description>\n`
  );
}

const GOOGLE_AVAILABILITY: Readonly<Record<FeedAvailability, string>> = {
  in_stock: 'in_stock',
  preorder: 'backorder',
  out_of_stock: 'out_of_stock',
};

/**
 * One size as an <item>: a sale is the old price as g:price and the price as g:sale_price; a
 * pre-order size is 'backorder' with the date it ships by (required with it). Our article is
 * the maker's part number (we are the maker), per size.
 */
export function googleItem(item: FeedItem, ctx: Pick<FeedBuildContext, 'builtAt' | 'settings'>): string {
  const tag = (name: string, value: string | number) =>
    `<g:${name}>${typeof value === 'number' ? value : xmlEscape(value)}</g:${name}>\n`;
  let out = `<item>\n${tag('id', item.offerId)}${tag('item_group_id', item.groupId)}${tag('title', item.name)}`;
  out += tag('description', item.description || item.name);
  out += tag('link', item.url);
  const [first, ...more] = item.pictures;
  if (first) out += tag('image_link', first);
  for (const p of more) out += tag('additional_image_link', p);
  out += tag('availability', GOOGLE_AVAILABILITY[item.availability]);
  if (item.availability === 'preorder')
    out += tag(
      'availability_date',
      googleDate(new Date(ctx.builtAt.getTime() + ctx.settings.preorderDays * 86_400_000)),
    );
  if (item.oldPriceKopecks !== null)
    out += tag('price', googlePrice(item.oldPriceKopecks)) + tag('sale_price', googlePrice(item.priceKopecks));
  else out += tag('price', googlePrice(item.priceKopecks));
  out += tag('brand', item.vendor);
  if (item.vendorCode) out += tag('mpn', item.size === null ? item.vendorCode : `${item.vendorCode}-${item.size}`);
  out += tag('condition', 'new') + tag('google_product_category', item.googleCategory);
  if (item.categoryPath.length) out += tag('product_type', item.categoryPath.join(' > '));
  out += tag('color', item.color);
  if (item.size !== null) out += tag('size', item.size);
  out += `${tag('gender', item.gender)}${tag('age_group', 'adult')}</item>\n`;
  return out;
}

export const GOOGLE_TAIL = '</channel>\n</rss>\n';

// ---------------------------------------------------------------------------------------------
// Serving

/** Whether If-None-Match names this build (any encoding's tag, weak or strong, or '*'). */
export function etagMatches(header: string | undefined, base: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const t = raw.trim().replace(/^W\//, '');
    return t === '*' || t === `"${base}"` || t.startsWith(`"${base}-`);
  });
}
