import { useEffect, useRef, useState } from 'react';
import type { SyntheticEvent } from 'react';
import { buildDensitySrcSet, buildSrcSet, IMAGE_WIDTHS, imageUrl, placeholderUrl } from '~/shared/image-url';

export interface ImageProps {
  /** A '/media/…' photo (resized through /img/); any other URL is used as it is. */
  src: string;
  alt: string;
  /** Intrinsic size: reserves the box (no layout shift); without `sizes`, also the CSS width for the 1x/2x srcset. */
  width: number;
  height: number;
  /** With `sizes`, the srcset lists widths ('… 640w'); without it, densities ('… 1x, … 2x') for `width`. */
  sizes?: string;
  /** Candidate widths of the srcset (default: every width the image server makes). */
  widths?: readonly number[];
  loading?: 'lazy' | 'eager';
  decoding?: 'async' | 'auto' | 'sync';
  /** SPEC §5: anonymous, use-credentials, empty or boolean (true is the bare attribute, i.e. anonymous). */
  crossOrigin?: 'anonymous' | 'use-credentials' | '' | true;
  /** SPEC §4: the blurred 10×10 placeholder shows until the photo has loaded, then it is swapped. */
  placeholder?: boolean;
  fetchPriority?: 'high' | 'low' | 'auto';
  className?: string;
  /** SPEC §8: load errors reach the caller as an error event, also when they happened before hydration. */
  onError?: (event: SyntheticEvent<HTMLImageElement, Event>) => void;
}

/**
 * A product photo as a plain server-rendered `<img>` (it starts loading before hydration) with
 * a srcset over the image server's widths and, optionally, its placeholder as a background
 * that is dropped once the photo has loaded.
 */
export function Image({
  src,
  alt,
  width,
  height,
  sizes,
  widths = IMAGE_WIDTHS,
  loading = 'lazy',
  decoding = 'async',
  crossOrigin,
  placeholder = false,
  fetchPriority,
  className,
  onError,
}: ImageProps) {
  const ref = useRef<HTMLImageElement>(null);
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  // Which src React has seen settle, so an event replayed after hydration is not reported twice.
  const settled = useRef<string | null>(null);

  const srcSet = sizes ? buildSrcSet(src, widths) : buildDensitySrcSet(src, width);
  const placeholderSrc = placeholder ? placeholderUrl(src) : null;
  const showPlaceholder = placeholderSrc !== null && loadedSrc !== src;
  const markLoaded = () => {
    settled.current = src;
    setLoadedSrc(src);
  };

  // The photo may have loaded, or failed, before React hydrated: the browser fired its event
  // when nobody listened. A load is taken as onLoad takes it, directly: a page hydrates with
  // dozens of loaded photos, and a replayed event each through React's event system was a
  // sixth of the hydration's last task. A failure is replayed on the element, so the caller's
  // onError gets its event as usual.
  useEffect(() => {
    const img = ref.current;
    if (!img || !img.complete || settled.current !== null) return;
    if (img.naturalWidth > 0) markLoaded();
    else img.dispatchEvent(new Event('error'));
    // Only the first render can have missed an event; later src changes fire their own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <img
      ref={ref}
      src={imageUrl(src, width)}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      width={width}
      height={height}
      loading={loading}
      decoding={decoding}
      crossOrigin={crossOrigin === true ? '' : crossOrigin}
      fetchPriority={fetchPriority}
      className={['image', showPlaceholder ? 'image--placeholder' : '', className ?? ''].filter(Boolean).join(' ')}
      style={showPlaceholder ? { backgroundImage: `url("${placeholderSrc}")` } : undefined}
      onLoad={markLoaded}
      onError={(event) => {
        if (settled.current === `error:${src}`) return;
        settled.current = `error:${src}`;
        onError?.(event);
      }}
    />
  );
}
