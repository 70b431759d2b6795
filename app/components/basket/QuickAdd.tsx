import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { CatalogListItem, ProductItem } from '~/shared/contract';
import { initialOffer, offerForSize, sizeValueOf } from '~/core/size-selection';
import { useBrowserApi } from '~/app/lib/browser-api';
import { SizePicker } from '~/app/ui/SizePicker';
import { ProductSummary } from './ProductSummary';
import { BuyActions } from './BuyActions';

/**
 * The add-to-cart / size-select modal of a product card: loads the product (the same API call
 * as its page), lets the shopper pick a size and adds it without leaving the listing. Sizes out
 * of stock take the product page's branches: pre-order, or the waiting list.
 */
export function QuickAdd({ item }: { item: CatalogListItem }) {
  const api = useBrowserApi();
  const [state, setState] = useState<
    { status: 'loading' } | { status: 'error' } | { status: 'ready'; product: ProductItem }
  >({ status: 'loading' });

  useEffect(() => {
    let alive = true;
    api.getCatalogPage(item.DETAIL_PAGE_URL).then(
      (page) => {
        if (alive) setState(page && 'ITEM' in page ? { status: 'ready', product: page.ITEM } : { status: 'error' });
      },
      () => {
        if (alive) setState({ status: 'error' });
      },
    );
    return () => {
      alive = false;
    };
  }, [api, item.DETAIL_PAGE_URL]);

  const summary = {
    productId: item.ID,
    offerId: 0,
    name: item.NAME,
    url: item.DETAIL_PAGE_URL,
    image: item.PREVIEW_PICTURE,
    color: item.COLOR,
    sizeLabel: null,
    shoes: false,
    price: item.PRICE,
    oldPrice: item.OLD_PRICE,
  };

  return (
    <div className="buy-modal quick-add" aria-busy={state.status === 'loading'}>
      <ProductSummary target={summary} />
      {state.status === 'loading' ? (
        <p className="quick-add__loading" role="status">
          Загружаем размеры…
        </p>
      ) : state.status === 'error' ? (
        <p className="form-banner" role="alert">
          Не удалось загрузить размеры. <Link to={item.DETAIL_PAGE_URL}>Откройте страницу товара</Link>
        </p>
      ) : (
        <QuickAddSizes product={state.product} />
      )}
      <Link to={item.DETAIL_PAGE_URL} className="quick-add__more">
        Подробнее о товаре
      </Link>
    </div>
  );
}

function QuickAddSizes({ product }: { product: ProductItem }) {
  const oneSize = product.OFFERS.length === 1 && product.OFFERS[0]?.SIZE_ID === 'edinyj';
  const [chosen, setChosen] = useState<number | null>(
    () => (oneSize ? product.OFFERS[0]?.ID : initialOffer(product.OFFERS)?.ID) ?? null,
  );
  const [triedWithoutSize, setTriedWithoutSize] = useState(false);
  const offer = product.OFFERS.find((o) => o.ID === chosen) ?? null;
  return (
    <>
      {oneSize ? null : (
        <SizePicker
          offers={product.OFFERS}
          chosenValue={offer ? sizeValueOf(offer) : null}
          onChoose={(value) => {
            setChosen(
              (offerForSize(product.OFFERS, value) ?? product.OFFERS.find((o) => sizeValueOf(o) === value))?.ID ?? null,
            );
            setTriedWithoutSize(false);
          }}
          invalid={triedWithoutSize && !offer}
          soldOutChoosable
        />
      )}
      <BuyActions item={product} offer={offer} onNeedSize={() => setTriedWithoutSize(true)} />
    </>
  );
}
