import { data } from 'react-router';
import type { Route } from './+types/blog';
import { CACHE_PUBLIC } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { BlogCard } from '~/app/components/content/BlogCard';

export const meta: Route.MetaFunction = (args) => pageMetaTags(args);

export async function loader({ context, request }: Route.LoaderArgs) {
  const [meta, articles] = await Promise.all([
    context.api.getPageMeta(new URL(request.url).pathname),
    context.api.getBlogList(),
  ]);
  return data({ meta, articles }, { headers: CACHE_PUBLIC });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Blog({ loaderData }: Route.ComponentProps) {
  return (
    <div className="blog">
      <header className="blog__head">
        <p className="eyebrow">Журнал Vitrina</p>
        <h1 className="page__title">Блог</h1>
        <p className="info__lead">
          Как выбирать, сочетать и беречь одежду: советы наших конструкторов, технологов и стилистов.
        </p>
      </header>
      {loaderData.articles.length > 0 ? (
        <div className="blog__list">
          {loaderData.articles.map((article, i) => (
            <BlogCard key={article.slug} article={article} eager={i < 3} />
          ))}
        </div>
      ) : (
        <p className="info__lead">Скоро здесь появятся статьи.</p>
      )}
    </div>
  );
}
