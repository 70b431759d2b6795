import { IntentLink } from '~/app/lib/app-link';
import type { BlogArticleSummary } from '~/shared/contract';
import { Image } from '~/app/ui/Image';
import { ART_IMAGE_HEIGHT, ART_IMAGE_WIDTH } from '~/shared/art';

// Three columns from 1024 px, two from 700 px, one on phones (see content.css .blog__list).
const CARD_SIZES = '(min-width: 1440px) 440px, (min-width: 1024px) calc((100vw - 144px) / 3), (min-width: 700px) calc((100vw - 56px) / 2), calc(100vw - 32px)';

/** One article in a list: cover, date, title (a link to the article) and lead. */
export function BlogCard({ article, headingLevel = 2, eager = false }: { article: BlogArticleSummary; headingLevel?: 2 | 3; eager?: boolean }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const href = `/blog/${article.slug}/`;
  return (
    <article className="blog-card">
      {/* The title link names the article; the picture repeats it for pointer users only. */}
      <IntentLink to={href} className="blog-card__media" tabIndex={-1} aria-hidden="true">
        <Image src={article.cover} alt="" width={ART_IMAGE_WIDTH} height={ART_IMAGE_HEIGHT} sizes={CARD_SIZES} loading={eager ? 'eager' : 'lazy'} placeholder />
      </IntentLink>
      <div className="blog-card__body">
        <p className="blog-card__date">
          <time dateTime={article.date}>{article.dateText}</time>
        </p>
        <Heading className="blog-card__title">
          <IntentLink to={href}>
            {article.title}
          </IntentLink>
        </Heading>
        <p className="blog-card__lead">{article.lead}</p>
      </div>
    </article>
  );
}
