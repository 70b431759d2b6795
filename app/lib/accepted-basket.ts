import type { CartResponse } from '~/shared/contract';
import { COOKIE } from '~/shared/cookies';
import { applyGiftCover, parseCartCookie, serializeCart, serializePreorders, type PreorderLine } from '~/core/basket';
import { basketCookie, currentBasket, preorderDataOf, writeBasket, type BasketCookies } from './basket-state';

// The basket the server accepted (get_cart.php's answer: unknown offers dropped, quantities cut to
// stock, at login the customer's saved basket joined) made this browser's: as Set-Cookie values
// from an action, or written by the basket page. Apart from basket-state.ts, whose code every
// page loads: only the basket page's own chunk carries this.

/** The answer's pre-orders, each with the product data the cookie keeps for it (this browser's, else the answer's). */
function acceptedPreorders(answer: CartResponse, before: Pick<BasketCookies, 'preorders'>): Map<number, PreorderLine> {
  const preorders = new Map<number, PreorderLine>();
  for (const [id, quantity] of parseCartCookie(answer.preorders)) {
    const item = answer.items.find((i) => i.ID === id && i.IS_PREORDER === 'Y');
    const productData = before.preorders.get(id)?.productData ?? (item ? preorderDataOf(item) : null);
    if (productData) preorders.set(id, { quantity, isPreorder: true, productData });
  }
  return preorders;
}

/**
 * The Set-Cookie values that make a browser's basket the server's answer (at login, the merged
 * customer basket): cart and pre-orders as accepted, and the saved revision. Gift covers are
 * recounted by the basket page.
 */
export function acceptedBasketCookies(answer: CartResponse, before: BasketCookies): string[] {
  const preorders = acceptedPreorders(answer, before);
  const cookies = [
    basketCookie(COOKIE.cart, answer.cart),
    basketCookie(COOKIE.preorders, preorders.size === 0 ? '' : serializePreorders(preorders)),
  ];
  if (answer.cart_rev !== undefined) cookies.push(basketCookie(COOKIE.cartRev, String(answer.cart_rev)));
  return cookies;
}

/** The basket page: the server's accepted basket into the cookies, the gift covers recounted; nothing written when they say so already. */
export function keepAcceptedBasket(server: CartResponse): void {
  const current = currentBasket();
  const preorders = acceptedPreorders(server, current);
  const names = server.items.map((i) => ({ offerId: i.ID, productName: i.PRODUCT.NAME }));
  const cart = applyGiftCover(parseCartCookie(server.cart), names, preorders);
  if (
    serializeCart(cart) !== serializeCart(current.cart) ||
    serializePreorders(preorders) !== serializePreorders(current.preorders)
  ) {
    writeBasket({ cart, preorders });
  }
}
