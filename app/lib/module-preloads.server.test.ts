import { describe, expect, it } from 'vitest';
import { DocumentBytes, deferModulePreloads, deferredDocumentBytes } from './module-preloads.server';

const HEAD =
  '<!DOCTYPE html><html lang="ru"><head><meta charSet="utf-8"/><title>Пальто</title>' +
  '<link rel="preload" href="/assets/font.woff2" as="font" crossorigin=""/>' +
  '<link rel="modulepreload" href="/assets/entry.client-A1.js"/><link rel="modulepreload" href="/assets/shell-B2.js"/>' +
  '</head>';
const BODY =
  '<body><h1>Утеплённое пальто</h1><script type="module" async="">import "/assets/root-C3.js";</script></body></html>';

describe('deferModulePreloads', () => {
  it('takes the module preloads out of the head and adds them back after the first frame', () => {
    const out = deferModulePreloads(HEAD);
    expect(out).not.toContain('rel="modulepreload" href');
    expect(out).toContain('<link rel="preload" href="/assets/font.woff2"');
    expect(out).toContain('["/assets/entry.client-A1.js","/assets/shell-B2.js"]');
    expect(out).toMatch(/<script>\(function\(\)\{.*observe\(\{type:"paint",buffered:true\}\).*<\/script><\/head>$/);
    expect(out).toContain('script[type="vitrina/after-paint"]');
  });
  it('leaves a head without module preloads, or with unexpected addresses, as it is', () => {
    const plain = '<head><title>x</title></head>';
    expect(deferModulePreloads(plain)).toBe(plain);
    const odd = '<head><link rel="modulepreload" href="https://cdn.example/x.js"/></head>';
    expect(deferModulePreloads(odd)).toBe(odd);
  });
});

describe('deferredDocumentBytes', () => {
  const run = (doc: string) => deferredDocumentBytes(Buffer.from(doc, 'utf8')).toString('utf8');
  const INERT = (body: string) =>
    body.replace('<script type="module" async="">', '<script type="vitrina/after-paint">');
  it('rewrites the head, makes the module script inert and keeps the rest byte for byte', () => {
    const out = run(HEAD + BODY);
    expect(out).toBe(deferModulePreloads(HEAD) + INERT(BODY));
    expect(out).not.toContain('<script type="module"');
  });
  it("makes only the last module script inert (React Router's, which closes the body)", () => {
    const body =
      '<body><script type="module" async="">a</script><script type="module" async="">b</script><script>data</script></body>';
    expect(run(HEAD + body)).toContain(
      '<script type="module" async="">a</script><script type="vitrina/after-paint">b</script><script>data</script>',
    );
  });
  it('leaves the module script alone in a document whose head had no module preloads', () => {
    const doc = '<html><head><title>x</title></head><body><script type="module" async="">1</script></body></html>';
    expect(run(doc)).toBe(doc);
  });
  it('passes a document without a head through unchanged', () => {
    const doc = '<p>нет головы</p>';
    expect(run(doc)).toBe(doc);
  });
  it('rewrites the head around an inline stylesheet, with the preloads after it (as React writes them) or before it', () => {
    const STYLE = '<style data-href="vitrina-styles">.a{color:red}</style>';
    for (const head of [HEAD.replace('<title>', `${STYLE}<title>`), HEAD.replace('</head>', `${STYLE}</head>`)]) {
      const out = run(head + BODY);
      expect(out).toBe(deferModulePreloads(head) + INERT(BODY));
      expect(out).not.toContain('rel="modulepreload" href');
    }
  });
});

describe('DocumentBytes', () => {
  it('encodes short and long pieces, strings and bytes, in order, as the joined document would be', () => {
    const pieces: Array<string | Uint8Array> = [];
    // Short pieces past the gathered limit, long ones on either side of it, Cyrillic and emoji
    // (surrogate pairs), bytes between, and enough in all to grow the first buffer.
    for (let i = 0; i < 6000; i++) {
      pieces.push(i % 7 === 0 ? `<li>Пальто №${i}</li>` : `<b>${i}</b>`);
      if (i % 1000 === 500) pieces.push('ё'.repeat(700), '.a{color:red}'.repeat(80), '👗'.repeat(300));
      if (i % 1500 === 3) pieces.push(new TextEncoder().encode('<i>байты</i>'));
    }
    pieces.push('x'.repeat(300_000));
    const html = new DocumentBytes();
    for (const piece of pieces) {
      if (typeof piece === 'string') html.write(piece);
      else html.writeBytes(piece);
    }
    const expected = pieces.map((p) => (typeof p === 'string' ? p : new TextDecoder().decode(p))).join('');
    expect(html.bytes().toString('utf8')).toBe(expected);
    expect(html.bytes().byteLength).toBe(Buffer.byteLength(expected));
  });
  // React writes a document as many pieces, the head's end as one of its own: however it splits
  // them, the collector's document is the rewrite of the whole.
  const asReactWrites = (doc: string) => doc.split(/(<\/head>|<[^<>]*>)/).filter((p) => p !== '');
  const collect = (pieces: readonly string[]) => {
    const html = new DocumentBytes();
    for (const piece of pieces) html.write(piece);
    return html.document().toString('utf8');
  };
  const PAGE = '<p>Пальто №1</p>'.repeat(3000);
  const STYLE = '<style data-precedence="default" data-href="vitrina-styles">.a{content:"→"}</style>';
  const DOCS = {
    'preloads after the stylesheet': HEAD.replace('<title>', `${STYLE}<title>`) + PAGE + BODY,
    'preloads before it': HEAD.replace('</head>', `${STYLE}</head>`) + PAGE + BODY,
    'no stylesheet': HEAD + PAGE + BODY,
    'no module preloads': `<html><head>${STYLE}<title>x</title></head><body>${PAGE}<script type="module" async="">1</script></body></html>`,
    'no module script': HEAD + PAGE + '</body></html>',
    'no head': `<p>нет головы</p>${PAGE}`,
  };

  it('gives the document deferredDocumentBytes gives of the whole', () => {
    for (const [name, doc] of Object.entries(DOCS)) {
      const expected = deferredDocumentBytes(Buffer.from(doc, 'utf8')).toString('utf8');
      // Compared as a flag: a failure names the case without printing two 50 KB documents.
      expect({ name, same: collect(asReactWrites(doc)) === expected }).toEqual({ name, same: true });
      expect({ name, same: collect([doc]) === expected }).toEqual({ name, same: true });
    }
    expect(collect(asReactWrites(DOCS['preloads after the stylesheet']))).toContain(
      '<script type="vitrina/after-paint">',
    );
  });

  it('gives the same document when asked again (the module script is swapped once)', () => {
    const html = new DocumentBytes();
    const body =
      '<body><script type="module" async="">a</script><script type="module" async="">b</script></body></html>';
    for (const piece of asReactWrites(DOCS['preloads after the stylesheet'].replace(/<body>[\s\S]*$/, body)))
      html.write(piece);
    const first = html.document().toString('utf8');
    expect(html.document().toString('utf8')).toBe(first);
    expect(first).toContain('<script type="module" async="">a</script><script type="vitrina/after-paint">b</script>');
  });

  it('rewrites the head once: a later piece that closes a head is text like any other', () => {
    const doc = DOCS['preloads after the stylesheet'];
    const out = collect([
      ...asReactWrites(doc).slice(0, -1),
      '</head>',
      '<link rel="modulepreload" href="/assets/late.js"/>',
      '</html>',
    ]);
    expect(out.endsWith('</head><link rel="modulepreload" href="/assets/late.js"/></html>')).toBe(true);
  });
});
