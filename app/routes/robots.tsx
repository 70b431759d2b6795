import type { Route } from './+types/robots';

// Personal and transactional pages stay out of search engines; everything else is open.
export async function loader({ context }: Route.LoaderArgs) {
  const lines = [
    'User-agent: *',
    'Disallow: /basket/',
    'Disallow: /personal/',
    'Disallow: /wishlist/',
    'Disallow: /auth/',
    'Disallow: /logout/',
    'Disallow: /search/',
    'Disallow: /backend/',
    'Disallow: /*?*sort=',
    'Allow: /',
    '',
    `Sitemap: ${context.siteUrl}/sitemap.xml`,
    '',
  ];
  return new Response(lines.join('\n'), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
