import { useEffect, useId, useState } from 'react';
import type { CatalogListItem } from '~/shared/contract';
import { otherViews } from '~/core/wishlist';
import { useBrowserApi } from '~/app/lib/browser-api';
import { recordView } from '~/app/lib/favourites';
import { ProductCard } from '~/app/ui/ProductCard';

// A row card is at most ~220 px wide (a scrolling row on phones, six across on desktops).
const ROW_CARD_SIZES = '(min-width: 1024px) 210px, 44vw';

/**
 * SPEC §4 Views on the product page: records the view, then shows 'Вы смотрели', the other
 * products viewed lately. Both happen in the browser after the page is up, from the views
 * cookie and the public API, so the page itself stays one cacheable page for every guest.
 */
export function RecentlyViewed({ productId }: { productId: number }) {
  const api = useBrowserApi();
  const headingId = useId();
  const [items, setItems] = useState<CatalogListItem[]>([]);

  useEffect(() => {
    let alive = true;
    void (async () => {
      const others = otherViews(await recordView(productId), productId);
      if (!others.length) return;
      const answer = await api.wishlist({ mode: 'watched', ids: others });
      if (alive) setItems(answer.ITEMS.filter((item) => item.ID !== productId));
    })().catch((err: unknown) => console.warn('viewed products not loaded', err));
    return () => {
      alive = false;
    };
  }, [api, productId]);

  if (!items.length) return null;
  return (
    <section className="viewed" aria-labelledby={headingId}>
      <h2 className="viewed__title" id={headingId}>
        Вы смотрели
      </h2>
      <ul className="viewed__row">
        {items.map((item) => (
          <li key={item.ID} className="viewed__item">
            <ProductCard item={item} sizes={ROW_CARD_SIZES} />
          </li>
        ))}
      </ul>
    </section>
  );
}
