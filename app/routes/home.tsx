import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { data, useNavigationType } from 'react-router';
import type { Route } from './+types/home';
import { useRootData, useSiteSettings } from '~/app/lib/root-data';
import { AppLink, IntentLink } from '~/app/lib/app-link';
import { CACHE_PUBLIC, orNull } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { ProductCard } from '~/app/ui/ProductCard';
import { BlogCard } from '~/app/components/content/BlogCard';
import { SectionTiles } from '~/app/components/content/SectionTiles';
import { ShopMap } from '~/app/components/content/ShopMap';
import { Image } from '~/app/ui/Image';
import { HydrateLater } from '~/app/lib/hydrate-later';
import { telHref } from '~/app/lib/shop-info';
import { ART_IMAGE_HEIGHT, ART_IMAGE_WIDTH, artImageUrl } from '~/shared/art';

export const meta: Route.MetaFunction = (args) => pageMetaTags(args);

export async function loader({ context }: Route.LoaderArgs) {
  // Critical: the page's metadata. Everything else is optional: a failed call is logged and
  // the page renders without that row.
  const [meta, fresh, sale, articles] = await Promise.all([
    context.api.getPageMeta('/'),
    orNull(context.log, 'home page: new collection row', context.api.getSectionPage('/catalog/new-collection/')),
    orNull(context.log, 'home page: sale row', context.api.getSectionPage('/catalog/promo/')),
    orNull(context.log, 'home page: blog articles', context.api.getBlogList()),
  ]);
  return data(
    {
      meta,
      fresh: fresh?.ITEMS.slice(0, ROW_SIZE) ?? [],
      sale: sale?.ITEMS.slice(0, ROW_SIZE) ?? [],
      articles: articles?.slice(0, 3) ?? [],
    },
    { headers: CACHE_PUBLIC },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const menu = root?.menu ?? [];
  const woman = menu.find((s) => s.CODE === 'woman');
  const categories = [...(woman?.SECOND_LVL ?? []), ...menu.filter((s) => !NOT_TILES.has(s.CODE))].map((s) => ({
    name: s.NAME,
    url: s.SECTION_PAGE_URL,
  }));
  const { fresh, sale, articles } = loaderData;
  const site = useSiteSettings();
  const page = useRef<HTMLDivElement>(null);
  const navigationType = useNavigationType();
  // Back (or Forward) to this page in the browser: the rows are new elements, so until drawn they
  // would hold their guessed heights (content-visibility below), and React Router restores the
  // shopper's position against those; as the rows near it were drawn, the browser's scroll
  // anchoring sometimes moved the page by the guesses' error. So they are drawn at once: this
  // layout effect runs before React Router's restore (ScrollRestoration comes later in the
  // tree), which then lands on the same layout the shopper left. Not on the first load
  // (hydration), where drawing rows late is the point.
  useLayoutEffect(() => {
    if (navigationType === 'POP' && document.documentElement.dataset.hydrated === 'true')
      page.current?.classList.add('home--restored');
  }, [navigationType]);

  return (
    <div className="home" ref={page}>
      <section className="home-hero" aria-labelledby="home-title">
        <div className="home-hero__text">
          {site.home.eyebrow ? <p className="eyebrow">{site.home.eyebrow}</p> : null}
          <h1 id="home-title" className="home-hero__title">
            {site.home.title}
          </h1>
          {site.home.lead ? <p className="home-hero__lead">{site.home.lead}</p> : null}
          <div className="home-hero__actions">
            <IntentLink to="/catalog/new-collection/" className="button">
              Смотреть коллекцию
            </IntentLink>
            <AppLink to="/new-collection/" className="button button--ghost">
              О коллекции
            </AppLink>
          </div>
        </div>
        <div className="home-hero__media">
          <Image
            className="home-hero__main"
            src={artImageUrl('warm-coat', '#6b4f3a', 0)}
            alt="Утеплённое шерстяное пальто табачного цвета из новой коллекции"
            width={ART_IMAGE_WIDTH}
            height={ART_IMAGE_HEIGHT}
            sizes="(min-width: 1024px) 36vw, 100vw"
            loading="eager"
            fetchPriority="high"
            placeholder
          />
          <Image
            className="home-hero__second"
            src={artImageUrl('coat', '#3f4449', 2)}
            alt=""
            width={ART_IMAGE_WIDTH}
            height={ART_IMAGE_HEIGHT}
            sizes="(min-width: 1024px) 24vw, 1px"
            loading="lazy"
          />
        </div>
      </section>

      {/* The rows below the hero hydrate as they near the screen (app/lib/hydrate-later.tsx). */}
      {fresh.length > 0 ? (
        <HomeRow
          id="home-new"
          className="home-section--products"
          title="Новинки"
          more={{ to: '/catalog/new-collection/', label: 'Смотреть все' }}
        >
          <div className="grid">
            {fresh.map((item) => (
              <ProductCard key={item.ID} item={item} />
            ))}
          </div>
        </HomeRow>
      ) : null}

      {categories.length > 0 ? (
        <HomeRow
          id="home-categories"
          className="home-section--tiles"
          title="Категории"
          more={{ to: '/catalog/', label: 'Весь каталог' }}
        >
          <SectionTiles sections={categories} label="Категории каталога" />
        </HomeRow>
      ) : null}

      {sale.length > 0 ? (
        <HomeRow
          id="home-sale"
          className="home-section--products home-section--noted"
          title="Sale"
          more={{ to: '/catalog/promo/', label: 'Смотреть все' }}
        >
          {site.home.sale_note ? <p className="home-section__note">{site.home.sale_note}</p> : null}
          <div className="grid">
            {sale.map((item) => (
              <ProductCard key={item.ID} item={item} />
            ))}
          </div>
        </HomeRow>
      ) : null}

      {articles.length > 0 ? (
        <HomeRow
          id="home-blog"
          className="home-section--blog"
          title="Блог"
          more={{ to: '/blog/', label: 'Все статьи' }}
        >
          <div className="blog__list">
            {articles.map((article) => (
              <BlogCard key={article.slug} article={article} headingLevel={3} />
            ))}
          </div>
        </HomeRow>
      ) : null}

      <HomeRow
        id="home-shops"
        className="home-section--shops"
        title="Магазины"
        more={{ to: '/contacts/', label: 'Контакты' }}
      >
        <div className="home-shops">
          {site.shops.map((shop) => (
            <article key={shop.city} className="home-shop">
              <div className="home-shop__text">
                <h3 className="home-shop__city">{shop.city}</h3>
                <p className="home-shop__muted">{shop.hours}</p>
                <p>
                  <a href={telHref(shop.phone)}>{shop.phone}</a>
                </p>
              </div>
              <ShopMap shop={shop} />
            </article>
          ))}
        </div>
      </HomeRow>
    </div>
  );
}

/** A row of the page in the server's HTML, by its heading's id. */
const sectionOf = (headingId: string) => () => document.querySelector(`[aria-labelledby="${headingId}"]`);

/** A row below the hero: its heading and "see all" link, hydrated as it nears the screen. */
function HomeRow({
  id,
  className,
  title,
  more,
  children,
}: {
  id: string;
  className: string;
  title: string;
  more: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <HydrateLater find={sectionOf(id)}>
      <section className={`home-section ${className}`} aria-labelledby={id}>
        <div className="home-section__head">
          <h2 id={id} className="section-title">
            {title}
          </h2>
          <AppLink to={more.to} className="text-link">
            {more.label}
          </AppLink>
        </div>
        {children}
      </section>
    </HydrateLater>
  );
}

const ROW_SIZE = 4;

/** Top-level menu sections that are not categories of their own (shown in rows instead). */
const NOT_TILES: ReadonlySet<string> = new Set(['woman', 'new-collection', 'promo']);
