import type { BasketLine } from '~/core/basket-pricing';
import { kopecksToRoubles } from '~/core/money';
import { normalizePromoCode, PROMO_ERROR_NOT_FOUND } from '~/core/promo';
import { mediaUrl } from '~/shared/image-url';
import type { BasketItem, CartResponse } from '~/shared/contract';
import { loadRequestedBasket, type BasketCatalog, type BasketRequest } from '~/models/basket.server';
import { loadSections, productUrl, type SectionIndex } from '~/models/sections.server';

export function linesToString(lines: readonly { offerId: number; quantity: number }[]): string {
  return lines.map((l) => `${l.offerId}:${l.quantity}`).join(',');
}

/**
 * SPEC §7 `get_cart.php`: the basket checked against the catalogue and priced by the server.
 * Prices come from the database only; what the request says of prices is never read.
 */
export async function getCart(request: BasketRequest): Promise<CartResponse> {
  const promoCode = normalizePromoCode(request.promoCode ?? undefined);
  const typedSomething = typeof request.promoCode === 'string' && request.promoCode.trim() !== '';
  const [{ catalog, basket, priced }, index] = await Promise.all([
    loadRequestedBasket(request),
    loadSections(request.db),
  ]);

  const promoError =
    priced.promo.status === 'invalid'
      ? priced.promo.error
      : typedSomething && !promoCode
        ? PROMO_ERROR_NOT_FOUND
        : null;
  return {
    items: priced.lines.flatMap((line) => toItem(line, catalog, index)),
    total: {
      TOTAL_PRICE_WITHOUT_DISCOUNT: kopecksToRoubles(priced.totalKopecks),
      TOTAL_PRICE_WITH_DISCOUNT: kopecksToRoubles(priced.payKopecks),
      TOTAL_DISCOUNT: kopecksToRoubles(priced.discountKopecks),
      TOTAL_QUANTITY: priced.quantity,
    },
    promocode: priced.promo.status === 'valid',
    promo_code_error: promoError,
    errors: basket.notices,
    cart: linesToString(basket.cart),
    preorders: linesToString(basket.preorders),
  };
}

function toItem(line: BasketLine, catalog: BasketCatalog, index: SectionIndex): BasketItem[] {
  const offer = catalog.offers.get(line.offerId);
  if (!offer) return [];
  const photo = catalog.photos.get(offer.productId);
  const image = photo ? mediaUrl(photo) : null;
  const yn = (v: boolean) => (v ? 'Y' : 'N') as 'Y' | 'N';
  const siblings = line.isGift ? [line.offerId] : (catalog.offersOfProduct.get(offer.productId) ?? [line.offerId]);
  return [
    {
      ID: line.offerId,
      IS_PREORDER: yn(line.isPreorder),
      IS_GIFT: yn(line.isGift),
      QUANTITY: line.quantity,
      SUM: kopecksToRoubles(line.sumKopecks),
      DISCOUNT: kopecksToRoubles(line.discountKopecks),
      SUM_WITH_DISCOUNT: kopecksToRoubles(line.sumKopecks - line.discountKopecks),
      ...(line.certificate ? { CERTIFICATE: line.certificate } : {}),
      PRODUCT: {
        ID: offer.productId,
        NAME: offer.productName,
        // The hidden gift cover has no page of its own.
        DETAIL_PAGE_URL: line.isGift ? '' : productUrl({ slug: offer.productSlug, sectionId: offer.sectionId }, index),
        COLOR: offer.colorName,
        IMAGE_SRC: image,
      },
      OFFERS: siblings.flatMap((id) => {
        const o = catalog.offers.get(id);
        if (!o) return [];
        const inBasket = id === line.offerId;
        return [
          {
            ID: o.offerId,
            PRICE: kopecksToRoubles(o.priceKopecks),
            OLD_PRICE: o.oldPriceKopecks === null ? null : kopecksToRoubles(o.oldPriceKopecks),
            QUANTITY: inBasket ? line.quantity : 0,
            QUANTITY_AVAILABLE: Math.max(0, o.available),
            IN_BASKET: yn(inBasket),
            IS_PREORDER: yn(o.available <= 0 && o.preorder),
            IS_GIFT: yn(line.isGift),
            IMAGE_SRC: image,
            SIZE: o.sizeType === 'none' ? null : { LABEL: o.sizeLabel, VALUE: o.size },
          },
        ];
      }),
    },
  ];
}
