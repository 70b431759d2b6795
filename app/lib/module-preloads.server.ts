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
const MODULE_SCRIPT_BYTES = Buffer.from('<script type="module" async="">');
const INERT_SCRIPT_BYTES = Buffer.from('<script type="vitrina/after-paint">');
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
 * A whole document's UTF-8 with its head rewritten (deferModulePreloads) and React Router's module
 * script made inert; the same bytes if its head has no module preloads (or it has no head). Only
 * the head after the inline stylesheet (a few hundred bytes) is decoded and rewritten. It works on
 * the finished document, so it depends only on HTML's shape, not on how React splits its writes.
 */
export function deferredDocumentBytes(doc: Buffer<ArrayBuffer>): Buffer<ArrayBuffer> {
  const found = doc.indexOf(HEAD_END);
  if (found === -1) return doc;
  const cut = found + HEAD_END.length;
  const from = headRewriteStart(doc, found);
  const original = doc.toString('utf8', from, cut);
  const head = deferModulePreloads(original);
  if (head === original) return doc;
  const at = moduleScriptAt(doc, cut);
  const pieces = [doc.subarray(0, from), Buffer.from(head, 'utf8')];
  if (at === -1) pieces.push(doc.subarray(cut));
  else pieces.push(doc.subarray(cut, at), INERT_SCRIPT_BYTES, doc.subarray(at + MODULE_SCRIPT_BYTES.byteLength));
  return Buffer.concat(pieces);
}

/**
 * Where the head's rewrite starts: after the last inline stylesheet, since React writes module
 * preloads after the head's stylesheets (the 60 KB stylesheet is then never decoded), unless a
 * preload came before one.
 */
function headRewriteStart(doc: Buffer, headEnd: number): number {
  const styleEnd = doc.lastIndexOf('</style>', headEnd);
  return styleEnd !== -1 && doc.lastIndexOf('rel="modulepreload"', styleEnd) === -1 ? styleEnd : 0;
}

/**
 * React Router's module script: the last one in the document (<Scripts /> closes the body; only
 * its data scripts, which are not modules, come after it), looked for from the end, which is
 * 23 KB away on a category page where the start of the body is 120 KB away. -1 if none follows
 * the head.
 */
function moduleScriptAt(doc: Buffer, headEnd: number): number {
  const at = doc.lastIndexOf(MODULE_SCRIPT_BYTES);
  return at >= headEnd ? at : -1;
}

/** Pieces shorter than this are gathered into one string before they are encoded. */
const SHORT_PIECE = 512;
/** How long the gathered string of short pieces grows before it is encoded. */
const GATHERED = 8192;
/** The largest document so far, up to 1 MB: the next one's first buffer (few pages need to grow it). */
let sizeHint = 64 * 1024;
const MAX_SIZE_HINT = 1024 * 1024;

/**
 * A rendered document's strings (React writes a category page as ~15 000 of them), encoded as
 * UTF-8 into one growing buffer. Joining them into one string first cost more than the render's
 * markup itself on the bench machine (1.5 ms of a category page: V8's join and concatenation are
 * slow once a 60 KB one-byte stylesheet meets two-byte Cyrillic text), and the joined string was
 * then encoded in full. Here short pieces are gathered into strings of a few KB and long ones are
 * encoded as they come: 0.26 ms for the same page (README, "Guest page cache" and the seventh pass).
 */
export class DocumentBytes {
  private buffer: Buffer<ArrayBuffer> = Buffer.allocUnsafe(sizeHint);
  private length = 0;
  private gathered = '';
  /** The document once document() made it. */
  private sent: Buffer<ArrayBuffer> | null = null;

  write(piece: string): void {
    if (piece.length < SHORT_PIECE) {
      this.gathered += piece;
      if (this.gathered.length > GATHERED) this.flush();
      return;
    }
    this.flush();
    this.encode(piece);
  }

  writeBytes(bytes: Uint8Array): void {
    this.flush();
    this.reserve(bytes.byteLength);
    this.buffer.set(bytes, this.length);
    this.length += bytes.byteLength;
  }

  /** The bytes written so far, as written (a view of the collector's buffer). */
  bytes(): Buffer<ArrayBuffer> {
    this.flush();
    if (this.length > sizeHint) sizeHint = Math.min(this.length, MAX_SIZE_HINT);
    return this.buffer.subarray(0, this.length);
  }

  /**
   * The document to send: its module preloads deferred and React Router's module script inert
   * (deferredDocumentBytes). What keeps it for long (the guest page cache) keeps a copy of its
   * own size, since a document that was not rewritten is a view of the collector's buffer.
   */
  document(): Buffer<ArrayBuffer> {
    // Once only: the rewrite is not meant to run on its own output.
    this.sent ??= deferredDocumentBytes(this.bytes());
    return this.sent;
  }

  private flush(): void {
    if (this.gathered === '') return;
    this.encode(this.gathered);
    this.gathered = '';
  }

  private encode(text: string): void {
    // A UTF-16 code unit never takes more than 3 bytes of UTF-8.
    this.reserve(text.length * 3);
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.byteLength) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.byteLength * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
