import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { CatalogSectionResponse, ProductResponse, type ProductItem } from '~/shared/contract';
import { getJson } from '~/tests/support/api';
import { DESKTOP, MOBILE, setUpBrowserShop, type Shopper, type Viewport } from '~/tests/support/browser';
import { CategoryPage, ProductPage, SearchPage } from '~/tests/support/pages';

// Issue "Browsing", storefront: listings with filters, sort and load more, the product page,
// search. Data the tests need (a pre-orderable size, a colour variant) is found through the API.

const { shop, it } = setUpBrowserShop();

/** Polls with room for a cold shop (photos are drawn on first request and share the browser's connections). */
function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 15_000, interval: 100 });
}

function listing(path: string, query = ''): Promise<CatalogSectionResponse> {
  return getJson(shop.baseUrl, `/backend${path}${query}`, CatalogSectionResponse);
}

async function product(path: string): Promise<ProductItem> {
  return (await getJson(shop.baseUrl, `/backend${path}`, ProductResponse)).ITEM;
}

/** The first product of the catalogue (in listing order) that passes `test`. */
async function findProduct(test: (item: ProductItem) => boolean): Promise<ProductItem> {
  for (let page = 1; page <= 8; page++) {
    const list = await listing('/catalog/all/', `?PAGEN_1=${page}`);
    for (const card of list.ITEMS) {
      const item = await product(card.DETAIL_PAGE_URL);
      if (test(item)) return item;
    }
  }
  throw new Error('no product in the seed passes the test');
}

async function open<T extends CategoryPage | ProductPage | SearchPage>(
  shopper: Shopper,
  Kind: new (page: Page) => T,
  path: string,
  viewport: Viewport = DESKTOP,
): Promise<T> {
  const view = new Kind(await shopper.newPage(viewport));
  const res = await view.goto(path);
  expect(res?.status()).toBe(200);
  return view;
}

