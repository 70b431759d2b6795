import { CatalogSectionResponse, ProductResponse, type ProductItem, type ProductOffer } from '~/shared/contract';
import { getJson } from './api';

/**
 * Neither a coat (its order gets the gift cover line, and a courier carries two coats a trip) nor
 * a gift certificate (it goes by e-mail only: no courier, no payment on receipt): what a browser
 * test buys unless it is about those.
 */
export const isPlain = (p: ProductItem): boolean => !/пальто|сертификат/i.test(p.NAME);

/** A size's label ('44', '37'), or '' for one-size goods. */
export const sizeLabel = (o: ProductOffer | undefined): string =>
  o?.IS_OFFER.SIZES_CLOTHES?.LABEL ?? o?.IS_OFFER.SIZES_SHOES?.LABEL ?? '';

export interface PickedProduct {
  item: ProductItem;
  /** Its first size with 3 or more in stock. */
  offer: ProductOffer;
  offerId: number;
  size: string;
}

const threeInStock = (o: ProductOffer) => o.AVAILABLE === 'Y' && o.QUANTITY >= 3;

/**
 * Products for the browser tests of one file, read through the public API as the storefront
 * reads them: the catalogue in listing order, page by page as far as the picks need, each page
 * once. Each product is handed out once, so the file's tests share no stock.
 */
export function productPicker(shop: { baseUrl: string }) {
  const pages: Promise<ProductItem[]>[] = [];
  let pageCount = 1;
  const taken = new Set<number>();

  function page(n: number): Promise<ProductItem[]> {
    return (pages[n - 1] ??= (async () => {
      const list = await getJson(shop.baseUrl, `/backend/catalog/all/?PAGEN_1=${n}`, CatalogSectionResponse);
      pageCount = list.NAV_STRING.PAGE_COUNT;
      const items: ProductItem[] = [];
      for (const card of list.ITEMS)
        items.push((await getJson(shop.baseUrl, `/backend${card.DETAIL_PAGE_URL}`, ProductResponse)).ITEM);
      return items;
    })());
  }

  /** The first product, in listing order, not taken yet that `where` accepts; taken from now on. */
  async function take(where: (p: ProductItem) => boolean, what = 'product in stock'): Promise<ProductItem> {
    for (let n = 1; n <= pageCount; n++) {
      const item = (await page(n)).find((p) => !taken.has(p.ID) && where(p));
      if (!item) continue;
      taken.add(item.ID);
      return item;
    }
    throw new Error(`the seed has no ${what} left for this test`);
  }

  /** A plain product (`isPlain`) with a size of 3+ in stock that `where` accepts, and that size. */
  async function fresh(where: (p: ProductItem) => boolean = () => true): Promise<PickedProduct> {
    const item = await take((p) => isPlain(p) && p.OFFERS.some(threeInStock) && where(p));
    const offer = item.OFFERS.find(threeInStock)!;
    return { item, offer, offerId: offer.ID, size: sizeLabel(offer) };
  }

  return { take, fresh };
}
