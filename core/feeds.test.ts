import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { FeedSettings } from '~/shared/contract';
import {
  cdata,
  clip,
  DEFAULT_FEED_SETTINGS,
  etagMatches,
  GOOGLE_TAIL,
  googleHead,
  googleItem,
  googlePrice,
  moscowTimestamp,
  offerLink,
  planProduct,
  sectionChain,
  stableJson,
  stripNonXml,
  withFeedDefaults,
  xmlEscape,
  YML_TAIL,
  ymlHead,
  ymlOffer,
  ymlPrice,
  type FeedBuildContext,
  type FeedProduct,
  type FeedSection,
} from './feeds';

const SECTIONS: FeedSection[] = [
  {
    id: 1,
    code: 'new-collection',
    name: 'Новая коллекция',
    url: '/catalog/new-collection/',
    parentId: null,
    kind: 'new',
  },
  { id: 2, code: 'woman', name: 'Женщинам', url: '/catalog/woman/', parentId: null, kind: 'category' },
  { id: 3, code: 'yubki', name: 'Юбки & «мини»', url: '/catalog/woman/yubki/', parentId: 2, kind: 'category' },
  { id: 4, code: 'muzhchinam', name: 'Мужчинам', url: '/catalog/man/muzhchinam/', parentId: null, kind: 'category' },
];

function ctx(over: Partial<FeedBuildContext> = {}): FeedBuildContext {
  return {
    channel: 'yandex',
    settings: DEFAULT_FEED_SETTINGS,
    siteUrl: 'https://shop.test',
    builtAt: new Date('2026-11-28T11:05:09Z'),
    sections: new Map(SECTIONS.map((s) => [s.id, s])),
    ...over,
  };
}

function product(over: Partial<FeedProduct> = {}): FeedProduct {
  return {
    id: 10,
    slug: 'yubka-midi',
    name: 'Юбка миди',
    description: 'Юбка из шерсти.',
    sectionId: 3,
    kind: 'skirt',
    colorName: 'Чёрный',
    groupId: 7,
    active: true,
    certificate: null,
    article: 'VT-26-00010',
    photos: ['products/yubka-midi/1.jpg', 'products/yubka-midi/2.jpg'],
    offers: [
      {
        id: 101,
        size: '42',
        sizeType: 'clothes',
        intlSize: 'XS',
        priceKopecks: 1_290_000,
        oldPriceKopecks: 1_590_000,
        quantity: 3,
        preorder: false,
      },
      {
        id: 102,
        size: '44',
        sizeType: 'clothes',
        intlSize: 'S',
        priceKopecks: 1_290_000,
        oldPriceKopecks: null,
        quantity: 0,
        preorder: true,
      },
      {
        id: 103,
        size: '46',
        sizeType: 'clothes',
        intlSize: 'M',
        priceKopecks: 1_290_000,
        oldPriceKopecks: null,
        quantity: 0,
        preorder: false,
      },
    ],
    ...over,
  };
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => ['offer', 'param', 'picture', 'item', 'category'].includes(name),
});

describe('XML text', () => {
  it('escapes ampersands, angle brackets and both quotes', () => {
    expect(xmlEscape(`Tom & Jerry <b> "a" 'b'`)).toBe('Tom &amp; Jerry &lt;b&gt; &quot;a&quot; &apos;b&apos;');
    // An entity-looking text is text: its ampersand is escaped too.
    expect(xmlEscape('&amp;')).toBe('&amp;amp;');
  });

  it('drops control characters, lone surrogates and U+FFFE/FFFF, keeps tabs, newlines, Cyrillic and emoji', () => {
    expect(stripNonXml('a\u0000b\u0007c\u000Bd\u001Fe\u007Ff\u0085g')).toBe('abcdefg');
    expect(stripNonXml('x\uD800y\uDC00z\uFFFE\uFFFF')).toBe('xyz');
    expect(stripNonXml('Платье\t😀\nновое\r')).toBe('Платье\t😀\nновое\r');
  });

  it('keeps a "]]>" inside CDATA as text', () => {
    const text = 'a ]]> b <c> & d';
    const doc = `<d>${cdata(text)}</d>`;
    expect(XMLValidator.validate(doc)).toBe(true);
    expect((parser.parse(doc) as { d: string }).d).toBe(text);
  });

  it('clips long text at a word with an ellipsis and folds whitespace', () => {
    expect(clip('  один\n\nдва  три ', 100)).toBe('один два три');
    const long = 'слово '.repeat(100);
    const cut = clip(long, 50);
    expect(cut.length).toBeLessThanOrEqual(50);
    expect(cut.endsWith('слово…')).toBe(true);
  });
});

