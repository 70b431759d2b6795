import { useState } from 'react';
import type { PageMeta, ProductResponse } from '~/shared/contract';
import { instalmentSchedule } from '~/core/instalments';
import { formatRub } from '~/core/money';
import { EMAIL_DELIVERY_TEXT } from '~/core/delivery';
import { initialOffer, offerForSize, sizeValueOf } from '~/core/size-selection';
import { useInfoModals } from '~/app/ui/info-modals';
import { Breadcrumbs } from '~/app/ui/Breadcrumbs';
import { BuyActions } from '~/app/components/basket/BuyActions';
import { ColorVariants } from '~/app/components/product/ColorVariants';
import { Gallery } from '~/app/components/product/Gallery';
import { ProductDetails } from '~/app/components/product/ProductDetails';
import { SizePicker } from '~/app/ui/SizePicker';
import { productPhotos, propertyText } from '~/app/components/product/product-data';
import { discountPercent, formatRoubles, roublesToKopecks } from '~/core/pricing';
import { FavouriteButton } from '~/app/ui/FavouriteButton';
import { RecentlyViewed } from '~/app/components/product/RecentlyViewed';
import { FitAdviceNote, ProductReviews, RatingLink } from '~/app/components/product/Reviews';
import type { ReviewListResponse } from '~/shared/reviews-contract';
import { HydrateLater } from '~/app/lib/hydrate-later';

/** SPEC §2 Product page: gallery, price, colours, size picker, the button, accordions. */
export function ProductPage({
  product,
  meta,
  reviews = null,
}: {
  product: ProductResponse;
  meta: PageMeta;
  reviews?: ReviewListResponse | null;
}) {
  const item = product.ITEM;
  const modals = useInfoModals();
  // A one-size item (gift card, some accessories) has nothing to choose: no picker then.
  const oneSize = item.OFFERS.length === 1 && item.OFFERS[0]?.SIZE_ID === 'edinyj';
  // An electronic gift certificate is a code sent by e-mail: no colour, size, parcel or return to speak of.
  const byEmail = item.CERTIFICATE === 'electronic';
  // Its one offer is chosen even when sold out, so the waiting list is offered for it.
  const [chosen, setChosen] = useState<number | null>(
    () => (oneSize ? item.OFFERS[0]?.ID : initialOffer(item.OFFERS)?.ID) ?? null,
  );
  const [triedWithoutSize, setTriedWithoutSize] = useState(false);
  const offer = item.OFFERS.find((o) => o.ID === chosen) ?? null;
  const photos = productPhotos(item);
  const article = propertyText(item.PROPERTIES, 'CML2_ARTICLE');

  const price = offer ? offer.PRICE : item.PRICE.DISCOUNT_PRICE;
  const oldPrice = offer ? offer.OLD_PRICE : item.PRICE.PRICE > item.PRICE.DISCOUNT_PRICE ? item.PRICE.PRICE : null;
  const discount = discountPercent(price, oldPrice);
  const priceKopecks = roublesToKopecks(price);
  // Only the amounts are shown here (no dates), so server and browser agree on them whatever the day.
  const schedule = instalmentSchedule(priceKopecks, new Date());
  const onePayment = schedule?.[schedule.length - 1]?.amountKopecks;

  return (
    <article className="product">
      <Breadcrumbs crumbs={product.BREADCRUMBS} current={item.NAME} />
      <div className="product__layout">
        <Gallery photos={photos} name={item.NAME} />

        <div className="product__info">
          {item.IS_NEW ? <p className="product__tag">Новинка</p> : null}
          <h1 className="product__name">{item.NAME}</h1>
          <FavouriteButton productId={item.ID} className="product__fav" />
          {article ? <p className="product__article">Артикул {article}</p> : null}

          <p className="product__price">
            <span className={discount > 0 ? 'product__price-now is-sale' : 'product__price-now'}>
              {formatRoubles(price)}
            </span>
            {oldPrice && discount > 0 ? (
              <>
                <s className="product__price-old">
                  <span className="visually-hidden">Цена без скидки: </span>
                  {formatRoubles(oldPrice)}
                </s>
                <span className="product__discount">−{discount}%</span>
              </>
            ) : null}
          </p>
          <RatingLink reviews={reviews} />

          {byEmail ? null : <ColorVariants variants={item.OTHER_LINK} color={item.COLOR} />}

          {oneSize || byEmail ? null : (
            <SizePicker
              offers={item.OFFERS}
              chosenValue={offer ? sizeValueOf(offer) : null}
              onChoose={(value) => {
                // A sold-out size is choosable too: it offers the waiting list.
                setChosen(
                  (offerForSize(item.OFFERS, value) ?? item.OFFERS.find((o) => sizeValueOf(o) === value))?.ID ?? null,
                );
                setTriedWithoutSize(false);
              }}
              soldOutChoosable
              invalid={triedWithoutSize && !offer}
              guide={
                <button type="button" className="link-button" onClick={modals.openSizeGuide}>
                  Таблица размеров
                </button>
              }
            />
          )}

          {oneSize || byEmail ? null : <FitAdviceNote reviews={reviews} />}

          <BuyActions item={item} offer={offer} onNeedSize={() => setTriedWithoutSize(true)} />

          {schedule && onePayment ? (
            // Pay in parts is a way to buy: the stylist chat keeps clear of it as of the buy buttons.
            <button
              type="button"
              className="instalment"
              data-keep-clear
              onClick={() => modals.openInstalment(priceKopecks)}
            >
              <span className="instalment__bars" aria-hidden="true">
                <i />
                <i />
                <i />
                <i />
              </span>
              <span>
                {schedule.length} платежа по {formatRub(onePayment)}
              </span>
              <span className="instalment__more" aria-hidden="true">
                Подробнее
              </span>
            </button>
          ) : null}

          {byEmail ? (
            <p className="product__email-note">
              <strong>{EMAIL_DELIVERY_TEXT.name}.</strong> {EMAIL_DELIVERY_TEXT.description}
            </p>
          ) : (
            <ul className="product__service">
              <li>
                <a
                  href="/delivery/"
                  onClick={(e) => {
                    e.preventDefault();
                    modals.openDelivery();
                  }}
                >
                  Доставка
                </a>
              </li>
              <li>
                <a
                  href="/return/"
                  onClick={(e) => {
                    e.preventDefault();
                    modals.openReturn();
                  }}
                >
                  Возврат
                </a>
              </li>
            </ul>
          )}

          {/* Below a phone's first screen, and native <details>: hydrated as it nears the screen. */}
          <HydrateLater find={findDetails}>
            <ProductDetails item={item} article={article} />
          </HydrateLater>
        </div>
      </div>

      {item.CERTIFICATE ? null : (
        <HydrateLater find={findReviews}>
          <ProductReviews productId={item.ID} initial={reviews} />
        </HydrateLater>
      )}

      <RecentlyViewed productId={item.ID} />

      {meta.seoDescription ? (
        <HydrateLater find={findSeoText}>
          <div className="seo-text product__seo">
            {meta.seoDescription.split(/\n\s*\n/).map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </div>
        </HydrateLater>
      ) : null}
    </article>
  );
}

// The parts below the first screen, in the server's HTML (app/lib/hydrate-later.tsx).
const findDetails = () => document.querySelector('.product .details');
const findReviews = () => document.getElementById('reviews');
const findSeoText = () => document.querySelector('.product__seo');
