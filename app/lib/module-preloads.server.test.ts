import { describe, expect, it } from 'vitest';
import { deferModulePreloads, deferModulePreloadsInDocument, deferredDocumentBytes } from './module-preloads.server';

const HEAD =
  '<!DOCTYPE html><html lang="ru"><head><meta charSet="utf-8"/><title>Пальто</title>' +
  '<link rel="preload" href="/assets/font.woff2" as="font" crossorigin=""/>' +
  '<link rel="modulepreload" href="/assets/entry.client-A1.js"/><link rel="modulepreload" href="/assets/shell-B2.js"/>' +
  '</head>';
const BODY = '<body><h1>Утеплённое пальто</h1><script type="module" async="">import "/assets/root-C3.js";</script></body></html>';

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

describe('deferModulePreloadsInDocument', () => {
  const run = deferModulePreloadsInDocument;
  it('rewrites the head, makes the module script inert and keeps the rest byte for byte', () => {
    const out = run(HEAD + BODY);
    expect(out).toBe(deferModulePreloads(HEAD) + BODY.replace('<script type="module" async="">', '<script type="vitrina/after-paint">'));
    expect(out).not.toContain('<script type="module"');
  });
  it('makes only the first module script inert (the one React Router writes)', () => {
    const body = '<body><script type="module" async="">a</script><script type="module" async="">b</script></body>';
    expect(run(HEAD + body)).toContain('<script type="vitrina/after-paint">a</script><script type="module" async="">b</script>');
  });
  it('leaves the module script alone in a document whose head had no module preloads', () => {
    const doc = '<html><head><title>x</title></head><body><script type="module" async="">1</script></body></html>';
    expect(run(doc)).toBe(doc);
  });
  it('passes a document without a head through unchanged', () => {
    const doc = '<p>нет головы</p>';
    expect(run(doc)).toBe(doc);
  });
});

describe('deferredDocumentBytes', () => {
  const STYLE = '<style data-href="vitrina-styles">.a{color:red}</style>';
  it('encodes exactly the rewritten document', () => {
    for (const doc of [
      HEAD + BODY,
      // Preloads after the inline stylesheet (as React writes them) and before it.
      HEAD.replace('<title>', `${STYLE}<title>`) + BODY,
      HEAD.replace('</head>', `${STYLE}</head>`) + BODY,
      '<html><head><title>x</title></head><body><script type="module" async="">1</script></body></html>',
      '<p>нет головы</p>',
    ]) {
      expect(deferredDocumentBytes(doc).toString('utf8')).toBe(deferModulePreloadsInDocument(doc));
    }
    const styled = deferModulePreloadsInDocument(HEAD.replace('<title>', `${STYLE}<title>`) + BODY);
    expect(styled).not.toContain('rel="modulepreload" href');
    expect(deferModulePreloadsInDocument(HEAD.replace('</head>', `${STYLE}</head>`) + BODY)).not.toContain('rel="modulepreload" href');
  });
});