describe('category page', () => {
  it('shows the heading with the count, the cards and the section text', async ({ shopper }) => {
    const data = await listing('/catalog/woman/uteplyennye_palto/');
    const view = await open(shopper, CategoryPage, '/catalog/woman/uteplyennye_palto/');
    await poll(() => view.heading().textContent()).toBe(data.SECTION.NAME);
    expect(await view.count()).toBe(data.NAV_STRING.ITEMS_COUNT);
    expect(await view.cards().count()).toBe(Math.min(data.NAV_STRING.ITEMS_COUNT, data.NAV_STRING.PAGE_SIZE));
    expect(
      await view.page
        .getByRole('navigation', { name: 'Хлебные крошки' })
        .getByRole('link', { name: 'Главная' })
        .count(),
    ).toBe(1);
  });

  it('filters by size on the client: the address changes, the page is not reloaded', async ({ shopper }) => {
    const base = await listing('/catalog/woman/uteplyennye_palto/');
    const sizes = base.FILTER.find((f) => f.CODE === 'size');
    if (!sizes || sizes.CODE === 'price') throw new Error('no size facet');
    // A size that narrows the list and leaves some colour with no goods (disabled, not a link).
    let choice:
      | {
          value: (typeof sizes.VALUES)[number];
          filtered: CatalogSectionResponse;
          empty: { VALUE: string };
          offered: { VALUE: string };
        }
      | undefined;
    for (const value of sizes.VALUES.filter(
      (v) => !v.DISABLED && v.COUNT > 0 && v.COUNT < base.NAV_STRING.ITEMS_COUNT,
    )) {
      const filtered = await listing(value.URL);
      const colours = filtered.FILTER.find((f) => f.CODE === 'color');
      const empty = colours && colours.CODE !== 'price' ? colours.VALUES.find((v) => v.DISABLED) : undefined;
      const offered = colours && colours.CODE !== 'price' ? colours.VALUES.find((v) => !v.DISABLED) : undefined;
      if (empty && offered) {
        choice = { value, filtered, empty, offered };
        break;
      }
    }
    if (!choice) throw new Error('the seed needs a size of this section that leaves a colour without goods');
    const { value, filtered, empty, offered } = choice;

    const view = await open(shopper, CategoryPage, '/catalog/woman/uteplyennye_palto/');
    await view.markWindow();
    await view.filterLink(value.VALUE).click();
    await view.page.waitForURL(`**${value.URL}`);
    await poll(() => view.count()).toBe(filtered.NAV_STRING.ITEMS_COUNT);
    expect(await view.windowMarker()).toBe('still-here');
    // The value is marked as chosen and offered for removal; a colour with no goods is not a link.
    expect(await view.filterLink(value.VALUE).getAttribute('aria-current')).toBe('true');
    await poll(() =>
      view
        .appliedFilters()
        .getByRole('link', { name: `Убрать фильтр: Размер ${value.VALUE}` })
        .count(),
    ).toBe(1);
    expect(await view.filterLink(offered.VALUE).count()).toBe(1);
    expect(await view.filterLink(empty.VALUE).count()).toBe(0);
  });

  it('filters by price through the number-mask input, also without a reload', async ({ shopper }) => {
    const base = await listing('/catalog/woman/denim/');
    const price = base.FILTER.find((f) => f.CODE === 'price');
    if (!price || price.CODE !== 'price') throw new Error('no price facet');
    const from = Math.round((price.VALUES.MIN + price.VALUES.MAX) / 2 / 100) * 100;

    const view = await open(shopper, CategoryPage, '/catalog/woman/denim/');
    await view.markWindow();
    const input = view.priceFrom();
    expect(Number(await input.getAttribute('maxlength'))).toBeGreaterThan(0);
    await input.fill(String(from));
    // The mask groups thousands with a space.
    await poll(() => input.inputValue()).toBe(String(from).replace(/\B(?=(\d{3})+(?!\d))/g, ' '));
    await view.applyPrice().click();
    await view.page.waitForURL(`**/catalog/woman/denim/filter/price-base-from-${from}/apply/`);
    expect(await view.windowMarker()).toBe('still-here');
    const filtered = await listing(`/catalog/woman/denim/filter/price-base-from-${from}/apply/`);
    await poll(() => view.count()).toBe(filtered.NAV_STRING.ITEMS_COUNT);
    const prices = await view.cardPrices();
    expect(prices.length).toBeGreaterThan(0);
    for (const p of prices) expect(p).toBeGreaterThanOrEqual(from);

    // A number above the range is clamped to the maximum while typing.
    await view.priceTo().fill('99999999');
    await poll(() => view.priceTo().inputValue()).toBe(String(price.VALUES.MAX).replace(/\B(?=(\d{3})+(?!\d))/g, ' '));
  });

  it('appends the next page with «Показать ещё» and keeps it in the address', async ({ shopper }) => {
    const all = await listing('/catalog/all/');
    expect(all.NAV_STRING.PAGE_COUNT).toBeGreaterThan(2);
    const view = await open(shopper, CategoryPage, '/catalog/');
    await view.markWindow();
    const first = await view.cardHrefs();
    expect(first).toHaveLength(all.NAV_STRING.PAGE_SIZE);

    await view.loadMore().click();
    await poll(() => view.cards().count()).toBe(all.NAV_STRING.PAGE_SIZE * 2);
    await poll(() => view.searchParam('PAGEN_1')).toBe('2');
    expect(view.pathname()).toBe('/catalog/');
    expect(await view.windowMarker()).toBe('still-here');
    const both = await view.cardHrefs();
    expect(new Set(both).size).toBe(both.length);
    expect(both.slice(0, first.length)).toEqual(first);

    await view.loadMore().click();
    await poll(() => view.cards().count()).toBe(all.NAV_STRING.PAGE_SIZE * 3);
    await poll(() => view.searchParam('PAGEN_1')).toBe('3');

    // A reload of that address shows the same items.
    const shown = await view.cardHrefs();
    await view.goto(view.page.url());
    expect(await view.cardHrefs()).toEqual(shown);
  });

  it('sorts by price, lowest first', async ({ shopper }) => {
    const view = await open(shopper, CategoryPage, '/catalog/woman/uteplyennye_palto/');
    await view.markWindow();
    await view.sort().selectOption('price_asc');
    await poll(() => view.searchParam('sort')).toBe('price_asc');
    await poll(async () => {
      const prices = await view.cardPrices();
      return prices.length > 1 && prices.every((p, i) => i === 0 || p >= (prices[i - 1] as number));
    }).toBe(true);
    expect(await view.windowMarker()).toBe('still-here');
  });

  it('on a phone, filters open in a sheet with «Показать N товаров»', async ({ shopper }) => {
    const base = await listing('/catalog/woman/denim/');
    const colors = base.FILTER.find((f) => f.CODE === 'color');
    if (!colors || colors.CODE === 'price') throw new Error('no colour facet');
    const value = colors.VALUES.find((v) => !v.DISABLED && v.COUNT > 0);
    if (!value) throw new Error('no colour to filter by');
    const filtered = await listing(value.URL);

    const view = await open(shopper, CategoryPage, '/catalog/woman/denim/', MOBILE);
    await view.markWindow();
    await view.openFiltersButton().click();
    await poll(() => view.sheet().isVisible()).toBe(true);
    await view.filterLink(value.VALUE, view.sheet()).click();
    await view.page.waitForURL(`**${value.URL}`);
    // The sheet stays open and counts the goods the choice gives.
    await poll(() => view.sheetApply().textContent()).toMatch(
      new RegExp(`^Показать ${filtered.NAV_STRING.ITEMS_COUNT} товар`),
    );
    await view.sheetApply().click();
    await poll(() => view.sheet().isVisible()).toBe(false);
    expect(await view.count()).toBe(filtered.NAV_STRING.ITEMS_COUNT);
    expect(await view.windowMarker()).toBe('still-here');
  });

  it('says so when the filters leave nothing, with a link to reset them', async ({ shopper }) => {
    const view = await open(shopper, CategoryPage, '/catalog/woman/denim/filter/price-base-from-1-to-2/apply/');
    await poll(() => view.page.getByText('По выбранным фильтрам ничего не нашлось').isVisible()).toBe(true);
    await view.page.getByRole('link', { name: 'Сбросить фильтры' }).click();
    await view.page.waitForURL('**/catalog/woman/denim/');
    await poll(() => view.cards().count()).toBeGreaterThan(0);
  });
});

