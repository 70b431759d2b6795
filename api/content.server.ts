import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '~/db/client.server';
import { listMenuSections } from './catalog.server';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Marked, Renderer, type Tokens } from 'marked';
import { GARMENT_KINDS, type GarmentKind } from '~/shared/art';
import { ART_IMAGE_HEIGHT, ART_IMAGE_WIDTH, artImageUrl } from '~/shared/art';
import { buildSrcSet } from '~/shared/image-url';
import type { BlogArticle, BlogArticleSummary, BlogListResponse, ContentPage, SectionLink, SectionsResponse } from '~/shared/contract';

// Shop content for the storefront: information pages (content/pages/{slug}.md) and blog
// articles (content/blog/{slug}.md), Markdown with `key: value` front matter, rendered to HTML
// here once per file version (cached by mtime and size, so staff edits show without a restart).
//
//   GET /content/pages/{slug}/  → { slug, title, lead, html }
//   GET /content/blog/          → { articles: [{ slug, title, lead, date, dateText, cover }] } newest first
//   GET /content/blog/{slug}/   → { ...summary, html, products: [{ NAME, URL }] }

export const CONTENT_DIR = fileURLToPath(new URL('../content/', import.meta.url));

/** Lowercase latin, digits and single hyphens: nothing else ever reaches the file system. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const isSlug = (value: string) => value.length <= 100 && SLUG.test(value);
const NOT_FOUND = { error: 'Страница не найдена' };

export async function contentRoutes(app: FastifyInstance, opts: { db: Database; dir?: string }): Promise<void> {
  const store = createContentStore(opts.dir ?? CONTENT_DIR);
  // Section names for an article's product links: the same tree the menu shows.
  const sectionNames = cachedSectionNames(() => listMenuSections({ db: opts.db }));

  const publicCache = (reply: FastifyReply) => reply.header('cache-control', 'public, max-age=60');

  app.get('/content/pages/:slug/', async (req, reply) => {
    const { slug } = req.params as { slug: string };
    const page = isSlug(slug) ? await store.page(slug) : null;
    if (!page) return reply.code(404).send(NOT_FOUND);
    publicCache(reply);
    return page satisfies ContentPage;
  });

  app.get('/content/blog/', async (_req, reply) => {
    const articles = await store.articles();
    publicCache(reply);
    return { articles: articles.map(({ summary }) => summary) } satisfies BlogListResponse;
  });

  app.get('/content/blog/:slug/', async (req, reply) => {
    const { slug } = req.params as { slug: string };
    const article = isSlug(slug) ? await store.article(slug) : null;
    if (!article) return reply.code(404).send(NOT_FOUND);
    let names = new Map<string, string>();
    try {
      names = await sectionNames();
    } catch (err) {
      // Product links are extras: the article still answers without them.
      req.log.error({ err }, 'content: catalogue sections unavailable');
    }
    const products = article.productUrls.flatMap((url) => {
      const name = names.get(url);
      return name ? [{ NAME: name, URL: url }] : [];
    });
    publicCache(reply);
    return { ...article.summary, html: article.html, products } satisfies BlogArticle;
  });
}

// ---------------------------------------------------------------------------------------
// Files, parsed once per version
// ---------------------------------------------------------------------------------------

interface ParsedArticle {
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

// ---------------------------------------------------------------------------------------
// Front matter, dates, Markdown
// ---------------------------------------------------------------------------------------

/** `key: value` lines between the opening `---` and the next `---`; quotes around a value are dropped. */
export function parseFrontMatter(source: string): { data: Record<string, string>; body: string } {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(text);
  if (!match) return { data: {}, body: text };
  const data: Record<string, string> = {};
  for (const line of (match[1] ?? '').split('\n')) {
    const m = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!m?.[1]) continue;
    let value = (m[2] ?? '').trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) value = value.slice(1, -1);
    data[m[1]] = value;
  }
  return { data, body: text.slice(match[0].length) };
}

const MONTHS = ['января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'];

