// A page paints first and hydrates after (docs/decisions/004). React Router writes a
// <link rel="modulepreload"> for every script a page hydrates with at the top of the document
// (and so does a page part loaded apart from its route, app/lib/lazy-part.tsx), and an async
// module script at the end that imports them. On a phone those 113 KB (brotli) then share
// the connection with the fonts and the first photos, and the scripts run before the first
// frame. This rewrite of each document:
// - takes the preload links out of the head and puts in a tiny script that, once the first
//   frame is painted (a paint timing entry), adds the same links (all scripts load in parallel, no import waterfall)
//   and starts React Router's module script;
// - turns that module script into an inert data block until then.
// Links and forms are real HTML, so the page works in the meantime.

const MODULE_PRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*>/g;
const HREF = /\bhref="([^"]+)"/;
const MODULE_SCRIPT = '<script type="module" async="">';
const INERT_SCRIPT = '<script type="vitrina/after-paint">';
const HEAD_END = '</head>';

/** The script that runs the page's JavaScript once the first frame has been painted. */
export function afterPaintScript(hrefs: readonly string[]): string {
  // The first-contentful-paint entry arrives once text or a photo is on screen (timers are not
  // used: they may be throttled, or faked in tests). Only a browser without paint timing waits for
  // the load event instead (which can come before the first paint, so it is not a fallback).
  return (
    '<script>(function(){var started=false;function go(){if(started)return;started=true;' +
    `${JSON.stringify(hrefs)}.forEach(function(h){var l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.appendChild(l)});` +
    'if(document.readyState==="loading")document.addEventListener("DOMContentLoaded",run);else run()}' +
    'function run(){var s=document.querySelector(\'script[type="vitrina/after-paint"]\');if(!s)return;' +
    'var m=document.createElement("script");m.type="module";m.textContent=s.textContent;s.replaceWith(m)}' +
    'var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0)' +
    'new P(function(list,o){if(list.getEntriesByName("first-contentful-paint").length){o.disconnect();go()}}).observe({type:"paint",buffered:true});' +
    'else addEventListener("load",go)})()</script>'
  );
}

/** The head with its module preloads moved behind the first paint; unchanged if it has none. */
export function deferModulePreloads(head: string): string {
  const hrefs: string[] = [];
  const stripped = head.replace(MODULE_PRELOAD, (tag) => {
    const href = HREF.exec(tag)?.[1];
    if (href && /^\/[\w\-./]+\.js$/.test(href)) {
      // A chunk both React Router and a page part (app/lib/lazy-part.tsx) preload is asked once.
      if (!hrefs.includes(href)) hrefs.push(href);
      return '';
    }
    return tag;
  });
  if (hrefs.length === 0) return head;
  return stripped.replace('</head>', `${afterPaintScript(hrefs)}</head>`);
}

/**
 * A whole document as UTF-8 with its head rewritten (deferModulePreloads) and React Router's
 * module script made inert; unchanged if its head has no module preloads (or it has no head).
 * This is the one encoding of the document app/entry.server.tsx renders. The pieces are encoded
 * one by one: joined first, the whole page would be copied once more before its encoding (a
 * third of a millisecond of a category page).
 */
export function deferredDocumentBytes(doc: string): Buffer<ArrayBuffer> {
  const pieces = rewrittenPieces(doc);
  return pieces.length === 1 ? Buffer.from(doc, 'utf8') : (Buffer.concat(pieces.map((piece) => Buffer.from(piece, 'utf8'))) as Buffer<ArrayBuffer>);
}

/** The rewritten document in order: slices of doc (not copies) and the new parts. */
function rewrittenPieces(doc: string): string[] {
  const found = doc.indexOf(HEAD_END);
  if (found === -1) return [doc];
  const cut = found + HEAD_END.length;
  // React writes module preloads after the head's stylesheets: only the head after them is
  // rewritten, and the inline stylesheet (60 KB) is not copied (unless a preload came before it).
  const styleEnd = doc.lastIndexOf('</style>', found);
  const from = styleEnd !== -1 && doc.lastIndexOf('rel="modulepreload"', styleEnd) === -1 ? styleEnd : 0;
  const original = doc.slice(from, cut);
  const head = deferModulePreloads(original);
  if (head === original) return [doc];
  const at = doc.indexOf(MODULE_SCRIPT, cut);
  const pieces = [doc.slice(0, from), head];
  if (at === -1) pieces.push(doc.slice(cut));
  else pieces.push(doc.slice(cut, at), INERT_SCRIPT, doc.slice(at + MODULE_SCRIPT.length));
  return pieces;
}
