import type { Locator } from 'playwright-core';
import { StorefrontPage } from './browser';

// Page objects of the catalogue: everything found by role and accessible name, as a shopper
// (or a screen reader) would find it.

type MarkedWindow = Window & { __testMarker?: string };

/** Parses '12 345 ₽' (also with no-break spaces) to 12345; null when there is no price. */
export function parsePrice(text: string): number | null {
  const m = /(\d[\d\s\u00a0]*)(?:,\d{1,2})?\s*₽/.exec(text);
  return m?.[1] ? Number(m[1].replace(/[\s\u00a0]/g, '')) : null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

class ShopPage extends StorefrontPage {
  /** Sets a marker on window: it survives client navigations and is gone after a full load. */
  async markWindow(value = 'still-here'): Promise<void> {
    await this.page.evaluate((v) => ((window as MarkedWindow).__testMarker = v), value);
  }

  async windowMarker(): Promise<string | undefined> {
    return this.page.evaluate(() => (window as MarkedWindow).__testMarker);
  }

  pathname(): string {
    return new URL(this.page.url()).pathname;
  }

  searchParam(name: string): string | null {
    return new URL(this.page.url()).searchParams.get(name);
  }
}

export class CategoryPage extends ShopPage {
  cards(): Locator {
    return this.page.getByRole('main').getByRole('article');
  }

  /** The product links of the cards, one per card (the name link). */
  async cardHrefs(): Promise<string[]> {
    return this.cards()
      .getByRole('heading', { level: 3 })
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).getAttribute('href') ?? ''));
  }

  /** What each card asks now (the first price on the card; an old price comes after it). */
  async cardPrices(): Promise<number[]> {
    const texts = await this.cards().allInnerTexts();
    return texts.map((t) => parsePrice(t) ?? Number.NaN);
  }

  /** The number beside the heading: '12 товаров' → 12. */
  async count(): Promise<number> {
    const text = await this.page
      .getByText(/^\d[\d\s\u00a0]* товар(а|ов)?$/)
      .first()
      .textContent();
    return Number((text ?? '').replace(/\D/g, ''));
  }

  /** The filters beside the grid (desktop). */
  filters(): Locator {
    return this.page.getByRole('complementary', { name: 'Фильтры' });
  }

  /** A facet value by its label (a colour link's name also carries its count). */
  filterLink(label: string, where: Locator = this.filters()): Locator {
    return where.getByRole('link', { name: new RegExp(`^${escapeRegExp(label)}(?=$|[\\s,])`) });
  }

  priceFrom(where: Locator = this.filters()): Locator {
    return where.getByRole('textbox', { name: 'Цена от, ₽' });
  }

  priceTo(where: Locator = this.filters()): Locator {
    return where.getByRole('textbox', { name: 'Цена до, ₽' });
  }

  applyPrice(where: Locator = this.filters()): Locator {
    return where.getByRole('button', { name: 'Применить' });
  }

  sort(): Locator {
    return this.page.getByRole('combobox', { name: 'Сортировка' });
  }

  loadMore(): Locator {
    return this.page.getByRole('link', { name: 'Показать ещё' });
  }

  appliedFilters(): Locator {
    return this.page.getByRole('list', { name: 'Выбранные фильтры' });
  }

  /** Phones: the «Фильтры» button and the sheet it opens. */
  openFiltersButton(): Locator {
    return this.page.getByRole('button', { name: /^Фильтры/ });
  }

  sheet(): Locator {
    return this.page.getByRole('dialog', { name: 'Фильтры' });
  }

  sheetApply(): Locator {
    return this.sheet().getByRole('button', { name: /^Показать \d/ });
  }
}

export class ProductPage extends ShopPage {
  /** The product button, whatever it reads now. */
  buyButton(): Locator {
    return this.page.getByRole('button', { name: /^(Добавить в корзину|Оформить предзаказ|Нет в наличии)$/ });
  }

  sizes(): Locator {
    return this.page.getByRole('radiogroup', { name: 'Размер' });
  }

  size(label: string): Locator {
    return this.sizes().getByRole('radio', { name: label, exact: false });
  }

  colours(): Locator {
    return this.page.getByRole('list', { name: 'Другие цвета' });
  }

  colour(name: string): Locator {
    return this.colours().getByRole('link', { name, exact: true });
  }

  photoButtons(): Locator {
    return this.page.getByRole('button', { name: /во весь экран/ });
  }

  lightbox(): Locator {
    return this.page.getByRole('dialog', { name: /фотографии/ });
  }

  accordion(name: string): Locator {
    return this.page.getByText(name, { exact: true });
  }
}

export class SearchPage extends ShopPage {
  /** The header's field with suggestions (ARIA combobox). */
  headerSearch(): Locator {
    return this.page.getByRole('banner').getByRole('combobox', { name: 'Поиск по каталогу' });
  }

  suggestions(): Locator {
    return this.page.getByRole('listbox', { name: 'Подсказки поиска' });
  }

  suggestion(name: RegExp | string): Locator {
    return this.suggestions().getByRole('option', { name });
  }

  pageSearch(): Locator {
    return this.page.getByRole('main').getByRole('searchbox', { name: 'Что ищем?' });
  }

  results(): Locator {
    return this.page.getByRole('main').getByRole('article');
  }

  async resultNames(): Promise<string[]> {
    return this.results().getByRole('heading', { level: 3 }).allInnerTexts();
  }
}
