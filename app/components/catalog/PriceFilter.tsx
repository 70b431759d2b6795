import { useId, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { buildCatalogPath, DEFAULT_SORT, parseCatalogPath, withPrice, type SortCode } from '~/core/catalog-filter';
import { commitMasked, formatThousands } from '~/core/number-mask';
import { NumberMaskInput } from './NumberMaskInput';
import { listingSearch } from './listing-url';

export interface PriceValues {
  MIN: number;
  MAX: number;
  FROM: number | null;
  TO: number | null;
}

/**
 * The price range of a listing: two number-mask inputs and «Применить». With JavaScript it
 * moves to the price filter URL on the client; without, the form's GET is answered by the
 * route with a redirect to the same URL.
 */
export function PriceFilter({
  values,
  sort,
  replace = false,
}: {
  values: PriceValues;
  sort: SortCode;
  replace?: boolean;
}) {
  const id = useId();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const range = { min: values.MIN, max: values.MAX };
  const [from, setFrom] = useState(values.FROM === null ? '' : formatThousands(values.FROM));
  const [to, setTo] = useState(values.TO === null ? '' : formatThousands(values.TO));
  const parsed = parseCatalogPath(pathname);
  const applied = values.FROM !== null || values.TO !== null;

  function target(): string | null {
    if (parsed.kind !== 'listing') return null;
    let lo = commitMasked(from, range);
    let hi = commitMasked(to, range);
    if (lo !== null && hi !== null && lo > hi) [lo, hi] = [hi, lo];
    // The whole range is no filter at all.
    if (lo !== null && lo <= values.MIN) lo = null;
    if (hi !== null && hi >= values.MAX) hi = null;
    return buildCatalogPath(parsed.sectionPath, withPrice(parsed.filter, lo, hi)) + listingSearch(sort);
  }

  const resetTo =
    parsed.kind === 'listing'
      ? buildCatalogPath(parsed.sectionPath, withPrice(parsed.filter, null, null)) + listingSearch(sort)
      : null;

  return (
    <form
      className="price-filter"
      method="get"
      action={pathname}
      onSubmit={(e) => {
        e.preventDefault();
        const href = target();
        if (href && href !== pathname + listingSearch(sort)) void navigate(href, { preventScrollReset: true, replace });
      }}
    >
      {sort !== DEFAULT_SORT ? <input type="hidden" name="sort" value={sort} /> : null}
      <div className="price-filter__fields">
        <label className="price-filter__field" htmlFor={`${id}-from`}>
          <span className="price-filter__prefix">от</span>
          <NumberMaskInput
            id={`${id}-from`}
            name="price_from"
            aria-label="Цена от, ₽"
            placeholder={formatThousands(values.MIN)}
            value={from}
            onChange={setFrom}
            range={range}
          />
        </label>
        <span className="price-filter__dash" aria-hidden="true">
          —
        </span>
        <label className="price-filter__field" htmlFor={`${id}-to`}>
          <span className="price-filter__prefix">до</span>
          <NumberMaskInput
            id={`${id}-to`}
            name="price_to"
            aria-label="Цена до, ₽"
            placeholder={formatThousands(values.MAX)}
            value={to}
            onChange={setTo}
            range={range}
          />
        </label>
      </div>
      <div className="price-filter__actions">
        <button type="submit" className="button button--ghost button--small">
          Применить
        </button>
        {applied && resetTo ? (
          <Link to={resetTo} className="price-filter__reset" preventScrollReset replace={replace}>
            Сбросить цену
          </Link>
        ) : null}
      </div>
    </form>
  );
}
