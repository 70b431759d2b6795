import { Marked, Renderer, type Tokens } from 'marked';
import { ART_IMAGE_HEIGHT, ART_IMAGE_WIDTH, artImageUrl, GARMENT_KINDS, type GarmentKind } from '~/shared/art';
import { buildSrcSet } from '~/shared/image-url';

// Shop content files: `key: value` front matter and Markdown rendered to the HTML the pages show.

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

export function parseIsoDate(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? value : null;
}

const KINDS: ReadonlySet<string> = new Set(GARMENT_KINDS);

export function parseArt(kind: string, color: string): { kind: GarmentKind; color: string } | null {
  return KINDS.has(kind) && /^#[0-9a-fA-F]{6}$/.test(color) ? { kind: kind as GarmentKind, color: color.toLowerCase() } : null;
}

/** A link or picture address Markdown from staff may carry: a shop path, an anchor, http(s), mailto, tel. */
export function isSafeHref(href: string): boolean {
  const h = href.trim();
  if (/^(\/(?!\/)|#|\?)/.test(h)) return true;
  if (/^[a-z0-9._-]+(\/|$)/i.test(h) && !/^[a-z][a-z0-9+.-]*:/i.test(h)) return true;
  return /^(https?:\/\/|mailto:|tel:)/i.test(h);
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
      // Staff write this Markdown in the back office: raw HTML is shown as text, never run, and
      // links keep only shop paths, http(s), mailto and tel (no javascript: from a staff account).
      html({ text }: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(text);
      },
      link(this: Renderer, token: Tokens.Link) {
        if (!isSafeHref(token.href)) return this.parser.parseInline(token.tokens);
        return Renderer.prototype.link.call(this, token);
      },
      image({ href, text, title }: Tokens.Image) {
        const alt = escapeHtml(text);
        const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
        const art = /^art:([a-z-]+):(#[0-9a-fA-F]{6})$/.exec(href);
        const parsed = art ? parseArt(art[1] ?? '', art[2] ?? '') : null;
        if (art && !parsed) return alt; // an unknown garment kind: keep the words, drop the picture
        if (!parsed && !isSafeHref(href)) return alt;
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
