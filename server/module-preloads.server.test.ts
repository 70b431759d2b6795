import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { deferModulePreloads, deferModulePreloadsStream } from './module-preloads.server';

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

describe('deferModulePreloadsStream', () => {
  it('rewrites a head split across chunks, even inside a UTF-8 character, and keeps the body intact', async () => {
    const bytes = Buffer.from(HEAD + BODY, 'utf8');
    // Cut inside «П» of the title and inside the second link.
    const cuts = [bytes.indexOf(Buffer.from('Пальто')) + 1, bytes.indexOf(Buffer.from('shell-B2')), bytes.length - 10];
    const chunks = [bytes.subarray(0, cuts[0]), bytes.subarray(cuts[0], cuts[1]), bytes.subarray(cuts[1], cuts[2]), bytes.subarray(cuts[2])];
    const out = await text(Readable.from(chunks).pipe(deferModulePreloadsStream()));
    expect(out).toBe(deferModulePreloads(HEAD) + BODY.replace('<script type="module" async="">', '<script type="vitrina/after-paint">'));
  });
  it('finds the module script when it is split across chunks, byte by byte', async () => {
    const bytes = Buffer.from(HEAD + BODY, 'utf8');
    const out = await text(Readable.from([...bytes].map((b) => Buffer.from([b]))).pipe(deferModulePreloadsStream()));
    expect(out).toContain('<script type="vitrina/after-paint">import "/assets/root-C3.js";</script></body></html>');
    expect(out).not.toContain('<script type="module"');
    expect(Buffer.byteLength(out)).toBe(
      Buffer.byteLength(deferModulePreloads(HEAD) + BODY) + '<script type="vitrina/after-paint">'.length - '<script type="module" async="">'.length,
    );
  });
  it('leaves the module script alone in a document whose head had no module preloads', async () => {
    const doc = '<html><head><title>x</title></head><body><script type="module" async="">1</script></body></html>';
    expect(await text(Readable.from([Buffer.from(doc)]).pipe(deferModulePreloadsStream()))).toBe(doc);
  });
  it('passes a document without a head through unchanged', async () => {
    const out = await text(Readable.from([Buffer.from('<p>нет головы</p>')]).pipe(deferModulePreloadsStream()));
    expect(out).toBe('<p>нет головы</p>');
  });
});
