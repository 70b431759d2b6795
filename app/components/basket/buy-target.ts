import type { PreorderProductData } from '~/core/basket-cookie';
import { sizeLabelOf } from '~/core/size-selection';
import type { ProductItem, ProductOffer } from '~/shared/contract';

/** One size of one product, as the basket modals (pre-order, fast order, waiting list) show and send it. */
export interface BuyTarget {
  productId: number;
  offerId: number;
  name: string;
  /** The product page. */
  url: string;
  image: string | null;
  color: string;
  /** '44 (S)'; null for a one-size item. */
  sizeLabel: string | null;
  shoes: boolean;
  /** Roubles. */
  price: number;
  oldPrice: number | null;
}

export function buyTarget(item: ProductItem, offer: ProductOffer): BuyTarget {
  const oneSize = offer.SIZE_ID === 'edinyj' && !offer.IS_OFFER.SIZES_CLOTHES && !offer.IS_OFFER.SIZES_SHOES;
  return {
    productId: item.ID,
    offerId: offer.ID,
    name: item.NAME,
    url: item.DETAIL_PAGE_URL,
    image: offer.IMAGE_SRC ?? item.PROPERTIES.MORE_PHOTO?.VALUE[0]?.FULL ?? null,
    color: item.COLOR,
    sizeLabel: oneSize ? null : sizeLabelOf(offer),
    shoes: Boolean(offer.IS_OFFER.SIZES_SHOES && !offer.IS_OFFER.SIZES_CLOTHES),
    price: offer.PRICE,
    oldPrice: offer.OLD_PRICE,
  };
}

/** The display copy a pre-order keeps in its cookie (SPEC §3 productData). */
export function preorderProductData(target: BuyTarget): PreorderProductData {
  return {
    NAME: target.name,
    IMAGE_SRC: target.image ?? '',
    DETAIL_PAGE_URL: target.url,
    PRICE: target.price,
    OLD_PRICE: target.oldPrice,
    SIZE: target.shoes ? '' : (target.sizeLabel ?? ''),
    SIZE_SHOES: target.shoes ? (target.sizeLabel ?? '') : '',
  };
}
