import type { Route } from './+types/sitemap';
import { INFO_PAGES } from '~/app/lib/info-pages';

// /sitemap.xml is an index; /sitemaps/pages.xml holds sections, information pages and articles;
// /sitemaps/products-N.xml the products, 40 000 a file (the protocol allows 50 000).

const XML_HEADERS = { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' };

function escapeXml(s: string): string {
  return s.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string,
  );
}

function urlset(siteUrl: string, entries: { loc: string; lastmod?: string }[]): string {
  const body = entries
    .map(
      (e) => `<url><loc>${escapeXml(siteUrl + e.loc)}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ''}</url>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</urlset>`;
}

export async function loader({ context, params }: Route.LoaderArgs) {
  const { api, siteUrl } = context;
  const name = params.name;
  if (!name) {
    const first = await api.getSitemapProducts(1);
    const files = [
      '/sitemaps/pages.xml',
      ...Array.from({ length: first.pageCount }, (_, i) => `/sitemaps/products-${i + 1}.xml`),
    ];
    const body = files.map((f) => `<sitemap><loc>${escapeXml(siteUrl + f)}</loc></sitemap>`).join('');
    return new Response(
      `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${body}</sitemapindex>`,
      {
        headers: XML_HEADERS,
      },
    );
  }
  if (name === 'pages.xml') {
    const [menu, articles] = await Promise.all([api.getMenu(), api.getBlogList()]);
    const sections = menu.SECTIONS.flatMap((s) => [s.SECTION_PAGE_URL, ...s.SECOND_LVL.map((c) => c.SECTION_PAGE_URL)]);
    const pages = INFO_PAGES.filter((p) => !p.personal).map((p) => p.path);
    const entries = [
      { loc: '/' },
      { loc: '/catalog/' },
      ...sections.map((loc) => ({ loc })),
      ...pages.map((loc) => ({ loc })),
      { loc: '/blog/' },
      ...articles.map((a) => ({ loc: `/blog/${a.slug}/`, lastmod: a.date })),
    ];
    return new Response(urlset(siteUrl, entries), { headers: XML_HEADERS });
  }
  const m = /^products-(\d{1,4})\.xml$/.exec(name);
  if (m) {
    const page = Number(m[1]);
    const products = await api.getSitemapProducts(page);
    if (page >= 1 && page <= products.pageCount)
      return new Response(urlset(siteUrl, products.urls), { headers: XML_HEADERS });
  }
  throw new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
