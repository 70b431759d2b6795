import { data, Link } from 'react-router';
import type { Route } from './+types/info-page';
import { findInfoPage } from '~/app/lib/info-pages';
import { CACHE_PRIVATE, CACHE_PUBLIC, notFound } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { Prose } from '~/app/components/content/Prose';
import { HelpNav, isHelpPath } from '~/app/components/content/HelpNav';
import { ContactsBody } from '~/app/components/content/ContactsBody';
import { Image } from '~/app/ui/Image';
import { ART_IMAGE_HEIGHT, ART_IMAGE_WIDTH, artImageUrl } from '~/shared/art';
import type { GarmentKind } from '~/shared/art';

export const meta: Route.MetaFunction = (args) => pageMetaTags(args);

export async function loader({ context, request }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  const page = findInfoPage(pathname);
  if (!page) return notFound(context, request);
  // The basket flow pages have no text of their own; the others read their text from the
  // database (staff edit it; content/pages/{slug}.md is its seed).
  const slug = page.path.slice(1, -1);
  const [meta, content] = await Promise.all([
    context.api.getPageMeta(pathname),
    page.personal || !/^[a-z0-9-]+$/.test(slug) ? null : context.api.getContentPage(slug),
  ]);
  // A page with a text that staff unpublished (or removed) is not there for guests.
  if (!page.personal && !content) return notFound(context, request);
  return data(
    { meta, heading: page.heading, path: page.path, content },
    { headers: page.personal ? CACHE_PRIVATE : CACHE_PUBLIC },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function InfoPage({ loaderData }: Route.ComponentProps) {
  const { content, path } = loaderData;
  const title = content?.title ?? loaderData.heading;
  const cta = CALLS_TO_ACTION[path];

  if (path === '/contacts/') {
    return (
      <article className="info info--wide">
        <header className="info__head">
          <h1 className="page__title">{title}</h1>
          {content?.lead ? <p className="info__lead">{content.lead}</p> : null}
        </header>
        <ContactsBody html={content?.html ?? null} />
      </article>
    );
  }

  const withNav = isHelpPath(path);
  const visual = PAGE_ART[path];
  return (
    <div className={withNav ? 'info info--with-nav' : visual ? 'info info--with-visual' : 'info'}>
      <article className="info__article">
        <header className="info__head">
          <h1 className="page__title">{title}</h1>
          {content?.lead ? <p className="info__lead">{content.lead}</p> : null}
          {cta ? (
            <Link to={cta.to} className="button info__cta">
              {cta.label}
            </Link>
          ) : null}
        </header>
        {content ? <Prose html={content.html} /> : null}
      </article>
      {withNav ? <HelpNav current={path} /> : null}
      {visual ? (
        <div className="info__visual">
          <Image
            src={artImageUrl(visual.kind, visual.color, visual.view)}
            alt=""
            width={ART_IMAGE_WIDTH}
            height={ART_IMAGE_HEIGHT}
            sizes="(min-width: 1024px) 400px, 1px"
            loading="lazy"
            placeholder
          />
        </div>
      ) : null}
    </div>
  );
}

/** Brand pages carry a picture beside the text on desktops. */
const PAGE_ART: Record<string, { kind: GarmentKind; color: string; view: number }> = {
  '/about/': { kind: 'coat', color: '#b59a78', view: 2 },
  '/new-collection/': { kind: 'warm-coat', color: '#6b4f3a', view: 2 },
  '/promo/': { kind: 'scarf', color: '#a1281e', view: 0 },
};

/** Brand pages that lead straight into the catalogue. */
const CALLS_TO_ACTION: Record<string, { label: string; to: string }> = {
  '/new-collection/': { label: 'Смотреть коллекцию', to: '/catalog/new-collection/' },
  '/promo/': { label: 'Смотреть товары со скидкой', to: '/catalog/promo/' },
};
