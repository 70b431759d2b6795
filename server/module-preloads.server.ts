import { Transform } from 'node:stream';

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
const MODULE_SCRIPT = Buffer.from('<script type="module" async="">');
const INERT_SCRIPT = Buffer.from('<script type="vitrina/after-paint">');
// Searched in bytes: '</head>' is ASCII, so the cut never splits a UTF-8 character.
const HEAD_END = Buffer.from('</head>');
/** A head larger than this is passed on untouched (never buffer a whole document). */
const MAX_HEAD = 256 * 1024;

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
 * A stream transform for a document: holds bytes up to </head> and rewrites them; after that,
 * makes React Router's module script inert (holding back a marker's length of bytes between
 * chunks, so a marker split across two chunks is still found). A document whose head had no
 * module preloads passes through unchanged.
 */
export function deferModulePreloadsStream(): Transform {
  const held: Buffer[] = [];
  let heldBytes = 0;
  let state: 'head' | 'body' | 'pass' = 'head';
  let carry = Buffer.alloc(0);
  let headTail = Buffer.alloc(0);
  const body = (chunk: Buffer, last: boolean): Buffer => {
    let data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    const at = data.indexOf(MODULE_SCRIPT);
    if (at !== -1) {
      state = 'pass';
      carry = Buffer.alloc(0);
      return Buffer.concat([data.subarray(0, at), INERT_SCRIPT, data.subarray(at + MODULE_SCRIPT.length)]);
    }
    const keep = last ? 0 : Math.min(data.length, MODULE_SCRIPT.length - 1);
    carry = Buffer.from(data.subarray(data.length - keep));
    data = data.subarray(0, data.length - keep);
    return data;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (state === 'pass') return callback(null, chunk);
      if (state === 'body') return callback(null, body(chunk, false));
      // Only the new bytes are searched (with the few before them, for a marker split across
      // chunks): the head, inline styles included, comes in many small chunks.
      const searched = headTail.length ? Buffer.concat([headTail, chunk]) : chunk;
      const found = searched.indexOf(HEAD_END);
      const end = found === -1 ? -1 : heldBytes - headTail.length + found;
      held.push(chunk);
      heldBytes += chunk.length;
      headTail = Buffer.from(searched.subarray(Math.max(0, searched.length - (HEAD_END.length - 1))));
      if (end === -1 && heldBytes < MAX_HEAD) return callback();
      const all = Buffer.concat(held, heldBytes);
      held.length = 0;
      if (end === -1) {
        state = 'pass';
        return callback(null, all);
      }
      const cut = end + HEAD_END.length;
      const original = all.subarray(0, cut).toString('utf8');
      const head = deferModulePreloads(original);
      if (head === original) {
        state = 'pass';
        return callback(null, all);
      }
      state = 'body';
      callback(null, Buffer.concat([Buffer.from(head, 'utf8'), body(all.subarray(cut), false)]));
    },
    flush(callback) {
      if (state === 'head') return callback(null, heldBytes ? Buffer.concat(held, heldBytes) : undefined);
      if (state === 'body') return callback(null, body(Buffer.alloc(0), true));
      callback();
    },
  });
}