describe('values', () => {
  it('writes prices in roubles: YML without zero kopecks, Google with two decimals and the currency', () => {
    expect(ymlPrice(1_290_000)).toBe('12900');
    expect(ymlPrice(1_290_050)).toBe('12900.50');
    expect(ymlPrice(1_290_005)).toBe('12900.05');
    expect(googlePrice(1_290_000)).toBe('12900.00 RUB');
    expect(googlePrice(99)).toBe('0.99 RUB');
  });

  it('dates the feed in Moscow time with its zone', () => {
    expect(moscowTimestamp(new Date('2026-11-28T22:05:09.123Z'))).toBe('2026-11-29T01:05:09+03:00');
  });

  it('links an offer with its size and the UTM tags, encoded, Директ placeholders kept', () => {
    expect(
      offerLink('https://shop.test', '/catalog/woman/yubki/yubka/', 5, {
        utm_campaign: 'зима 2026',
        utm_source: 'yandex',
        utm_content: '{ad_id}&x',
      }),
    ).toBe(
      'https://shop.test/catalog/woman/yubki/yubka/?offer=5&utm_source=yandex&utm_campaign=%D0%B7%D0%B8%D0%BC%D0%B0%202026&utm_content={ad_id}%26x',
    );
    expect(offerLink('https://shop.test', '/p/', 5, {})).toBe('https://shop.test/p/?offer=5');
  });

  it('matches If-None-Match against the build tag of any encoding', () => {
    expect(etagMatches('"abc"', 'abc')).toBe(true);
    expect(etagMatches('W/"abc-br"', 'abc')).toBe(true);
    expect(etagMatches('"x", "abc-gz"', 'abc')).toBe(true);
    expect(etagMatches('*', 'abc')).toBe(true);
    expect(etagMatches('"abcd"', 'abc')).toBe(false);
    expect(etagMatches(undefined, 'abc')).toBe(false);
  });

  it('fills stored settings from the defaults and keeps them valid', () => {
    const merged = withFeedDefaults({ vendor: 'Бренд', channels: { vk: { utm: { utm_source: 'vkontakte' } } } });
    const parsed = FeedSettings.parse(merged);
    expect(parsed.vendor).toBe('Бренд');
    expect(parsed.channels.vk.utm).toEqual({ utm_source: 'vkontakte' });
    expect(parsed.channels.vk.enabled).toBe(true);
    expect(parsed.channels.yandex).toEqual(DEFAULT_FEED_SETTINGS.channels.yandex);
    expect(FeedSettings.parse(withFeedDefaults(null))).toEqual(DEFAULT_FEED_SETTINGS);
    expect(stableJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
  });

  it('follows a section up to its top', () => {
    expect(sectionChain(ctx().sections, 3).map((s) => s.code)).toEqual(['woman', 'yubki']);
    const loop = new Map<number, FeedSection>([
      [1, { id: 1, code: 'a', name: 'a', url: '/a/', parentId: 1, kind: 'category' }],
    ]);
    expect(sectionChain(loop, 1)).toHaveLength(20);
  });
});

describe('planProduct', () => {
  it('YML: in stock and pre-order sizes go in, a sold-out size without pre-order stays out', () => {
    const { items, leftOut } = planProduct(product(), ctx());
    expect(items.map((i) => [i.offerId, i.availability])).toEqual([
      [101, 'in_stock'],
      [102, 'preorder'],
    ]);
    expect(leftOut).toEqual([{ productId: 10, offerId: 103, name: 'Юбка миди, 46', reason: 'sold_out', offers: 1 }]);
    const [first] = items;
    expect(first).toMatchObject({
      groupId: 7,
      categoryId: 3,
      categoryPath: ['Женщинам', 'Юбки & «мини»'],
      oldPriceKopecks: 1_590_000,
      name: 'Юбка миди, чёрный',
      size: '42',
      gender: 'female',
      googleCategory: 1581,
      url: 'https://shop.test/catalog/woman/yubki/yubka-midi/?offer=101&utm_source=yandex&utm_medium=cpc&utm_campaign=feed',
      pictures: [
        'https://shop.test/img/1024/products/yubka-midi/1.jpg',
        'https://shop.test/img/1024/products/yubka-midi/2.jpg',
      ],
    });
  });

  it('Google keeps the sold-out size as out_of_stock', () => {
    const { items, leftOut } = planProduct(product(), ctx({ channel: 'google' }));
    expect(items.map((i) => i.availability)).toEqual(['in_stock', 'preorder', 'out_of_stock']);
    expect(leftOut).toEqual([]);
    expect(items[0]?.url).toContain('utm_source=google');
  });

  it('leaves whole products out with the reason: inactive, excluded, certificate, no sizes, no photo', () => {
    const reason = (p: FeedProduct, c = ctx()) => planProduct(p, c).leftOut.map((l) => [l.reason, l.offers]);
    expect(reason(product({ active: false }))).toEqual([['inactive', 3]]);
    expect(reason(product({ certificate: 'electronic' }))).toEqual([['certificate', 3]]);
    expect(reason(product({ offers: [] }))).toEqual([['no_offers', 1]]);
    expect(reason(product({ photos: [] }))).toEqual([['no_photo', 3]]);
    const settings = (channel: Partial<FeedSettings['channels']['yandex']>) =>
      ctx({
        settings: {
          ...DEFAULT_FEED_SETTINGS,
          channels: {
            ...DEFAULT_FEED_SETTINGS.channels,
            yandex: { ...DEFAULT_FEED_SETTINGS.channels.yandex, ...channel },
          },
        },
      });
    expect(reason(product(), settings({ excludeSections: ['woman'] }))).toEqual([['excluded', 3]]);
    expect(reason(product(), settings({ sections: ['muzhchinam'] }))).toEqual([['excluded', 3]]);
    expect(reason(product(), settings({ sections: ['woman'] }))).toEqual([['sold_out', 1]]);
    expect(reason(product(), settings({ excludeProducts: [10] }))).toEqual([['excluded', 3]]);
  });

  it('leaves a size without a price out, and drops an old price that is not above the price', () => {
    const p = product({
      offers: [
        {
          id: 1,
          size: '42',
          sizeType: 'clothes',
          intlSize: null,
          priceKopecks: 0,
          oldPriceKopecks: null,
          quantity: 5,
          preorder: false,
        },
        {
          id: 2,
          size: '44',
          sizeType: 'clothes',
          intlSize: null,
          priceKopecks: 100_000,
          oldPriceKopecks: 100_000,
          quantity: 5,
          preorder: false,
        },
      ],
    });
    const { items, leftOut } = planProduct(p, ctx());
    expect(leftOut.map((l) => [l.offerId, l.reason])).toEqual([[1, 'no_price']]);
    expect(items.map((i) => [i.offerId, i.oldPriceKopecks])).toEqual([[2, null]]);
  });

  it('men’s sections are male, others unisex; one-size items have no size', () => {
    const men = planProduct(
      product({
        sectionId: 4,
        kind: 'bag',
        offers: [
          {
            id: 9,
            size: 'Единый',
            sizeType: 'none',
            intlSize: null,
            priceKopecks: 100,
            oldPriceKopecks: null,
            quantity: 1,
            preorder: false,
          },
        ],
      }),
      ctx(),
    );
    expect(men.items[0]).toMatchObject({
      gender: 'male',
      size: null,
      googleCategory: 3032,
      url: 'https://shop.test/catalog/man/muzhchinam/yubka-midi/?offer=9&utm_source=yandex&utm_medium=cpc&utm_campaign=feed',
    });
    const other = planProduct(product({ sectionId: 99 }), ctx());
    expect(other.items[0]).toMatchObject({ gender: 'unisex', categoryPath: [] });
  });
});

describe('documents', () => {
  const nasty = product({
    name: 'Платье "Ночь" & <день>\u0001',
    colorName: "Д'Артаньян",
    description: 'Ткань ]]> & <b>шёлк</b>\u0008',
    article: 'VT&1',
  });

  it('YML: a whole document with a nasty name parses, with every element Yandex needs', () => {
    const c = ctx();
    const { items } = planProduct(nasty, c);
    const doc = ymlHead(c) + items.map(ymlOffer).join('') + YML_TAIL;
    expect(XMLValidator.validate(doc)).toBe(true);
    const yml = parser.parse(doc) as {
      yml_catalog: {
        '@date': string;
        shop: {
          name: string;
          currencies: unknown;
          categories: { category: Array<Record<string, string>> };
          offers: { offer: Array<Record<string, unknown>> };
        };
      };
    };
    expect(yml.yml_catalog['@date']).toBe('2026-11-28T14:05:09+03:00');
    expect(yml.yml_catalog.shop.name).toBe('Vitrina');
    // Only real categories (not the «new» flag section), each under its category parent.
    expect(yml.yml_catalog.shop.categories.category.map((x) => [x['@id'], x['@parentId'], x['#text']])).toEqual([
      ['2', undefined, 'Женщинам'],
      ['3', '2', 'Юбки & «мини»'],
      ['4', undefined, 'Мужчинам'],
    ]);
    const [offer] = yml.yml_catalog.shop.offers.offer;
    expect(offer).toMatchObject({
      '@id': '101',
      '@available': 'true',
      '@group_id': '7',
      price: '12900',
      oldprice: '15900',
      currencyId: 'RUR',
      categoryId: '3',
      name: 'Платье "Ночь" & <день>, д\'артаньян',
      vendor: 'Vitrina',
      vendorCode: 'VT&1',
      description: 'Ткань ]]> & <b>шёлк</b>',
    });
    expect(String(offer?.url)).toContain('?offer=101&utm_source=yandex');
    expect(offer?.param).toEqual([
      { '@name': 'Цвет', '#text': "Д'Артаньян" },
      { '@name': 'Размер', '@unit': 'RU', '#text': '42' },
      { '@name': 'Пол', '#text': 'Женский' },
      { '@name': 'Возраст', '#text': 'Взрослый' },
    ]);
    expect(yml.yml_catalog.shop.offers.offer[1]).toMatchObject({ '@id': '102', '@available': 'false' });
  });

  it('Google: an RSS 2.0 document with the g: apparel attributes', () => {
    const c = ctx({ channel: 'google' });
    const { items } = planProduct(nasty, c);
    const doc = googleHead(c) + items.map((i) => googleItem(i, c)).join('') + GOOGLE_TAIL;
    expect(XMLValidator.validate(doc)).toBe(true);
    const rss = parser.parse(doc) as { rss: { '@xmlns:g': string; channel: { item: Array<Record<string, unknown>> } } };
    expect(rss.rss['@xmlns:g']).toBe('http://base.google.com/ns/1.0');
    const [sale, preorder, soldOut] = rss.rss.channel.item;
    expect(sale).toMatchObject({
      'g:id': '101',
      'g:item_group_id': '7',
      'g:title': 'Платье "Ночь" & <день>, д\'артаньян',
      'g:price': '15900.00 RUB',
      'g:sale_price': '12900.00 RUB',
      'g:availability': 'in_stock',
      'g:brand': 'Vitrina',
      'g:mpn': 'VT&1-42',
      'g:color': "Д'Артаньян",
      'g:size': '42',
      'g:gender': 'female',
      'g:age_group': 'adult',
      'g:google_product_category': '1581',
      'g:product_type': 'Женщинам > Юбки & «мини»',
      'g:image_link': 'https://shop.test/img/1024/products/yubka-midi/1.jpg',
      'g:additional_image_link': 'https://shop.test/img/1024/products/yubka-midi/2.jpg',
    });
    expect(preorder).toMatchObject({
      'g:availability': 'backorder',
      'g:availability_date': '2026-12-26T14:05+0300',
      'g:price': '12900.00 RUB',
    });
    expect(preorder?.['g:sale_price']).toBeUndefined();
    expect(soldOut).toMatchObject({ 'g:availability': 'out_of_stock' });
  });
});
