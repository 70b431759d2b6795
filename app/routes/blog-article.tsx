import { data, Link } from 'react-router';
import type { Route } from './+types/blog-article';
import { CACHE_PUBLIC, notFound, orNull } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { Prose } from '~/app/components/content/Prose';
import { BlogCard } from '~/app/components/content/BlogCard';
import { ProductCard } from '~/app/ui/ProductCard';
import { Image } from '~/app/ui/Image';
import { ART_IMAGE_HEIGHT, ART_IMAGE_WIDTH } from '~/shared/art';
import { rootDataOf } from '~/app/lib/root-data';

export const meta: Route.MetaFunction = (args) => {
  const article = args.data?.article;
  const tags = pageMetaTags(args, { type: 'article', image: article?.cover });
  if (!article) return tags;
  const siteUrl = rootDataOf(args.matches)?.siteUrl ?? '';
  return [
    ...tags,
    { property: 'article:published_time', content: article.date },
    {
      'script:ld+json': {
        '@context': 'https://schema.org',
        '@type': 'BlogPosting',
        headline: article.title,
        description: article.lead,
        datePublished: article.date,
        image: `${siteUrl}${article.cover}`,
        url: `${siteUrl}/blog/${article.slug}/`,
        inLanguage: 'ru-RU',
        publisher: { '@type': 'Organization', name: 'Vitrina' },
      },
    },
  ];
};

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  if (!/^[a-z0-9-]{1,100}$/.test(params.slug)) return notFound(context, request);
  const [article, meta, more] = await Promise.all([
    context.api.getBlogArticle(params.slug),
    context.api.getPageMeta(pathname),
    // "Read next" is an extra: the article shows without it.
    orNull(context.log, 'blog list', context.api.getBlogList()).then((list) => list ?? []),
  ]);
  if (!article) return notFound(context, request);
  // A few products of the article's first catalogue section: also an extra.
  const first = article.products[0];
  const section = first ? await orNull(context.log, 'article products', context.api.getSectionPage(first.URL)) : null;
  return data(
    {
      meta,
      article,
      items: section?.ITEMS.slice(0, 4) ?? [],
      more: more.filter((a) => a.slug !== article.slug).slice(0, 2),
    },
    { headers: CACHE_PUBLIC },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function BlogArticle({ loaderData }: Route.ComponentProps) {
  const { article, items, more } = loaderData;
  return (
    <article className="article">
      <header className="article__head">
        <div className="article__intro">
          <p className="eyebrow">
            <Link to="/blog/" className="article__back">
              Блог
            </Link>
          </p>
          <h1 className="article__title">{article.title}</h1>
          <p className="article__date">
            <time dateTime={article.date}>{article.dateText}</time>
          </p>
          <p className="article__lead">{article.lead}</p>
        </div>
        <div className="article__cover">
          <Image
            src={article.cover}
            alt=""
            width={ART_IMAGE_WIDTH}
            height={ART_IMAGE_HEIGHT}
            sizes="(min-width: 1024px) 560px, 100vw"
            loading="eager"
            fetchPriority="high"
            placeholder
          />
        </div>
      </header>
      <Prose html={article.html} className="article__body" />
      {article.products.length > 0 ? (
        <section className="article__products" aria-labelledby="article-products">
          <h2 id="article-products" className="section-title">
            Товары из статьи
          </h2>
          <ul className="article__sections" aria-label="Разделы каталога из статьи">
            {article.products.map((p) => (
              <li key={p.URL}>
                <Link to={p.URL} className="chip" prefetch="intent">
                  {p.NAME}
                </Link>
              </li>
            ))}
          </ul>
          {items.length > 0 ? (
            <div className="grid">
              {items.map((item) => (
                <ProductCard key={item.ID} item={item} />
              ))}
            </div>
          ) : null}
        </section>
      ) : null}
      {more.length > 0 ? (
        <section className="article__more" aria-labelledby="article-more">
          <h2 id="article-more" className="section-title">
            Читайте также
          </h2>
          <div className="blog__list blog__list--two">
            {more.map((a) => (
              <BlogCard key={a.slug} article={a} headingLevel={3} />
            ))}
          </div>
        </section>
      ) : null}
    </article>
  );
}
