import { Link } from 'react-router';
import type { BasketItem, CartResponse } from '~/shared/contract';
import {
  applyGiftCover,
  clearBasket,
  removeLine,
  removePreorder,
  replaceOffer,
  setPreorderQuantity,
  setQuantity,
} from '~/core/basket';
import { currentBasket, useBasketCookies, type BasketCookies } from '~/app/lib/basket-state';
import { BasketLine, GiftLine, type LineActions } from './BasketLines';

/** Saves a change of the basket's cookies and reloads the server's basket (the basket page's one writer). */
export type SaveBasket = (next: Partial<BasketCookies>) => void;

/** The server's basket in the page's three lists: lines, gift covers, pre-orders. */
export function basketParts(server: CartResponse): {
  lines: BasketItem[];
  gifts: BasketItem[];
  preorders: BasketItem[];
} {
  return {
    lines: server.items.filter((i) => i.IS_GIFT === 'N' && i.IS_PREORDER === 'N'),
    gifts: server.items.filter((i) => i.IS_GIFT === 'Y'),
    preorders: server.items.filter((i) => i.IS_GIFT === 'N' && i.IS_PREORDER === 'Y'),
  };
}

/**
 * The basket's lines (with the gift covers), its pre-orders and «Очистить корзину». Each change
 * recounts the covers from the product names the server gave and saves.
 * `onLineRemoved`, `onCleared`: said before the change is saved (the page keeps the focus).
 */
export function BasketContents({
  server,
  save,
  onLineRemoved,
  onCleared,
}: {
  server: CartResponse;
  save: SaveBasket;
  onLineRemoved: () => void;
  onCleared: () => void;
}) {
  const local = useBasketCookies();
  const actions = lineActions(server, save, onLineRemoved);
  const { lines, gifts, preorders } = basketParts(server);
  // What the shopper chose last (the cookie) may be ahead of the server's answer for a moment.
  const quantityOf = (item: BasketItem) =>
    (item.IS_PREORDER === 'Y' ? local?.preorders.get(item.ID)?.quantity : local?.cart.get(item.ID)) ?? item.QUANTITY;
  return (
    <div className="basket__lines">
      {lines.length > 0 || gifts.length > 0 ? (
        <>
          <h2 className="visually-hidden">Товары</h2>
          <ul className="basket-list" aria-label="Товары в корзине">
            {lines.map((item) => (
              <BasketLine key={item.ID} item={item} quantity={quantityOf(item)} actions={actions} />
            ))}
            {gifts.map((item) => (
              <GiftLine key={item.ID} item={item} />
            ))}
          </ul>
        </>
      ) : null}
      {preorders.length > 0 ? (
        <section className="basket__preorders" aria-labelledby="basket-preorders">
          <h2 className="basket__subtitle" id="basket-preorders">
            Предзаказ
          </h2>
          <p className="basket__note">
            Этих размеров пока нет в наличии: отправим, как только они поступят.{' '}
            <Link to="/pre-order/">Как работает предзаказ</Link>
          </p>
          <ul className="basket-list" aria-label="Предзаказ">
            {preorders.map((item) => (
              <BasketLine key={item.ID} item={item} quantity={quantityOf(item)} actions={actions} />
            ))}
          </ul>
        </section>
      ) : null}
      <button
        type="button"
        className="link-button basket__clear"
        onClick={() => {
          onCleared();
          save(clearBasket());
        }}
      >
        Очистить корзину
      </button>
    </div>
  );
}

/** A line's quantity, size and remove, as changes of the cookies' basket (SPEC §4). */
function lineActions(server: CartResponse, save: SaveBasket, onLineRemoved: () => void): LineActions {
  const names = server.items.map((i) => ({ offerId: i.ID, productName: i.PRODUCT.NAME }));
  return {
    onQuantity(item, quantity) {
      const basket = currentBasket();
      if (item.IS_PREORDER === 'Y') {
        const preorders = setPreorderQuantity(basket.preorders, item.ID, quantity);
        save({ preorders, cart: applyGiftCover(basket.cart, names, preorders) });
      } else {
        save({ cart: applyGiftCover(setQuantity(basket.cart, item.ID, quantity), names, basket.preorders) });
      }
    },
    onSize(item, offerId) {
      const basket = currentBasket();
      // Another size of the same product: a coat stays a coat, so the covers stay as they are.
      save({
        cart: applyGiftCover(
          replaceOffer(basket.cart, item.ID, offerId),
          [...names, { offerId, productName: item.PRODUCT.NAME }],
          basket.preorders,
        ),
      });
    },
    onRemove(item) {
      onLineRemoved();
      const basket = currentBasket();
      if (item.IS_PREORDER === 'Y') {
        const preorders = removePreorder(basket.preorders, item.ID);
        save({ preorders, cart: applyGiftCover(basket.cart, names, preorders) });
      } else {
        save({ cart: applyGiftCover(removeLine(basket.cart, item.ID), names, basket.preorders) });
      }
    },
  };
}
