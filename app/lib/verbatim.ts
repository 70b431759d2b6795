// Server only: its importers load it behind `import.meta.env.SSR`, so the client bundle never
// carries it.
//
// A long text every document carries unchanged (the inline stylesheets, 61 KB and 20 KB) costs
// React a scan of all of it on every render (its <style> escaping) and the document collector
// an encoding of all of it into UTF-8 (the stylesheet has three non-ASCII characters, so V8 keeps
// it as a two-byte string and Node encodes it the slow way): ~45 µs a page on the bench machine,
// 2-3 % of a page's CPU (issue #13). Registered here once, such a text is rendered as a short
// marker, which React writes as one piece like any other text, and the document collector
// (DocumentBytes in module-preloads.server.ts) writes the text's bytes, encoded at start, in its
// place. The marker is a CSS comment: wherever it were to reach a browser unreplaced, a
// stylesheet would lose its rules, nothing more.

const PREFIX = '/*vitrina-verbatim:';
/** Marker → the text's bytes; and text → its marker, so that a text registered again keeps one. */
const registered = new Map<string, Buffer>();
const markers = new Map<string, string>();

/** The marker that stands for `text` in a render; the same text gives the same marker. */
export function verbatim(text: string): string {
  let marker = markers.get(text);
  if (marker === undefined) {
    marker = `${PREFIX}${registered.size}*/`;
    registered.set(marker, Buffer.from(text, 'utf8'));
    markers.set(text, marker);
  }
  return marker;
}

/** The bytes a piece of a render stands for, when it is a marker; undefined for any other piece. */
export function verbatimBytes(piece: string): Buffer | undefined {
  // Most pieces fail the first test; only a marker-sized comment is looked up.
  if (piece.charCodeAt(0) !== 47 /* / */ || piece.length > PREFIX.length + 8 || !piece.startsWith(PREFIX)) return undefined;
  return registered.get(piece);
}
