import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatRussianDate } from '~/core/dates';
import { artImageUrl } from '~/shared/art';
import { mediaUrl } from '~/shared/image-url';
import type { BlogArticleSummary, ContentPage } from '~/shared/contract';
import type { Database } from '~/db/client.server';
import { UNANNOUNCED_CHANGE_TTL_MS, versionedMemo } from '~/api/meta/data-version.server';
import {
  getContentEntry,
  insertFileContent,
  isContentSlug,
  listAllContent,
  listPublishedArticles,
  readFileContentKeys,
  recordFileContentKeys,
  updateFromFile,
  type ContentFileFields,
  type ContentRow,
} from '~/models/content.server';
import { parseArt, parseFrontMatter, parseIsoDate, renderMarkdown } from './markdown';

// Information pages (content/pages/{slug}.md) and blog articles (content/blog/{slug}.md), each
// parsed and rendered once per file version (cached by mtime and size, so staff edits show
// without a restart).

export const CONTENT_DIR = fileURLToPath(new URL('../../content/', import.meta.url));

/** Lowercase latin, digits and single hyphens: nothing else ever reaches the file system. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const isSlug = (value: string) => value.length <= 100 && SLUG.test(value);

export interface ParsedArticle {
  summary: BlogArticleSummary;
  html: string;
  productUrls: string[];
}

export interface ContentStore {
  page(slug: string): Promise<ContentPage | null>;
  article(slug: string): Promise<ParsedArticle | null>;
  /** Every article, newest first. */
  articles(): Promise<ParsedArticle[]>;
}

export function createContentStore(dir: string): ContentStore {
  const cache = new Map<string, { mtimeMs: number; size: number; value: unknown }>();

  /** The parsed file, from memory while its mtime and size are unchanged; null when absent. */
  async function load<T>(file: string, parse: (source: string) => T): Promise<T | null> {
    let stat;
    try {
      stat = await fs.stat(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    if (!stat.isFile()) return null;
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.value as T;
    const value = parse(await fs.readFile(file, 'utf8'));
    cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, value });
    return value;
  }

  const article = (slug: string) => load(path.join(dir, 'blog', `${slug}.md`), (source) => parseArticle(slug, source));

  return {
    page: (slug) => load(path.join(dir, 'pages', `${slug}.md`), (source) => parsePage(slug, source)),
    article,
    async articles() {
      let files: string[];
      try {
        files = await fs.readdir(path.join(dir, 'blog'));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      }
      const slugs = files.flatMap((f) => (f.endsWith('.md') && isSlug(f.slice(0, -3)) ? [f.slice(0, -3)] : []));
      const all = (await Promise.all(slugs.map(article))).filter((a): a is ParsedArticle => a !== null);
      return all.sort((a, b) => b.summary.date.localeCompare(a.summary.date) || a.summary.slug.localeCompare(b.summary.slug));
    },
  };
}

function parsePage(slug: string, source: string): ContentPage {
  const { data, body } = parseFrontMatter(source);
  return renderPage({ slug, title: data.title || slug, lead: data.lead ?? '', body });
}

export function renderPage(p: { slug: string; title: string; lead: string; body: string }): ContentPage {
  return { slug: p.slug, title: p.title, lead: p.lead, html: renderMarkdown(p.body) };
}

function parseArticle(slug: string, source: string): ParsedArticle {
  const { data, body } = parseFrontMatter(source);
  return renderArticle({
    slug,
    title: data.title || slug,
    lead: data.lead ?? '',
    body,
    date: data.date ?? '',
    coverKind: data.cover ?? '',
    coverColor: data.coverColor ?? '',
    coverPhoto: null,
    products: data.products ?? '',
  });
}

export interface ArticleFields {
  slug: string;
  title: string;
  lead: string;
  body: string;
  date: string;
  coverKind: string;
  coverColor: string;
  /** An uploaded cover under the media root (`content/<24 hex>.jpg`): shown instead of the drawing. */
  coverPhoto: string | null;
  products: string;
}

export function renderArticle(a: ArticleFields): ParsedArticle {
  const date = parseIsoDate(a.date) ?? '1970-01-01';
  const cover = parseArt(a.coverKind, a.coverColor) ?? { kind: 'coat', color: '#b59a78' };
  return {
    summary: {
      slug: a.slug,
      title: a.title || a.slug,
      lead: a.lead,
      date,
      dateText: formatRussianDate(date),
      cover: a.coverPhoto ? mediaUrl(a.coverPhoto) : artImageUrl(cover.kind, cover.color, 0),
    },
    html: renderMarkdown(a.body, { cover }),
    productUrls: a.products
      .split(',')
      .map((s) => s.trim())
      .filter((s) => /^\/catalog\/[a-z0-9_/-]*$/.test(s)),
  };
}

