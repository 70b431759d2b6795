import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CatalogListItem } from '~/shared/contract';
import { keptMarkupSize, KEPT_MARKUP_MAX_BYTES } from '~/app/lib/kept-markup';
import { ProductCard, RenderedProductCard, type ProductCardProps } from './ProductCard';

// On the server (these tests run as the server's build: import.meta.env.SSR) a lazy card is
// written from kept markup (app/lib/kept-markup.tsx). The browser renders every card with React
// and hydrates it against the server's DOM, so both must be the same HTML, byte for byte.

const coat: CatalogListItem = {
  ID: 101,
  NAME: 'Пальто из шерсти & кашемира "Классика"',
  DETAIL_PAGE_URL: '/catalog/woman/coats/palto-iz-shersti/',
  PRICE: 44800,
  OLD_PRICE: null,
  PREVIEW_PICTURE: '/media/products/palto-iz-shersti/1.jpg',
  SECOND_PICTURE: '/media/products/palto-iz-shersti/2.jpg',
  COLOR: 'Оливковый',
  IS_NEW: false,
};

// No router around it: nothing in a card may need one (its markup would depend on the page).
const html = (card: React.ReactElement) => renderToString(card);

describe('a product card written from kept markup', () => {
  const variants: Array<[string, ProductCardProps]> = [
    ['plain', { item: coat }],
    [
      'new, discounted, with quick add',
      { item: { ...coat, ID: 102, IS_NEW: true, PRICE: 29900, OLD_PRICE: 39900 }, quickAdd: true },
    ],
    ['old price without a discount shown', { item: { ...coat, ID: 103, PRICE: 39900, OLD_PRICE: 39900 } }],
    ['no photos', { item: { ...coat, ID: 104, PREVIEW_PICTURE: null, SECOND_PICTURE: null } }],
    [
      'one photo, other sizes',
      { item: { ...coat, ID: 105, SECOND_PICTURE: null }, sizes: '(min-width: 1024px) 25vw, 50vw' },
    ],
  ];

  it.each(variants)('is the HTML React renders (%s)', (_name, props) => {
    const rendered = html(<RenderedProductCard {...props} />);
    expect(html(<ProductCard {...props} />)).toBe(rendered);
    // The second time it comes from the kept markup: still the same.
    const before = keptMarkupSize().entries;
    expect(html(<ProductCard {...props} />)).toBe(rendered);
    expect(keptMarkupSize().entries).toBe(before);
  });

  it('is kept per props: a new price is a new card', () => {
    const first = html(<ProductCard item={{ ...coat, ID: 110 }} quickAdd />);
    const before = keptMarkupSize().entries;
    const repriced = html(<ProductCard item={{ ...coat, ID: 110, PRICE: 41000 }} quickAdd />);
    expect(keptMarkupSize().entries).toBe(before + 1);
    expect(first).toMatch(/44\s800/);
    expect(repriced).toMatch(/41\s000/);
    expect(repriced).not.toMatch(/44\s800/);
  });

  it('leaves eager cards to React, which preloads their photos in the head', () => {
    const before = keptMarkupSize().entries;
    for (const props of [{ eager: true }, { priority: true }]) {
      const card = { item: { ...coat, ID: 120 }, ...props };
      expect(html(<ProductCard {...card} />)).toBe(html(<RenderedProductCard {...card} />));
    }
    expect(keptMarkupSize().entries).toBe(before);
  });

  it('stays within its byte bound', () => {
    for (let id = 1000; id < 1200; id++)
      html(<ProductCard item={{ ...coat, ID: id, NAME: `${coat.NAME} ${'x'.repeat(2000)}` }} />);
    const { bytes, entries } = keptMarkupSize();
    expect(entries).toBeGreaterThan(100);
    expect(bytes).toBeLessThanOrEqual(KEPT_MARKUP_MAX_BYTES);
  });
});
