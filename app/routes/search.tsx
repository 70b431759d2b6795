import { data, Form, Link } from 'react-router';
import { useRootData } from '~/app/lib/root-data';
import type { Route } from './+types/search';
import { withoutRefusedCharacters } from '~/core/input-text';
import type { CatalogListItem, MenuSection, SearchHit } from '~/shared/contract';
import { CACHE_PUBLIC } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { ProductCard } from '~/app/ui/ProductCard';
import { goodsCount } from '~/app/components/catalog/listing-url';

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, follow' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // A control character in the address means nothing to a search (it was a 500: the API refuses it).
  const q = withoutRefusedCharacters(url.searchParams.get('q') ?? '')
    .trim()
    .slice(0, 200);
  const [meta, found] = await Promise.all([
    context.api.getPageMeta(url.pathname),
    q ? context.api.search(q, SEARCH_PAGE_LIMIT) : Promise.resolve(null),
  ]);
  return data({ meta, q, hits: found?.hits ?? [], total: found?.total ?? 0 }, { headers: CACHE_PUBLIC });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q, hits, total } = loaderData;
  const root = useRootData();
  const browse = browseLinks(root?.menu ?? []);

  return (
    <section className="search-page">
      <h1 className="page__title">{q ? `Поиск: ${q}` : 'Поиск'}</h1>
      <Form
        method="get"
        action="/search/"
        role="search"
        className="search-page__form"
        key={q}
        onSubmit={(e) => {
          // SPEC §5: search submits only non-empty text.
          const input = e.currentTarget.elements.namedItem('q') as HTMLInputElement | null;
          if (!input?.value.trim()) e.preventDefault();
        }}
      >
        <label htmlFor="search-page-q" className="visually-hidden">
          Что ищем?
        </label>
        <input
          id="search-page-q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder="Например, пальто или джинсы"
          maxLength={200}
          autoComplete="off"
          required
        />
        <button type="submit" className="button">
          Найти
        </button>
      </Form>

      {!q ? (
        <div className="search-page__empty">
          <p className="page__lead">
            Введите название, цвет или артикул — например, «пальто», «чёрный свитер» или «VT-26».
          </p>
          <BrowseLinks links={browse} title="Или загляните в разделы" />
        </div>
      ) : hits.length === 0 ? (
        <div className="search-page__empty">
          <p className="search-page__empty-title">По запросу «{q}» ничего не найдено</p>
          <p className="page__lead">
            Проверьте, нет ли опечатки, или попробуйте сказать иначе: «куртка» вместо «пуховик».
          </p>
          <BrowseLinks links={browse} title="Посмотрите разделы каталога" />
        </div>
      ) : (
        <>
          <p className="search-page__count" aria-live="polite">
            Найдено: {goodsCount(total)}
          </p>
          <h2 className="visually-hidden">Результаты поиска</h2>
          <div className="grid">
            {hits.map((hit, i) => (
              <ProductCard key={hit.id} item={toCardItem(hit)} eager={i < 4} priority={i < 2} quickAdd />
            ))}
          </div>
        </>
      )}
    </section>
  );
}

const SEARCH_PAGE_LIMIT = 48;

function BrowseLinks({ links, title }: { links: { name: string; url: string }[]; title: string }) {
  if (links.length === 0) return null;
  return (
    <nav aria-label="Разделы каталога">
      <p className="search-page__suggest-title">{title}</p>
      <ul className="search-page__suggest">
        {links.map((l) => (
          <li key={l.url}>
            <Link to={l.url}>{l.name}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A few sections to browse instead: the top level and its first categories. */
function browseLinks(menu: readonly MenuSection[]): { name: string; url: string }[] {
  const links = [{ name: 'Весь каталог', url: '/catalog/' }];
  for (const top of menu) {
    if (top.SECOND_LVL.length === 0) links.push({ name: top.NAME, url: top.SECTION_PAGE_URL });
    for (const s of top.SECOND_LVL.slice(0, 6)) links.push({ name: s.NAME, url: s.SECTION_PAGE_URL });
  }
  return links.slice(0, 12);
}

function toCardItem(hit: SearchHit): CatalogListItem {
  return {
    ID: hit.id,
    NAME: hit.name,
    DETAIL_PAGE_URL: hit.url,
    PRICE: hit.price,
    OLD_PRICE: hit.old_price,
    PREVIEW_PICTURE: hit.image,
    SECOND_PICTURE: null,
    COLOR: hit.color,
    IS_NEW: false,
  };
}
