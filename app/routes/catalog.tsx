import { data, Link } from 'react-router';
import type { Route } from './+types/catalog';
import { CACHE_PUBLIC, notFound } from '../lib/route-data.server';
import { pageMetaTags } from '../lib/seo';
import { ProductCard } from '../components/ProductCard';

export const meta: Route.MetaFunction = (args) => pageMetaTags(args);

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // SPEC §2: /catalog/ is shown internally as /catalog/all/.
  const path = url.pathname === '/catalog/' ? '/catalog/all/' : url.pathname;
  const [page, meta] = await Promise.all([
    context.api.getSectionPage(path, { PAGEN_1: url.searchParams.get('PAGEN_1') }),
    context.api.getPageMeta(url.pathname === '/catalog/all/' ? '/catalog/' : url.pathname),
  ]);
  if (!page) return notFound(context, request);
  return data({ meta, page }, { headers: CACHE_PUBLIC });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Catalog({ loaderData }: Route.ComponentProps) {
  const { page, meta } = loaderData;
  return (
    <section className="catalog">
      <nav className="breadcrumbs" aria-label="Хлебные крошки">
        <ol>
          <li>
            <Link to="/">Главная</Link>
          </li>
          {page.BREADCRUMBS.map((b) => (
            <li key={b.URL}>
              <Link to={b.URL}>{b.NAME}</Link>
            </li>
          ))}
        </ol>
      </nav>
      <header className="catalog__head">
        <h1 className="page__title">{page.SECTION.NAME}</h1>
        <p className="catalog__count">{page.NAV_STRING.ITEMS_COUNT} товаров</p>
      </header>
      <div className="grid">
        {page.ITEMS.map((item, i) => (
          <ProductCard key={item.ID} item={item} eager={i < 4} />
        ))}
      </div>
      {meta.seoBottom ? (
        <div className="seo-text">
          {meta.seoBottom.split(/\n\s*\n/).map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </div>
      ) : null}
    </section>
  );
}
