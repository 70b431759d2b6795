import { useId } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { SortOption } from '~/shared/contract';
import { DEFAULT_SORT, parseSort, type SortCode } from '~/core/catalog-filter';
import { listingHref } from './listing-url';

/** The listing's order (SPEC §7 `sort`): a native select; without JavaScript, a GET form. */
export function SortSelect({ sorts, sort }: { sorts: readonly SortOption[]; sort: SortCode }) {
  const id = useId();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  return (
    <form className="sort" method="get" action={pathname} onSubmit={(e) => e.preventDefault()}>
      <label htmlFor={id} className="sort__label">
        Сортировка
      </label>
      <select
        id={id}
        name="sort"
        className="sort__select"
        value={sort}
        onChange={(e) => {
          const next = parseSort(e.currentTarget.value);
          // A new order starts from the first page.
          void navigate(listingHref(pathname, next), { preventScrollReset: true });
        }}
      >
        {sorts.map((s) => (
          <option key={s.CODE} value={s.CODE}>
            {s.NAME}
          </option>
        ))}
        {sorts.length === 0 ? <option value={DEFAULT_SORT}>По популярности</option> : null}
      </select>
      <noscript>
        <button type="submit" className="button button--ghost button--small">
          Показать
        </button>
      </noscript>
    </form>
  );
}
