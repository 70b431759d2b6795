import { AppLink, IntentLink } from '~/app/lib/app-link';
import { keptMarkup } from '~/app/lib/kept-part';
import type { CatalogListItem } from '~/shared/contract';
import { discountPercent, formatRoubles } from '~/core/pricing';
import { ratingText, reviewsCountText } from '~/core/rating-text';
import { Image } from './Image';
import { BagIcon, StarIcon } from './icons';
import { FavouriteButton } from './FavouriteButton';
import { useShopActions } from './shop-actions';

// The grid's column width (app.css .grid in .main): 2 columns on phones (16 px padding, 8 px
// gap), 3 from 700 px (16 px gap), 4 from 1024 px (40 px padding) up to the 1440 px container.
const CARD_SIZES =
  '(min-width: 1440px) 328px, (min-width: 1024px) calc((100vw - 128px) / 4), (min-width: 700px) calc((100vw - 64px) / 3), calc((100vw - 40px) / 2)';
// A card is at most ~355 CSS px wide (catalogue with filters): 1024 covers 3x phones and 2x desktops.
const CARD_WIDTHS = [320, 640, 768, 1024];

export interface ProductCardProps {
  item: CatalogListItem;
  eager?: boolean;
  priority?: boolean;
  sizes?: string;
  quickAdd?: boolean;
}

/**
 * `sizes`: the card's width where the grid differs from `.grid`'s default (CARD_SIZES).
 * `eager`: the photo loads with the page (cards in the first screen); `priority`: it is also
 * fetched ahead of other images (the first row on a phone, where the largest paint is).
 * `quickAdd`: a 'В корзину' button on the photo opens the size-select modal (listings, search).
 *
 * On the server a card whose photos load lazily is written from kept markup: its HTML depends on
 * its props alone (the buttons render as for a guest). An eager card is rendered each time: React
 * turns its photo into a preload in the document's head, which kept markup would lose.
 */
export function ProductCard(props: ProductCardProps) {
  const html =
    props.eager || props.priority
      ? null
      : keptMarkup?.(`card\n${JSON.stringify(props)}`, () => <CardContent {...props} />);
  if (html != null) return <article className="card" dangerouslySetInnerHTML={{ __html: html }} />;
  return <RenderedProductCard {...props} />;
}

/** The card rendered by React, as the browser always does. */
export function RenderedProductCard(props: ProductCardProps) {
  const { preloadProductPage } = useShopActions();
  return (
    // Pointing at a card (a touch is a pointer too) or focusing its link starts the product page's
    // code (pages/catalog-parts.ts).
    <article className="card" onPointerEnter={preloadProductPage} onFocus={preloadProductPage}>
      <CardContent {...props} />
    </article>
  );
}

function CardContent({
  item,
  eager = false,
  priority = false,
  sizes = CARD_SIZES,
  quickAdd = false,
}: ProductCardProps) {
  const discount = discountPercent(item.PRICE, item.OLD_PRICE);
  const media = (
    <>
      {item.PREVIEW_PICTURE ? (
        <Image
          src={item.PREVIEW_PICTURE}
          alt=""
          width={600}
          height={800}
          sizes={sizes}
          widths={CARD_WIDTHS}
          loading={eager || priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : undefined}
          placeholder
        />
      ) : null}
      {item.SECOND_PICTURE ? (
        <Image
          className="card__second"
          src={item.SECOND_PICTURE}
          alt=""
          width={600}
          height={800}
          sizes={sizes}
          widths={CARD_WIDTHS}
          loading="lazy"
        />
      ) : null}
      {item.IS_NEW ? <span className="card__tag">New</span> : null}
      {discount > 0 ? <span className="card__tag card__tag--sale">−{discount}%</span> : null}
    </>
  );
  return (
    <>
      <div className="card__visual">
        {/* The photo repeats the name link below for the mouse; assistive tech and the keyboard use that one. */}
        <IntentLink to={item.DETAIL_PAGE_URL} className="card__media" aria-hidden="true" tabIndex={-1}>
          {media}
        </IntentLink>
        {quickAdd ? <QuickAddButton item={item} /> : null}
        <FavouriteButton productId={item.ID} className="card__fav" size={20} />
      </div>
      <div className="card__body">
        <h3 className="card__name">
          <AppLink to={item.DETAIL_PAGE_URL}>{item.NAME}</AppLink>
        </h3>
        <p className="card__color">{item.COLOR}</p>
        {item.RATING ? (
          <p
            className="card__rating"
            aria-label={`Оценка ${ratingText(item.RATING.VALUE)} из 5, ${reviewsCountText(item.RATING.COUNT)}`}
          >
            <span aria-hidden="true">
              <StarIcon size={13} /> {ratingText(item.RATING.VALUE)}
            </span>{' '}
            <span aria-hidden="true">({item.RATING.COUNT})</span>
          </p>
        ) : null}
        <p className="card__price">
          <span>{formatRoubles(item.PRICE)}</span>
          {item.OLD_PRICE ? <s className="card__old">{formatRoubles(item.OLD_PRICE)}</s> : null}
        </p>
      </div>
    </>
  );
}

function QuickAddButton({ item }: { item: CatalogListItem }) {
  const { quickAdd } = useShopActions();
  return (
    <button
      type="button"
      className="card__quick"
      aria-label={`Добавить в корзину: ${item.NAME}`}
      title="В корзину"
      aria-haspopup="dialog"
      onClick={() => void quickAdd(item)}
    >
      <BagIcon size={20} />
    </button>
  );
}