/** '2026-10-14' → '14 октября 2026' (SPEC §9: dates in Russian long format). */
export function formatRussianDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-').map(Number);
  return `${d} ${MONTHS[(m ?? 1) - 1] ?? ''} ${y}`;
}

function parseIsoDate(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? value : null;
}

const KINDS: ReadonlySet<string> = new Set(GARMENT_KINDS);

function parseArt(kind: string, color: string): { kind: GarmentKind; color: string } | null {
  return KINDS.has(kind) && /^#[0-9a-fA-F]{6}$/.test(color) ? { kind: kind as GarmentKind, color: color.toLowerCase() } : null;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Markdown to HTML: `![alt](art:KIND:#rrggbb)` becomes a generated illustration with its size
 * (no layout shift) and lazy loading; tables scroll sideways on phones; `#` headings become
 * `<h2>` (the page has its own h1). Links are kept as written, so shop paths stay relative.
 */
export function renderMarkdown(markdown: string, opts: { cover?: { kind: GarmentKind; color: string } } = {}): string {
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: Renderer, token: Tokens.Heading) {
        return Renderer.prototype.heading.call(this, { ...token, depth: Math.max(2, token.depth) });
      },
      table(this: Renderer, token: Tokens.Table) {
        // A scrollable region must be reachable by keyboard and named: by its column headings.
        const label = `Таблица: ${token.header.map((cell) => cell.text.replace(/[*_`]/g, '')).join(', ')}`;
        return `<div class="table-scroll" role="region" aria-label="${escapeHtml(label)}" tabindex="0">${Renderer.prototype.table.call(this, token)}</div>\n`;
      },
      image({ href, text, title }: Tokens.Image) {
        const alt = escapeHtml(text);
        const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
        const art = /^art:([a-z-]+):(#[0-9a-fA-F]{6})$/.exec(href);
        const parsed = art ? parseArt(art[1] ?? '', art[2] ?? '') : null;
        if (art && !parsed) return alt; // an unknown garment kind: keep the words, drop the picture
        if (!parsed) return `<img src="${escapeHtml(href)}" alt="${alt}"${titleAttr} loading="lazy" decoding="async">`;
        // The cover already shows the front view of this garment: show it on the hanger instead.
        const same = opts.cover && opts.cover.kind === parsed.kind && opts.cover.color === parsed.color;
        const src = artImageUrl(parsed.kind, parsed.color, same ? 2 : 0);
        // Resized by the image server; content.css shows these at most 460 px wide.
        const srcset = buildSrcSet(src, [320, 640, 768, 1024]);
        const responsive = srcset ? ` srcset="${srcset}" sizes="(min-width: 500px) 460px, calc(100vw - 32px)"` : '';
        return `<img src="${src}"${responsive} alt="${alt}"${titleAttr} width="${ART_IMAGE_WIDTH}" height="${ART_IMAGE_HEIGHT}" loading="lazy" decoding="async">`;
      },
    },
  });
  return marked.parse(markdown, { async: false });
}

// ---------------------------------------------------------------------------------------
// Catalogue section names (for "Товары из статьи")
// ---------------------------------------------------------------------------------------

const SECTION_NAMES_TTL_MS = 60_000;

function cachedSectionNames(fetchSections: () => Promise<SectionsResponse['SECTIONS']>): () => Promise<Map<string, string>> {
  let cached: { at: number; names: Promise<Map<string, string>> } | null = null;
  return () => {
    if (cached && Date.now() - cached.at < SECTION_NAMES_TTL_MS) return cached.names;
    const names = fetchSections().then((sections) => {
      const map = new Map<string, string>();
      const add = (s: SectionLink) => map.set(s.SECTION_PAGE_URL, s.NAME);
      for (const s of sections) {
        add(s);
        s.SECOND_LVL.forEach(add);
      }
      return map;
    });
    const entry = { at: Date.now(), names };
    cached = entry;
    // A failed call is not remembered: the next article asks again.
    names.catch(() => {
      if (cached === entry) cached = null;
    });
    return names;
  };
}
