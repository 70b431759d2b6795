// The blog's articles (their texts live in content/blog/{slug}.md).
export const BLOG_ARTICLES = [
  { slug: 'kak-vybrat-palto', title: 'Как выбрать пальто на зиму' },
  { slug: 'uhod-za-kashemirom', title: 'Как ухаживать за кашемиром' },
  { slug: 'kapsulnyj-garderob', title: 'Капсульный гардероб на осень' },
] as const;
