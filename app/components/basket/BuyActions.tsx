import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { ProductItem, ProductOffer } from '~/shared/contract';
import { BASKET_NOTICE } from '~/core/basket-cookie';
import { ADD_TO_BASKET, availabilityOf, PLACE_PREORDER } from '~/core/size-selection';
import { addToCart, useBasketCookies } from '~/app/lib/basket-state';
import { trackAddToCart } from '~/app/lib/analytics';
import { useNotify } from '~/app/ui/Notifications';
import { FAST_ORDER_TITLE, useBasketModals, WAITING_LIST_TITLE } from './basket-modals';
import { buyTarget } from './buy-target';

export const GO_TO_BASKET = 'Перейти в корзину';

/**
 * The product's buttons for the chosen size (SPEC §2): 'Добавить в корзину' (inactive until a
 * size is chosen), 'Оформить предзаказ' for a size out of stock that can be ordered ahead,
 * 'Сообщить о поступлении' for one that cannot; once the size is in the basket, 'Перейти в
 * корзину' leading to /basket/. Below it, 'Купить в один клик', except for gift certificates:
 * they are paid online only (an electronic one also needs the e-mail it goes to), which the
 * one-click order (a phone and a call back) cannot do. Shared by the product page and the
 * quick-add modal of the listings.
 */
export function BuyActions({
  item,
  offer,
  onNeedSize,
}: {
  item: ProductItem;
  offer: ProductOffer | null;
  onNeedSize: () => void;
}) {
  const basket = useBasketCookies();
  const notify = useNotify();
  const modals = useBasketModals();
  const availability = offer ? availabilityOf(offer) : null;
  const inBasket =
    offer !== null &&
    basket !== null &&
    (availability === 'preorder' ? basket.preorders.has(offer.ID) : basket.cart.has(offer.ID));
  // After an add, the link that replaced the pressed button takes the focus.
  const focusLink = useRef(false);
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (focusLink.current && inBasket) {
      focusLink.current = false;
      link.current?.focus();
    }
  }, [inBasket]);

  let main: React.ReactNode;
  if (!offer) {
    main = (
      <button type="button" className="button product__buy-button" aria-disabled="true" onClick={onNeedSize}>
        {ADD_TO_BASKET}
      </button>
    );
  } else if (inBasket) {
    main = (
      <Link to="/basket/" className="button product__buy-button" ref={link}>
        {GO_TO_BASKET}
      </Link>
    );
  } else if (availability === 'in-stock') {
    main = (
      <button
        type="button"
        className="button product__buy-button"
        onClick={() => {
          focusLink.current = true;
          addToCart(offer.ID, item.NAME);
          trackAddToCart({
            id: String(offer.ID),
            name: item.NAME,
            price: offer.PRICE,
            quantity: 1,
            variant: buyTarget(item, offer).sizeLabel ?? undefined,
          });
          notify({ text: BASKET_NOTICE.added });
        }}
      >
        {ADD_TO_BASKET}
      </button>
    );
  } else if (availability === 'preorder') {
    main = (
      <button
        type="button"
        className="button product__buy-button"
        aria-haspopup="dialog"
        onClick={() => void modals.openPreorder(buyTarget(item, offer))}
      >
        {PLACE_PREORDER}
      </button>
    );
  } else {
    main = (
      <button
        type="button"
        className="button product__buy-button"
        aria-haspopup="dialog"
        onClick={() => void modals.openWaitingList(buyTarget(item, offer))}
      >
        {WAITING_LIST_TITLE}
      </button>
    );
  }

  return (
    <div className="product__buy" data-keep-clear>
      {main}
      {availability === 'unavailable' || item.CERTIFICATE ? null : (
        <button
          type="button"
          className="button button--ghost product__fast-button"
          aria-haspopup="dialog"
          aria-disabled={offer ? undefined : 'true'}
          onClick={() => (offer ? void modals.openFastOrder(buyTarget(item, offer)) : onNeedSize())}
        >
          {FAST_ORDER_TITLE}
        </button>
      )}
      {offer && availability === 'preorder' && !inBasket ? (
        <p className="product__note">
          Этого размера нет в наличии — его можно заказать заранее. Отправим, как только он поступит.
        </p>
      ) : null}
      {offer && availability === 'unavailable' ? (
        <p className="product__note">Этого размера нет в наличии. Оставьте телефон — сообщим, когда он появится.</p>
      ) : null}
    </div>
  );
}