/**
 * The shop's pages and articles from the database (models/content.server.ts), brought up to
 * date with the files at start (`ensureContentSeeded`); only published ones. Kept in process until the data version
 * (which covers the table) changes.
 */
export function createDbContentStore(db: Database, dir: string = CONTENT_DIR): ContentStore {
  const pages = versionedMemo<ContentPage | null>(200, { ttlMs: UNANNOUNCED_CHANGE_TTL_MS });
  const articles = versionedMemo<ParsedArticle[]>(1, { ttlMs: UNANNOUNCED_CHANGE_TTL_MS });
  const all = () =>
    articles(db, '', async () => {
      await ensureContentSeeded(db, dir);
      return (await listPublishedArticles(db)).map(articleOf);
    });
  return {
    page: (slug) =>
      pages(db, slug, async () => {
        await ensureContentSeeded(db, dir);
        const row = await getContentEntry(db, 'page', slug);
        return row?.published ? renderPage(row) : null;
      }),
    article: async (slug) => (await all()).find((a) => a.summary.slug === slug) ?? null,
    articles: all,
  };
}

export function articleOf(row: ContentRow): ParsedArticle {
  return renderArticle({
    slug: row.slug,
    title: row.title,
    lead: row.lead,
    body: row.body,
    date: row.publishedOn ?? '',
    coverKind: row.coverKind ?? '',
    coverColor: row.coverColor ?? '',
    coverPhoto: row.coverPhoto,
    products: row.products,
  });
}

const seeded = new WeakMap<Database, Promise<void>>();

/**
 * Brings the table up to date with the content files, once per process and database (at start):
 * a file with no row yet is inserted (a fresh shop, or a page a release added), and a file that
 * changed is written into its row unless staff have saved that row in the back office (its
 * version is above 1: their text stays). Staff's own articles are never touched, and a row whose
 * file was removed stays. The rows that came from files are recorded (app_state content_files),
 * so a later file cannot take over an article staff made under the same address.
 */
export function ensureContentSeeded(db: Database, dir: string = CONTENT_DIR): Promise<void> {
  let done = seeded.get(db);
  if (!done) {
    done = syncContentFiles(db, dir).then(() => {});
    seeded.set(db, done);
    done.catch(() => seeded.delete(db));
  }
  return done;
}

async function readContentFiles(dir: string): Promise<ContentFileFields[]> {
  const rows: ContentFileFields[] = [];
  for (const [sub, kind] of [
    ['pages', 'page'],
    ['blog', 'article'],
  ] as const) {
    const names = await fs.readdir(path.join(dir, sub)).catch(() => [] as string[]);
    for (const name of names.sort()) {
      const slug = name.slice(0, -3);
      if (!name.endsWith('.md') || !isContentSlug(slug)) continue;
      const { data, body } = parseFrontMatter(await fs.readFile(path.join(dir, sub, name), 'utf8'));
      rows.push({
        kind,
        slug,
        title: data.title || slug,
        lead: data.lead ?? '',
        body,
        publishedOn: kind === 'article' ? (parseIsoDate(data.date ?? '') ?? '1970-01-01') : null,
        coverKind: kind === 'article' ? (data.cover ?? null) : null,
        coverColor: kind === 'article' ? (data.coverColor ?? null) : null,
        products: data.products ?? '',
      });
    }
  }
  return rows;
}

const FILE_FIELDS = ['title', 'lead', 'body', 'publishedOn', 'coverKind', 'coverColor', 'products'] as const;

/** What the start wrote: rows inserted and rows updated from their files (`kind/slug`). */
export async function syncContentFiles(
  db: Database,
  dir: string = CONTENT_DIR,
): Promise<{ inserted: string[]; updated: string[] }> {
  const files = await readContentFiles(dir);
  const rows = new Map((await listAllContent(db)).map((r) => [`${r.kind}/${r.slug}`, r]));
  // Before the first start that recorded them, every row with a file's address came from it:
  // files were only ever read into an empty table.
  const recorded = await readFileContentKeys(db);
  const fromFiles = new Set(recorded ?? []);
  const inserted: string[] = [];
  const updated: string[] = [];
  const fresh: ContentFileFields[] = [];
  for (const file of files) {
    const key = `${file.kind}/${file.slug}`;
    const row = rows.get(key);
    if (!row) {
      fresh.push(file);
      inserted.push(key);
      fromFiles.add(key);
      continue;
    }
    if (recorded && !fromFiles.has(key)) continue;
    fromFiles.add(key);
    if (row.version === 1 && FILE_FIELDS.some((f) => (row[f] ?? null) !== (file[f] ?? null))) {
      if (await updateFromFile(db, row.id, file)) updated.push(key);
    }
  }
  await insertFileContent(db, fresh);
  const keys = [...fromFiles].sort();
  if (!recorded || keys.join('\n') !== [...recorded].sort().join('\n')) await recordFileContentKeys(db, keys);
  return { inserted, updated };
}
