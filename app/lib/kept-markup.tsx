import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server.bun';
import { ByteLru } from '~/shared/byte-lru';

// Server only: its one importer loads it behind `import.meta.env.SSR`, so the client bundle
// never carries it.
//
// A part of a page whose markup is a pure function of its props (a product card below the
// first row: app/ui/ProductCard.tsx) is rendered once and kept as a string under a key
// made of all those props; later documents write the string as the element's inner HTML. In the
// browser the part renders as usual and hydrates against the same DOM. This is what a guest page
// cache miss spends least on: a category page's 20 cards were a third of its server CPU
// (issue #13). Nothing personal goes in: on the server the parts render as for a guest, as the
// whole document does.

/** Kept markup is bounded by this many bytes (UTF-16, keys included): about 1 500 cards. */
export const KEPT_MARKUP_MAX_BYTES = 8 * 1024 * 1024;

const kept = new ByteLru<{ html: string; bytes: number }>(KEPT_MARKUP_MAX_BYTES);

/**
 * The markup `render()` gives, rendered on the first call for this key and kept. The key must
 * hold everything the markup depends on. Called while a document renders, the part sees that
 * document's context values (React's server renderers keep a context's current value on the
 * context), which is why its markup must not depend on any: a kept string serves every page.
 *
 * Test modes of VITRINA_KEPT_MARKUP (read per call, so one process can render a page each way),
 * for tests/e2e/kept-markup.test.ts, which compares every page's document rendered both ways:
 * `inline` gives null, and the caller renders the part inline, as the browser does; `fresh`
 * renders every part as a miss does, inside the document's render, whatever is kept already
 * (the test's process may have rendered the same parts for other test files).
 */
export function keptMarkup(key: string, render: () => ReactElement): string | null {
  const mode = process.env.VITRINA_KEPT_MARKUP;
  if (mode === 'inline') return null;
  const hit = mode === 'fresh' ? undefined : kept.get(key);
  if (hit) return hit.html;
  const html = renderToString(render());
  kept.set(key, { html, bytes: 2 * (html.length + key.length) });
  return html;
}

/** For tests: how much is kept. */
export function keptMarkupSize(): { entries: number; bytes: number } {
  return { entries: kept.size, bytes: kept.bytes };
}
