import { afterEach, describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';

// Kept markup (app/lib/kept-markup.tsx) writes parts of a page from strings rendered once apart
// from the document. It is only right while those strings are what React writes for the same
// part inside the document: a context value, a `useId` or a preload inside a part would break
// that silently. Every page is rendered both ways in one process (the test mode
// VITRINA_KEPT_MARKUP=inline renders every part inline, as the browser does) and compared byte
// for byte, with the kept strings both fresh (a miss: the test mode VITRINA_KEPT_MARKUP=fresh,
// since this worker's other test files may have kept the same parts) and reused (a hit).

const shop = setUpTestShop({ withStorefront: true, env: { PAGE_CACHE: 'off' } });

afterEach(() => {
  delete process.env.VITRINA_KEPT_MARKUP;
});

async function documentOf(path: string): Promise<string> {
  const answer = await fetch(`${shop.baseUrl}${path}`);
  expect(answer.status, path).toBeLessThan(500);
  return answer.text();
}

describe('kept markup', () => {
  it('writes every page byte for byte as rendering its parts inline does', async () => {
    const listing = await documentOf('/catalog/woman/');
    const product = /href="(\/catalog\/woman\/[^"/]+\/[^"/]+\/)"/.exec(listing)?.[1];
    expect(product).toBeDefined();
    const pages = [
      '/',
      '/catalog/woman/',
      '/catalog/woman/denim/',
      '/catalog/woman/filter/size-is-44/apply/',
      '/catalog/promo/?sort=price_asc',
      product!,
      '/search/?q=%D0%BF%D0%B0%D0%BB%D1%8C%D1%82%D0%BE',
      '/blog/',
      '/delivery/',
      '/no-such-page/',
    ];
    let keptParts = 0;
    for (const path of pages) {
      process.env.VITRINA_KEPT_MARKUP = 'fresh';
      const kept = await documentOf(path);
      delete process.env.VITRINA_KEPT_MARKUP;
      const again = await documentOf(path);
      process.env.VITRINA_KEPT_MARKUP = 'inline';
      const inline = await documentOf(path);
      delete process.env.VITRINA_KEPT_MARKUP;
      // Compared as flags: a failure names the page without printing two 150 KB documents.
      expect({ path, same: kept === inline, hit: again === kept }).toEqual({ path, same: true, hit: true });
      keptParts += (kept.match(/class="(?:card|mega__inner|footer__col|facet__values[^"]*)"/g) ?? []).length;
    }
    // The pages do carry kept parts (cards, the mega menu, footer columns, facet values).
    expect(keptParts).toBeGreaterThan(50);
  });
});
