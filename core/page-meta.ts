import { canonicalPagePath } from './redirects';

// Page metadata lookup (SPEC §2 "Page metadata"). Pure: the table lives in content/page-meta.ts
// and is passed in, so this module has no data of its own and no side effects.

/** One row of the metadata table (SPEC §3 "Page metadata entry"). */
export interface PageMetaEntry {
  title: string;
  description: string;
  keywords: string;
  /** Bottom-of-page SEO text of a category; paragraphs separated by a blank line. */
  seoBottom?: string;
  /** Product SEO description, only on product entries. */
  seoDescription?: string;
}

export interface ResolvedMeta extends PageMetaEntry {
  /** The looked-up path in its slash form: '/about/', root '/'. */
  canonicalPath: string;
}

export interface ResolvePageMetaInput {
  path: string;
  entries: Record<string, PageMetaEntry>;
  defaults: PageMetaEntry;
  productTemplate: PageMetaEntry;
  /** Given (non-null) when the page is a product page. */
  product?: { name?: string | null } | null;
}

/** The placeholder in the generic product entry. */
export const PRODUCT_NAME_PLACEHOLDER = '{name}';
/** Title (and placeholder value) for a product without a usable name. */
export const UNNAMED_PRODUCT = 'Товар';
export const DEFAULT_DESCRIPTION_MAX = 155;

function lookup(entries: Record<string, PageMetaEntry>, key: string): PageMetaEntry | undefined {
  if (Object.prototype.hasOwnProperty.call(entries, key)) return entries[key];
  // Tolerate a table keyed without the trailing slash.
  const bare = key === '/' ? '' : key.slice(0, -1);
  if (bare !== '' && Object.prototype.hasOwnProperty.call(entries, bare)) return entries[bare];
  return undefined;
}

// split/join rather than String#replace so '$&' and friends in a product name stay literal.
function fill(text: string, name: string): string {
  return text.split(PRODUCT_NAME_PLACEHOLDER).join(name);
}

function copy(entry: PageMetaEntry, canonicalPath: string): ResolvedMeta {
  const out: ResolvedMeta = {
    title: entry.title,
    description: entry.description,
    keywords: entry.keywords,
    canonicalPath,
  };
  if (entry.seoBottom !== undefined) out.seoBottom = entry.seoBottom;
  if (entry.seoDescription !== undefined) out.seoDescription = entry.seoDescription;
  return out;
}

/**
 * Metadata for a page:
 * - product page (product given): the template with every '{name}' filled in title, description,
 *   keywords (and seoDescription); an exact entry for the path is laid over it field by field.
 *   A product without a usable name gets the title 'Товар' and the template filled with 'Товар'.
 * - other pages: the exact entry, or the shop-wide default (also for each empty field of the entry).
 * Descriptions are returned whole; renderers pass them through truncateDescription.
 */
export function resolvePageMeta(input: ResolvePageMetaInput): ResolvedMeta {
  const canonicalPath = canonicalPagePath(input.path);
  const exact = lookup(input.entries, canonicalPath);
  const product = input.product;

  if (product === undefined || product === null) {
    if (!exact) return copy(input.defaults, canonicalPath);
    // A field staff left empty (the back office stores every field) is the default's.
    return copy(
      {
        ...exact,
        title: exact.title || input.defaults.title,
        description: exact.description || input.defaults.description,
        keywords: exact.keywords || input.defaults.keywords,
      },
      canonicalPath,
    );
  }

  const trimmed = typeof product.name === 'string' ? product.name.trim() : '';
  const named = trimmed !== '';
  const name = named ? trimmed : UNNAMED_PRODUCT;
  const t = input.productTemplate;

  const merged: PageMetaEntry = {
    title: named ? fill(t.title, name) : UNNAMED_PRODUCT,
    description: fill(t.description, name),
    keywords: fill(t.keywords, name),
  };
  if (t.seoDescription !== undefined) merged.seoDescription = fill(t.seoDescription, name);

  if (exact) {
    // An empty field (staff filled only some) keeps the template's.
    if (exact.title) merged.title = fill(exact.title, name);
    if (exact.description) merged.description = fill(exact.description, name);
    if (exact.keywords) merged.keywords = fill(exact.keywords, name);
    if (exact.seoDescription !== undefined) merged.seoDescription = fill(exact.seoDescription, name);
    if (exact.seoBottom !== undefined) merged.seoBottom = exact.seoBottom;
  }
  return copy(merged, canonicalPath);
}

const TRAILING_JUNK = /[\s,.;:!?\u2013\u2014-]+$/u;

/**
 * Shortens text for a meta description: whitespace is collapsed; text longer than max is cut
 * at the last word boundary that fits, trailing punctuation is dropped and '…' appended.
 * The result never exceeds max characters (a single word longer than max is hard-cut).
 */
export function truncateDescription(text: string, max: number = DEFAULT_DESCRIPTION_MAX): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  if (max < 1) return '';

  const room = max - 1; // one character for the ellipsis
  let head = clean.slice(0, room);
  const next = clean.charAt(room);
  if (next !== ' ') {
    const space = head.lastIndexOf(' ');
    if (space > 0) head = head.slice(0, space);
  }
  head = head.replace(TRAILING_JUNK, '');
  if (head === '') head = clean.slice(0, room);
  // Do not leave half of a surrogate pair behind.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${head}…`;
}
