import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatRussianDate } from '~/core/dates';
import { artImageUrl } from '~/shared/art';
import type { BlogArticleSummary, ContentPage } from '~/shared/contract';
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
  return { slug, title: data.title || slug, lead: data.lead ?? '', html: renderMarkdown(body) };
}

function parseArticle(slug: string, source: string): ParsedArticle {
  const { data, body } = parseFrontMatter(source);
  const date = parseIsoDate(data.date ?? '') ?? '1970-01-01';
  const cover = parseArt(data.cover ?? '', data.coverColor ?? '') ?? { kind: 'coat', color: '#b59a78' };
  return {
    summary: {
      slug,
      title: data.title || slug,
      lead: data.lead ?? '',
      date,
      dateText: formatRussianDate(date),
      cover: artImageUrl(cover.kind, cover.color, 0),
    },
    html: renderMarkdown(body, { cover }),
    productUrls: (data.products ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => /^\/catalog\/[a-z0-9_/-]*$/.test(s)),
  };
}
