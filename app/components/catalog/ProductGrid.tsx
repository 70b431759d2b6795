import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { CatalogListItem, NavString } from '~/shared/contract';
import { DEFAULT_SORT, type SortCode } from '~/core/catalog-filter';
import { useBrowserApi } from '~/app/lib/browser-api';
import { ProductCard } from '~/app/ui/ProductCard';
import { HydrateLater } from '~/app/lib/hydrate-later';
import { goodsCount, listingHref } from './listing-url';

/**
 * The listing's cards and «Показать ещё» (SPEC §4: load more appends the next page). The
 * button is a link to `?PAGEN_1=n+1`, which the route answers with every page up to n+1, so it
 * works without JavaScript and after a reload. With JavaScript the next page comes from the
 * API, is appended, and the address moves on to it without the route loading again.
 */
export function ProductGrid({
  items,
  nav,
  sort,
  apiPath,
  firstPage,
}: {
  items: readonly CatalogListItem[];
  nav: NavString;
  sort: SortCode;
  apiPath: string;
  firstPage: number;
}) {
  const api = useBrowserApi();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [more, setMore] = useState<{ page: number; items: CatalogListItem[] }>({ page: 0, items: [] });
  const [status, setStatus] = useState<'idle' | 'loading' | 'error'>('idle');
  const grid = useRef<HTMLDivElement>(null);
  const focusFrom = useRef<number | null>(null);
  const alive = useRef(true);

  const shown = useMemo(() => {
    const seen = new Set<number>();
    return [...items, ...more.items].filter((item) => {
      if (seen.has(item.ID)) return false;
      seen.add(item.ID);
      return true;
    });
  }, [items, more.items]);
  const page = Math.max(nav.CURRENT_PAGE, more.page);
  const hasMore = page < nav.PAGE_COUNT;
  const nextHref = listingHref(pathname, sort, page + 1);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  // After an append, the first new card takes the focus (keyboard and screen-reader users
  // carry on reading where the new items begin); the page does not jump.
  useEffect(() => {
    const from = focusFrom.current;
    if (from === null) return;
    focusFrom.current = null;
    grid.current?.children[from]?.querySelector<HTMLAnchorElement>('a')?.focus({ preventScroll: true });
  }, [more.page]);

  async function loadMore(e: React.MouseEvent<HTMLAnchorElement>) {
    // A new tab or window is the link's own business.
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    if (status === 'loading') return;
    const next = page + 1;
    setStatus('loading');
    try {
      const res = await api.getCatalogPage(apiPath, { sort: sort === DEFAULT_SORT ? undefined : sort, PAGEN_1: next });
      if (!alive.current) return;
      if (!res || !('ITEMS' in res)) throw new Error('not a listing');
      focusFrom.current = shown.length;
      setMore((prev) => ({ page: next, items: [...prev.items, ...res.ITEMS] }));
      setStatus('idle');
      // The address says how far the shopper got, so a reload or a shared link shows the same.
      void navigate(listingHref(pathname, sort, next), { replace: true, preventScrollReset: true });
    } catch {
      if (alive.current) setStatus('error');
    }
  }

  const progress = nav.ITEMS_COUNT > 0 ? Math.min(100, Math.round((shown.length / nav.ITEMS_COUNT) * 100)) : 100;

  return (
    <>
      {firstPage > 1 ? (
        <p className="listing__restart">
          <a href={listingHref(pathname, sort)}>Показать с начала</a>
        </p>
      ) : null}
      {/* Cards title themselves with h3: this keeps the page's headings in order. */}
      <h2 className="visually-hidden">Товары</h2>
      <div className="grid listing__grid" ref={grid}>
        {shown.slice(0, FIRST_CARDS).map((item, i) => (
          <ProductCard key={item.ID} item={item} eager={i < 4} priority={i < 2} quickAdd />
        ))}
        {/* Later cards hydrate a few at a time as they near the screen (app/lib/hydrate-later.tsx). */}
        {laterGroups(shown).map((group, g) => (
          <HydrateLater key={g} find={() => grid.current?.children[FIRST_CARDS + g * LATER_GROUP] ?? null}>
            {group.map((item) => (
              <ProductCard key={item.ID} item={item} quickAdd />
            ))}
          </HydrateLater>
        ))}
      </div>
      <div className="listing__more">
        <p className="listing__shown" aria-live="polite">
          Показано {shown.length} из {goodsCount(nav.ITEMS_COUNT)}
        </p>
        <div className="listing__progress" aria-hidden="true">
          <span style={{ width: `${progress}%` }} />
        </div>
        {hasMore ? (
          <a
            href={nextHref}
            className="button button--ghost listing__more-button"
            onClick={loadMore}
            aria-busy={status === 'loading'}
            rel="next"
          >
            Показать ещё
          </a>
        ) : null}
        {status === 'error' ? (
          <p className="listing__error" role="alert">
            Не удалось загрузить товары. Попробуйте ещё раз.
          </p>
        ) : null}
      </div>
    </>
  );
}

/** Cards hydrated with the page: the first screen's on any width (four columns on desktops). */
const FIRST_CARDS = 8;
/** Later cards hydrate in groups of this many, each when it nears the screen. */
const LATER_GROUP = 4;

function laterGroups<T>(items: readonly T[]): T[][] {
  const groups: T[][] = [];
  for (let i = FIRST_CARDS; i < items.length; i += LATER_GROUP) groups.push(items.slice(i, i + LATER_GROUP));
  return groups;
}
