import { AppLink } from '~/app/lib/app-link';
import type { Breadcrumb } from '~/shared/contract';

/** The trail above a listing or a product: Главная first; the page itself is not a link. */
export function Breadcrumbs({ crumbs, current }: { crumbs: readonly Breadcrumb[]; current?: string }) {
  const trail = [{ NAME: 'Главная', URL: '/' }, ...crumbs];
  return (
    <nav className="breadcrumbs" aria-label="Хлебные крошки">
      <ol>
        {trail.map((b) => (
          <li key={b.URL}>
            <AppLink to={b.URL}>{b.NAME}</AppLink>
          </li>
        ))}
        {current ? (
          <li>
            <span aria-current="page">{current}</span>
          </li>
        ) : null}
      </ol>
    </nav>
  );
}
