import { z } from 'zod';
import { AuditItem } from './admin-contract';

// The site's words in the back office (issue #30, docs/back-office.md "The site's words"):
// information pages and blog articles (Markdown), page metadata, redirects and their bulk import.
// Same conventions as admin-contract.ts. Every edit carries the `version` the editor opened: a
// save over someone else's newer one is refused (409) with a Russian message.

const text = (max: number, what: string) => z.string().max(max, `${what}: не длиннее ${max} знаков`);
const required = (max: number, what: string) => text(max, what).trim().min(1, `Укажите: ${what.toLowerCase()}`);
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Дата публикации: в виде ГГГГ-ММ-ДД')
  .refine(
    (v) =>
      !Number.isNaN(new Date(`${v}T00:00:00Z`).getTime()) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    'Такой даты нет',
  );
const version = z.number().int().min(1);

export const ContentSeo = z.object({
  title: text(300, 'Заголовок для поисковиков'),
  description: text(1000, 'Описание для поисковиков'),
  keywords: text(1000, 'Ключевые слова'),
});

export const ContentItem = z.object({
  id: z.number().int(),
  kind: z.enum(['page', 'article']),
  slug: z.string(),
  /** The storefront's address. */
  url: z.string(),
  title: z.string(),
  lead: z.string(),
  published: z.boolean(),
  published_on: z.string().nullable(),
  updated_at: z.string(),
  version: z.number().int(),
});
export type ContentItem = z.infer<typeof ContentItem>;

export const ContentDetail = ContentItem.extend({
  body: z.string(),
  cover_kind: z.string().nullable(),
  cover_color: z.string().nullable(),
  cover_photo: z.string().nullable(),
  products: z.string(),
  seo: ContentSeo,
  /** The storefront's rendering of the saved text (sanitised, as guests get it). */
  html: z.string(),
  audit: z.array(AuditItem),
});
export const ContentListResponse = z.object({ data: z.array(ContentItem), total: z.number().int() });
export const ContentOneResponse = z.object({ data: ContentDetail });

const fields = {
  title: required(200, 'Заголовок'),
  lead: text(2000, 'Подзаголовок'),
  body: text(200_000, 'Текст'),
  published: z.boolean(),
  published_on: isoDate.nullable(),
  cover_kind: z
    .string()
    .regex(/^[a-z-]{1,40}$/, 'Обложка: вид рисунка латиницей')
    .nullable(),
  cover_color: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'Цвет обложки: в виде #rrggbb')
    .nullable(),
  products: text(2000, 'Разделы каталога'),
  seo: ContentSeo.partial(),
};
export const ContentPatchBody = z
  .object({ version, ...fields })
  .partial()
  .required({ version: true })
  .strict();
export const ArticleCreateBody = z
  .object({
    slug: z
      .string()
      .trim()
      .max(100, 'Адрес: не длиннее 100 знаков')
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Адрес статьи: латинские буквы в нижнем регистре, цифры и дефисы'),
    ...fields,
  })
  .partial({
    lead: true,
    body: true,
    published: true,
    published_on: true,
    cover_kind: true,
    cover_color: true,
    products: true,
    seo: true,
  })
  .strict();
export const PreviewBody = z
  .object({ body: text(200_000, 'Текст'), kind: z.enum(['page', 'article']).optional() })
  .strict();
export const PreviewResponse = z.object({ html: z.string() });

export const PageMetaItem = z.object({
  id: z.string(),
  path: z.string(),
  title: z.string(),
  description: z.string(),
  keywords: z.string(),
  seo_bottom: z.string().nullable(),
  version: z.number().int(),
});
export const PageMetaDetail = PageMetaItem.extend({ audit: z.array(AuditItem) });
export const PageMetaListResponse = z.object({ data: z.array(PageMetaItem), total: z.number().int() });
export const PageMetaOneResponse = z.object({ data: PageMetaDetail });
const metaFields = {
  title: required(300, 'Заголовок страницы'),
  description: text(1000, 'Описание'),
  keywords: text(1000, 'Ключевые слова'),
  seo_bottom: text(20_000, 'Текст под списком').nullable().optional(),
};
export const PageMetaCreateBody = z.object({ path: required(500, 'Адрес страницы'), ...metaFields }).strict();
export const PageMetaPatchBody = z.object({ version, ...metaFields }).strict();

export const RedirectItem = z.object({
  /** The old address (its canonical path): the record's id in the app. */
  id: z.string(),
  from: z.string(),
  to: z.string(),
  status: z.number().int(),
  version: z.number().int(),
});
export const RedirectDetail = RedirectItem.extend({ audit: z.array(AuditItem) });
export const RedirectListResponse = z.object({ data: z.array(RedirectItem), total: z.number().int() });
export const RedirectOneResponse = z.object({ data: RedirectDetail });
const statusCode = z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)], {
  error: 'Код перенаправления — 301, 302, 307 или 308',
});
export const RedirectCreateBody = z
  .object({ from: required(2000, 'Старый адрес'), to: required(2000, 'Новый адрес'), status: statusCode.default(301) })
  .strict();
export const RedirectPatchBody = z
  .object({ version, to: required(2000, 'Новый адрес'), status: statusCode.default(301) })
  .strict();
export const RedirectDeleteBody = z.object({ version }).strict();
export const RedirectImportBody = z
  .object({
    text: z.string().min(1, 'Вставьте строки или CSV').max(2_000_000, 'Не больше 2 МБ за раз'),
    /** false: only the dry run; true: write all lines, or none when any has an error. */
    apply: z.boolean().default(false),
  })
  .strict();
export const RedirectImportResponse = z.object({
  applied: z.boolean(),
  create: z.array(z.object({ line: z.number().int(), from: z.string(), to: z.string(), status: z.number().int() })),
  change: z.array(
    z.object({
      line: z.number().int(),
      from: z.string(),
      before: z.object({ to: z.string(), status: z.number().int() }),
      after: z.object({ to: z.string(), status: z.number().int() }),
    }),
  ),
  unchanged: z.number().int(),
  errors: z.array(z.object({ line: z.number().int(), error: z.string() })),
});
