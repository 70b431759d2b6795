import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Image } from './Image';

// Server rendering: the <img> and everything it needs are in the first HTML. What happens after
// hydration (placeholder swap, errors replayed) is checked in a browser.
function attrs(html: string): Record<string, string> {
  const tag = /<img\b([^>]*)\/?>/.exec(html)?.[1] ?? '';
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g))
    if (m[1]) out[m[1].toLowerCase()] = (m[2] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"');
  return out;
}

describe('<Image> rendered on the server', () => {
  it('has a width srcset, sizes, a resized src and the intrinsic size', () => {
    const a = attrs(
      renderToString(<Image src="/media/products/a/1.jpg" alt="Пальто" width={600} height={800} sizes="50vw" />),
    );
    expect(a.src).toBe('/img/640/products/a/1.jpg');
    expect(a.srcset?.split(', ')).toEqual(
      ['320', '640', '768', '1024', '1280', '1536', '2048', '2560', '3072'].map(
        (w) => `/img/${w}/products/a/1.jpg ${w}w`,
      ),
    );
    expect(a.sizes).toBe('50vw');
    expect(a).toMatchObject({ alt: 'Пальто', width: '600', height: '800', loading: 'lazy', decoding: 'async' });
  });

  it('uses density descriptors without sizes', () => {
    const a = attrs(renderToString(<Image src="/media/products/a/1.jpg" alt="" width={50} height={50} />));
    expect(a.srcset).toBe('/img/320/products/a/1.jpg 1x, /img/320/products/a/1.jpg 2x');
    expect(a.sizes).toBeUndefined();
  });

  it('limits the candidates to the widths given', () => {
    const a = attrs(
      renderToString(
        <Image src="/media/products/a/1.jpg" alt="" width={600} height={800} sizes="25vw" widths={[320, 640]} />,
      ),
    );
    expect(a.srcset).toBe('/img/320/products/a/1.jpg 320w, /img/640/products/a/1.jpg 640w');
  });

  it('passes SPEC §5 options through', () => {
    const a = attrs(
      renderToString(
        <Image
          src="/media/p/1.jpg"
          alt=""
          width={1}
          height={1}
          loading="eager"
          decoding="sync"
          crossOrigin="use-credentials"
          fetchPriority="high"
          className="hero"
        />,
      ),
    );
    expect(a).toMatchObject({
      loading: 'eager',
      decoding: 'sync',
      crossorigin: 'use-credentials',
      fetchpriority: 'high',
    });
    expect(a.class?.split(' ')).toEqual(['image', 'hero']);
    expect(
      attrs(renderToString(<Image src="/media/p/1.jpg" alt="" width={1} height={1} crossOrigin />)).crossorigin,
    ).toBe('');
    expect(
      attrs(renderToString(<Image src="/media/p/1.jpg" alt="" width={1} height={1} crossOrigin="" />)).crossorigin,
    ).toBe('');
    expect(
      attrs(renderToString(<Image src="/media/p/1.jpg" alt="" width={1} height={1} crossOrigin="anonymous" />))
        .crossorigin,
    ).toBe('anonymous');
  });

  it('shows the placeholder behind the photo until it loads', () => {
    const a = attrs(
      renderToString(<Image src="/media/products/a/1.jpg" alt="" width={600} height={800} sizes="50vw" placeholder />),
    );
    expect(a.class?.split(' ')).toContain('image--placeholder');
    expect(a.style).toBe('background-image:url("/img/placeholder/products/a/1.jpg")');
    const none = attrs(
      renderToString(<Image src="/media/products/a/1.jpg" alt="" width={600} height={800} sizes="50vw" />),
    );
    expect(none.style).toBeUndefined();
  });

  it('uses an external photo as it is, without srcset or placeholder', () => {
    const a = attrs(
      renderToString(
        <Image src="https://cdn.example.com/a.jpg" alt="" width={600} height={800} sizes="50vw" placeholder />,
      ),
    );
    expect(a.src).toBe('https://cdn.example.com/a.jpg');
    expect(a.srcset).toBeUndefined();
    expect(a.sizes).toBeUndefined();
    expect(a.style).toBeUndefined();
  });
});
