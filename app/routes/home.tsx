import { data, Link, useRouteLoaderData } from 'react-router';
import type { Route } from './+types/home';
import type { loader as rootLoader } from '../root';
import { CACHE_PUBLIC } from '../lib/route-data.server';
import { pageMetaTags } from '../lib/seo';
import { ProductCard } from '../components/ProductCard';

export const meta: Route.MetaFunction = (args) => pageMetaTags(args);

export async function loader({ context }: Route.LoaderArgs) {
  const [meta, fresh] = await Promise.all([
    context.api.getPageMeta('/'),
    context.api.getSectionPage('/catalog/new-collection/').catch(() => null),
  ]);
  return data({ meta, fresh: fresh?.ITEMS.slice(0, 8) ?? [] }, { headers: CACHE_PUBLIC });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData<typeof rootLoader>('root');
  const woman = root?.menu.find((s) => s.CODE === 'woman');
  const hero = loaderData.fresh[0];
  return (
    <>
      <section className="hero">
        <div className="hero__text">
          <p className="eyebrow">Осень — зима 2026</p>
          <h1 className="hero__title">Новая коллекция Vitrina</h1>
          <p className="hero__lead">Пальто из шерсти и кашемира, деним и трикотаж собственного производства. Доставка по России, СНГ и миру.</p>
          <div className="hero__actions">
            <Link to="/catalog/new-collection/" className="button">
              Смотреть коллекцию
            </Link>
            <Link to="/catalog/" className="button button--ghost">
              Весь каталог
            </Link>
          </div>
        </div>
        {hero?.PREVIEW_PICTURE ? (
          <div className="hero__media">
            <img src={hero.PREVIEW_PICTURE} alt={hero.NAME} width={600} height={800} fetchPriority="high" />
          </div>
        ) : null}
      </section>
      {loaderData.fresh.length > 0 ? (
        <section className="home-row">
          <div className="home-row__head">
            <h2 className="section-title">Новинки</h2>
            <Link to="/catalog/new-collection/" className="text-link">
              Смотреть все
            </Link>
          </div>
          <div className="grid">
            {loaderData.fresh.map((item) => (
              <ProductCard key={item.ID} item={item} />
            ))}
          </div>
        </section>
      ) : null}
      {woman ? (
        <section className="home-row">
          <h2 className="section-title">Категории</h2>
          <ul className="tiles">
            {woman.SECOND_LVL.map((s) => (
              <li key={s.CODE}>
                <Link to={s.SECTION_PAGE_URL} className="tile">
                  {s.NAME}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