describe('product page', () => {
  it('activates the button once a size is chosen, and offers a pre-order for a size out of stock', async ({
    shopper,
  }) => {
    const item = await findProduct(
      (p) =>
        p.OFFERS.length > 1 &&
        p.OFFERS.some((o) => o.AVAILABLE === 'Y') &&
        p.OFFERS.some((o) => o.AVAILABLE === 'N' && o.IS_PREORDER === 'Y'),
    );
    const inStock = item.OFFERS.find((o) => o.AVAILABLE === 'Y');
    const preorder = item.OFFERS.find((o) => o.AVAILABLE === 'N' && o.IS_PREORDER === 'Y');
    const view = await open(shopper, ProductPage, item.DETAIL_PAGE_URL);
    await poll(() => view.heading().textContent()).toBe(item.NAME);

    const button = view.buyButton();
    expect(await button.textContent()).toBe('Добавить в корзину');
    expect(await button.isEnabled()).toBe(false);

    await view.size(inStock?.IS_OFFER.SIZES_CLOTHES?.LABEL ?? inStock?.IS_OFFER.SIZES_SHOES?.LABEL ?? '').check();
    await poll(() => button.isEnabled()).toBe(true);
    expect(await button.textContent()).toBe('Добавить в корзину');

    const preorderSize = view.size(
      preorder?.IS_OFFER.SIZES_CLOTHES?.LABEL ?? preorder?.IS_OFFER.SIZES_SHOES?.LABEL ?? '',
    );
    expect(await preorderSize.evaluate((el) => el.closest('label')?.textContent)).toContain('предзаказ');
    await preorderSize.check();
    await poll(() => button.textContent()).toBe('Оформить предзаказ');
    expect(await button.isEnabled()).toBe(true);
  });

  it('marks a size that can be neither bought nor pre-ordered, and offers the waiting list for it', async ({
    shopper,
  }) => {
    const item = await findProduct((p) => p.OFFERS.some((o) => o.AVAILABLE === 'N' && o.IS_PREORDER === 'N'));
    const gone = item.OFFERS.find((o) => o.AVAILABLE === 'N' && o.IS_PREORDER === 'N');
    const view = await open(shopper, ProductPage, item.DETAIL_PAGE_URL);
    const size = view.size(gone?.IS_OFFER.SIZES_CLOTHES?.LABEL ?? gone?.IS_OFFER.SIZES_SHOES?.LABEL ?? '');
    expect(await size.evaluate((el) => el.closest('label')?.textContent)).toContain('нет в наличии');
    await size.check();
    // Neither the basket nor one click: the only way on is to be told when it is back.
    await poll(() =>
      view.page.getByRole('main').getByRole('button', { name: 'Сообщить о поступлении' }).isVisible(),
    ).toBe(true);
    expect(await view.buyButton().count()).toBe(0);
    expect(await view.page.getByRole('main').getByRole('button', { name: 'Купить в один клик' }).count()).toBe(0);
  });

  it('switches to another colour through its link', async ({ shopper }) => {
    const item = await findProduct((p) => p.OTHER_LINK.length > 1);
    const other = item.OTHER_LINK.find((v) => !v.IS_ACTIVE_PAGE);
    if (!other) throw new Error('no other colour');
    const view = await open(shopper, ProductPage, item.DETAIL_PAGE_URL);
    await view.markWindow();
    expect(await view.colour(item.COLOR).getAttribute('aria-current')).toBe('page');
    await view.colour(other.COLOR).click();
    await view.page.waitForURL(`**${other.DETAIL_PAGE_URL}`);
    await poll(() => view.colour(other.COLOR).getAttribute('aria-current')).toBe('page');
    expect(await view.windowMarker()).toBe('still-here');
  });

  it('opens the gallery full-screen and closes it with Escape', async ({ shopper }) => {
    const item = await findProduct((p) => (p.PROPERTIES.MORE_PHOTO?.VALUE.length ?? 0) > 1);
    const view = await open(shopper, ProductPage, item.DETAIL_PAGE_URL);
    expect(await view.photoButtons().count()).toBe(item.PROPERTIES.MORE_PHOTO.VALUE.length);
    await view.photoButtons().first().click();
    await poll(() => view.lightbox().isVisible()).toBe(true);
    // Arrow keys page through the photos.
    await view.page.keyboard.press('ArrowRight');
    await poll(() => view.lightbox().getByText(`2 / ${item.PROPERTIES.MORE_PHOTO.VALUE.length}`).isVisible()).toBe(
      true,
    );
    // A click zooms in, another zooms out.
    await view.lightbox().getByRole('button', { name: 'Увеличить фото' }).click();
    await poll(() => view.lightbox().getByRole('button', { name: 'Уменьшить фото' }).count()).toBe(1);
    await view.page.keyboard.press('Escape');
    await poll(() => view.lightbox().isVisible()).toBe(false);
  });

  for (const viewport of [MOBILE, DESKTOP]) {
    it(`at ${viewport.width} px has a full-screen button on the photo, which opens the photo in view and zooms`, async ({
      shopper,
    }) => {
      const item = await findProduct((p) => (p.PROPERTIES.MORE_PHOTO?.VALUE.length ?? 0) > 2);
      const count = item.PROPERTIES.MORE_PHOTO.VALUE.length;
      const view = await open(shopper, ProductPage, item.DETAIL_PAGE_URL, viewport);
      const expand = view.page.getByRole('button', { name: 'Полноэкранный просмотр' });
      // Visible as it is, not only on hover, and inside the photo.
      expect(await expand.isVisible()).toBe(true);
      const [button, photo] = await Promise.all([expand.boundingBox(), view.photoButtons().first().boundingBox()]);
      expect(
        button &&
          photo &&
          button.x >= photo.x &&
          button.x + button.width <= photo.x + photo.width &&
          button.y >= photo.y,
      ).toBe(true);
      expect(await expand.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
      // On a desktop the thumbnails choose the photo: the view opens on the one chosen.
      if (viewport === DESKTOP) {
        await view.page.getByRole('button', { name: `Фото 3 из ${count}` }).click();
        // The strip has scrolled to it (smoothly) before the shopper reaches the button.
        await poll(() =>
          view.page
            .locator('.gallery__track')
            .evaluate((el) => Math.round((el.scrollLeft / el.clientWidth) * 100) / 100),
        ).toBe(2);
      }
      await expand.click();
      await poll(() => view.lightbox().isVisible()).toBe(true);
      await poll(() =>
        view
          .lightbox()
          .getByText(`${viewport === DESKTOP ? 3 : 1} / ${count}`)
          .isVisible(),
      ).toBe(true);
      await view.lightbox().getByRole('button', { name: 'Увеличить фото' }).click();
      await poll(() => view.lightbox().getByRole('button', { name: 'Уменьшить фото' }).count()).toBe(1);
      await view.page.keyboard.press('Escape');
      await poll(() => view.lightbox().isVisible()).toBe(false);
    });
  }

  it('opens the info modals from the product page', async ({ shopper }) => {
    const item = await findProduct((p) => p.OFFERS.length > 1);
    const view = await open(shopper, ProductPage, item.DETAIL_PAGE_URL);
    const main = view.page.getByRole('main');
    await main.getByRole('button', { name: 'Таблица размеров' }).click();
    await poll(() => view.page.getByRole('dialog', { name: 'Таблица размеров' }).isVisible()).toBe(true);
    await view.page.keyboard.press('Escape');
    await poll(() => view.page.getByRole('dialog', { name: 'Таблица размеров' }).count()).toBe(0);
    await main.getByRole('link', { name: 'Доставка', exact: true }).click();
    await poll(() => view.page.getByRole('dialog', { name: 'Доставка' }).isVisible()).toBe(true);
    expect(view.pathname()).toBe(new URL(item.DETAIL_PAGE_URL, shop.baseUrl).pathname);
  });
});

describe('photos', () => {
  it('drops the blurred placeholder of photos that loaded before hydration', async ({ shopper }) => {
    const { page } = await shopper.open('/catalog/woman/');
    // The first row loads eagerly, before the scripts (which wait for the first paint).
    const photo = page.locator('.card__media img.image').first();
    await poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await poll(() =>
      photo.evaluate((img) => ({
        placeholder: img.classList.contains('image--placeholder'),
        background: img.style.backgroundImage,
      })),
    ).toEqual({
      placeholder: false,
      background: '',
    });
  });
});

describe('search', () => {
  it('suggests products while typing in the header, with a typo', async ({ shopper }) => {
    const view = await open(shopper, SearchPage, '/');
    await view.markWindow();
    const field = view.headerSearch();
    await field.fill('пльто');
    await poll(() => field.getAttribute('aria-expanded')).toBe('true');
    const options = view.suggestions().getByRole('option');
    await poll(() => options.count()).toBeGreaterThan(1);
    // At most six products plus «all results».
    expect(await options.count()).toBeLessThanOrEqual(7);
    expect((await options.first().textContent())?.toLowerCase()).toContain('пальто');

    await field.press('ArrowDown');
    expect(await field.getAttribute('aria-activedescendant')).toBe(await options.first().getAttribute('id'));
    await field.press('Escape');
    await poll(() => field.getAttribute('aria-expanded')).toBe('false');

    await field.press('ArrowDown');
    await field.press('Enter');
    await view.page.waitForURL(/\/catalog\/.+\/.+\//);
    await poll(async () => (await view.heading().textContent())?.toLowerCase()).toContain('пальто');
    expect(await view.windowMarker()).toBe('still-here');
  });

  it('submits to the search page, which finds coats for «пльто»', async ({ shopper }) => {
    const view = await open(shopper, SearchPage, '/about/');
    await view.headerSearch().fill('пльто');
    await view.headerSearch().press('Enter');
    await view.page.waitForURL(/\/search\/\?q=/);
    expect(view.searchParam('q')).toBe('пльто');
    await poll(() => view.heading().textContent()).toBe('Поиск: пльто');
    await poll(async () => (await view.resultNames()).some((n) => n.toLowerCase().includes('пальто'))).toBe(true);
  });

  it('has its own page: results with the count, a message when nothing is found, a prompt when blank', async ({
    shopper,
  }) => {
    const found = await open(shopper, SearchPage, '/search/?q=%D0%BF%D0%BB%D1%8C%D1%82%D0%BE');
    await poll(() => found.results().count()).toBeGreaterThan(0);
    expect(await found.page.getByText(/^Найдено: \d+ товар/).isVisible()).toBe(true);

    const none = await open(shopper, SearchPage, '/search/?q=zzqqxx');
    expect(await none.page.getByText('По запросу «zzqqxx» ничего не найдено').isVisible()).toBe(true);
    expect(
      await none.page.getByRole('navigation', { name: 'Разделы каталога' }).getByRole('link').count(),
    ).toBeGreaterThan(1);

    const blank = await open(shopper, SearchPage, '/search/');
    expect(await blank.results().count()).toBe(0);
    expect(await blank.pageSearch().isVisible()).toBe(true);
    await blank.pageSearch().fill('пальто');
    await blank.pageSearch().press('Enter');
    await blank.page.waitForURL(/\/search\/\?q=/);
    await poll(() => blank.results().count()).toBeGreaterThan(0);
  });
});

describe('without JavaScript (plain HTTP)', () => {
  it('a filter link answers 200 with the filtered listing in the HTML', async () => {
    const base = await listing('/catalog/woman/denim/');
    const colors = base.FILTER.find((f) => f.CODE === 'color');
    if (!colors || colors.CODE === 'price') throw new Error('no colour facet');
    const value = colors.VALUES.find((v) => !v.DISABLED && v.COUNT > 0 && v.COUNT < base.NAV_STRING.ITEMS_COUNT);
    if (!value) throw new Error('no colour to filter by');
    // Every filter value is a real link in the first HTML.
    const baseHtml = await (await fetch(`${shop.baseUrl}/catalog/woman/denim/`)).text();
    expect(baseHtml).toContain(`href="${value.URL}"`);

    const filtered = await listing(value.URL);
    const res = await fetch(`${shop.baseUrl}${value.URL}`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(new RegExp(`>${filtered.NAV_STRING.ITEMS_COUNT} товар(а|ов)?<`));
    expect(html).toContain(`<link rel="canonical" href="http://shop.test${filtered.CANONICAL_URL}"`);
    for (const item of filtered.ITEMS) expect(html).toContain(item.DETAIL_PAGE_URL);
  });

  it('the price form without JavaScript redirects to the price filter URL', async () => {
    const res = await fetch(`${shop.baseUrl}/catalog/woman/denim/?price_from=10+000&price_to=`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/catalog/woman/denim/filter/price-base-from-10000/apply/');
  });

  it('the product HTML carries Product and BreadcrumbList JSON-LD', async () => {
    const list = await listing('/catalog/woman/uteplyennye_palto/');
    const first = list.ITEMS[0];
    if (!first) throw new Error('empty section');
    const item = await product(first.DETAIL_PAGE_URL);
    const html = await (await fetch(`${shop.baseUrl}${item.DETAIL_PAGE_URL}`)).text();
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]+)<\/script>/g)].map(
      (m) => JSON.parse(m[1] as string) as Record<string, unknown>,
    );
    const ld = blocks.find((b) => b['@type'] === 'Product') as
      | {
          name: string;
          sku: string;
          image: string[];
          brand: { name: string };
          offers: { priceCurrency: string; availability: string; price: string }[];
        }
      | undefined;
    expect(ld?.name).toBe(item.NAME);
    expect(ld?.brand.name).toBe('Vitrina');
    expect(ld?.image[0]).toMatch(/^http:\/\/shop\.test\/media\//);
    expect(ld?.sku).toMatch(/^VT-/);
    expect(ld?.offers).toHaveLength(item.OFFERS.length);
    for (const offer of ld?.offers ?? []) {
      expect(offer.priceCurrency).toBe('RUB');
      expect(offer.availability).toMatch(/^https:\/\/schema\.org\/(InStock|PreOrder|OutOfStock)$/);
    }
    expect(blocks.some((b) => b['@type'] === 'BreadcrumbList')).toBe(true);
    expect(html).toContain(`<link rel="canonical" href="http://shop.test${item.DETAIL_PAGE_URL}"`);
  });
});
