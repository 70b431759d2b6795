import { useId } from 'react';
import { Link } from 'react-router';
import type { BasketItem } from '~/shared/contract';
import { lineOffer } from '~/app/lib/basket-state';
import { MAX_LINE_QUANTITY } from '~/core/basket';
import { discountPercent, formatRoubles } from '~/core/pricing';
import { Image } from '~/app/ui/Image';
import { CloseIcon } from '~/app/ui/icons';

/** How many of a line the shopper may pick: 1..99, and no more than in stock for a normal line. */
export function quantityLimit(item: BasketItem): number {
  if (item.IS_PREORDER === 'Y') return MAX_LINE_QUANTITY;
  const available = lineOffer(item)?.QUANTITY_AVAILABLE ?? item.QUANTITY;
  return Math.max(1, Math.min(MAX_LINE_QUANTITY, available));
}

export interface LineActions {
  onQuantity(item: BasketItem, quantity: number): void;
  /** Size change: the line's offer becomes another of the same product (normal lines only). */
  onSize(item: BasketItem, offerId: number): void;
  onRemove(item: BasketItem): void;
}

/**
 * One basket line: photo, name, colour, size (a select of the product's sizes for a normal line),
 * quantity (1..stock), price with the old price, remove. `quantity` is what the shopper chose
 * last (the cookie), which may be ahead of the server's answer for a moment.
 */
export function BasketLine({ item, quantity, actions }: { item: BasketItem; quantity: number; actions: LineActions }) {
  const id = useId();
  const offer = lineOffer(item);
  const name = item.PRODUCT.NAME;
  const sized = item.OFFERS.filter((o) => o.SIZE !== null);
  const limit = quantityLimit(item);
  const shown = Math.min(quantity, Math.max(limit, item.QUANTITY));
  const unitPrice = offer?.PRICE ?? (item.QUANTITY > 0 ? item.SUM / item.QUANTITY : 0);
  const oldUnit = offer?.OLD_PRICE ?? null;
  const sale = discountPercent(unitPrice, oldUnit) > 0;
  const sizeText = offer?.SIZE?.LABEL ?? null;
  const what = sizeText ? `${name}, размер ${sizeText}` : name;

  return (
    <li className="basket-line">
      <Link to={item.PRODUCT.DETAIL_PAGE_URL} className="basket-line__media" tabIndex={-1} aria-hidden="true">
        {item.PRODUCT.IMAGE_SRC ? (
          <Image src={item.PRODUCT.IMAGE_SRC} alt="" width={96} height={128} placeholder />
        ) : null}
      </Link>
      <div className="basket-line__info">
        <h3 className="basket-line__name">
          <Link to={item.PRODUCT.DETAIL_PAGE_URL}>{name}</Link>
        </h3>
        {item.PRODUCT.COLOR ? <p className="basket-line__meta">Цвет: {item.PRODUCT.COLOR}</p> : null}
        <div className="basket-line__controls">
          {item.IS_PREORDER === 'N' && sized.length > 1 ? (
            <div className="basket-line__control">
              <label htmlFor={`${id}-size`} className="basket-line__label">
                Размер
              </label>
              <select
                id={`${id}-size`}
                className="basket-select"
                aria-label={`Размер: ${name}`}
                value={item.ID}
                onChange={(e) => actions.onSize(item, Number(e.currentTarget.value))}
              >
                {sized.map((o) => {
                  const soldOut = o.ID !== item.ID && o.QUANTITY_AVAILABLE <= 0;
                  return (
                    <option key={o.ID} value={o.ID} disabled={soldOut}>
                      {o.SIZE?.LABEL}
                      {soldOut ? ' — нет в наличии' : ''}
                    </option>
                  );
                })}
              </select>
            </div>
          ) : sizeText ? (
            <p className="basket-line__control">
              <span className="basket-line__label">Размер</span>
              <span className="basket-line__value">{sizeText}</span>
            </p>
          ) : null}
          <div className="basket-line__control">
            <label htmlFor={`${id}-qty`} className="basket-line__label">
              Количество
            </label>
            <select
              id={`${id}-qty`}
              className="basket-select basket-select--qty"
              aria-label={`Количество: ${name}`}
              value={shown}
              onChange={(e) => actions.onQuantity(item, Number(e.currentTarget.value))}
            >
              {Array.from({ length: Math.max(limit, shown) }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </div>
        </div>
        {item.IS_PREORDER === 'N' && offer && offer.QUANTITY_AVAILABLE > 0 && offer.QUANTITY_AVAILABLE <= 3 ? (
          <p className="basket-line__stock">Осталось {offer.QUANTITY_AVAILABLE} шт.</p>
        ) : null}
      </div>
      <div className="basket-line__side">
        <p className="basket-line__price">
          <span className={sale ? 'is-sale' : undefined}>{formatRoubles(unitPrice * shown)}</span>
          {sale && oldUnit ? (
            <s className="basket-line__old">
              <span className="visually-hidden">Цена без скидки: </span>
              {formatRoubles(oldUnit * shown)}
            </s>
          ) : null}
          {shown > 1 ? <span className="basket-line__unit">{formatRoubles(unitPrice)} за шт.</span> : null}
        </p>
        <button
          type="button"
          className="icon-button basket-line__remove"
          aria-label={`Удалить: ${what}`}
          title="Удалить"
          onClick={() => actions.onRemove(item)}
        >
          <CloseIcon size={18} />
        </button>
      </div>
    </li>
  );
}

/** SPEC §4: the gift garment cover, one per coat; no controls, never counted. */
export function GiftLine({ item }: { item: BasketItem }) {
  return (
    <li className="basket-line basket-line--gift">
      <div className="basket-line__media">
        {item.PRODUCT.IMAGE_SRC ? (
          <Image src={item.PRODUCT.IMAGE_SRC} alt="" width={96} height={128} placeholder />
        ) : (
          <span className="basket-line__gift-art" aria-hidden="true" />
        )}
      </div>
      <div className="basket-line__info">
        <h3 className="basket-line__name">{item.PRODUCT.NAME}</h3>
        <p className="basket-line__tag">Подарок</p>
        <p className="basket-line__meta">К каждому пальто — чехол для хранения в подарок. {item.QUANTITY} шт.</p>
      </div>
      <div className="basket-line__side">
        <p className="basket-line__price">
          <span>{formatRoubles(item.SUM_WITH_DISCOUNT)}</span>
        </p>
      </div>
    </li>
  );
}
