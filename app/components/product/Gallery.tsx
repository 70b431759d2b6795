import { useEffect, useRef, useState } from 'react';
import type { PhotoValue } from '~/shared/contract';
import { Image } from '~/app/components/Image';
import { Dialog } from '~/app/components/catalog/Dialog';
import { CloseIcon } from '~/app/components/icons';

// Main photo: the full width on phones; beside the thumbnails on desktops (app/styles/product.css).
const MAIN_SIZES = '(min-width: 1440px) 640px, (min-width: 1024px) 46vw, 100vw';
const THUMB_WIDTHS = [320];

/**
 * The product's photos (SPEC §2 Product page): a swipeable strip (CSS scroll snap) with dots on
 * phones, thumbnails beside it on desktops; a click or tap opens the full-screen view.
 */
export function Gallery({ photos, name }: { photos: readonly PhotoValue[]; name: string }) {
  const track = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const [fullScreen, setFullScreen] = useState<number | null>(null);
  const frame = useRef(0);

  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  if (photos.length === 0) return <div className="gallery gallery--empty" aria-hidden="true" />;

  const show = (index: number, smooth = true) => {
    const el = track.current;
    const slide = el?.children[index] as HTMLElement | undefined;
    if (!el || !slide) return;
    el.scrollTo({ left: slide.offsetLeft, behavior: smooth ? 'smooth' : 'instant' });
    setActive(index);
  };

  const altOf = (p: PhotoValue, i: number) => p.ALT || `${name}, фото ${i + 1}`;

  return (
    <div className={photos.length > 1 ? 'gallery' : 'gallery gallery--single'}>
      {photos.length > 1 ? (
        <ul className="gallery__thumbs" aria-label="Фотографии товара">
          {photos.map((p, i) => (
            <li key={p.ID}>
              <button
                type="button"
                className="gallery__thumb"
                aria-label={`Фото ${i + 1} из ${photos.length}`}
                aria-current={i === active ? 'true' : undefined}
                onClick={() => show(i)}
              >
                <Image src={p.FULL} alt="" width={72} height={96} widths={THUMB_WIDTHS} sizes="72px" loading={i < 5 ? 'eager' : 'lazy'} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="gallery__stage">
        <div
          className="gallery__track"
          ref={track}
          onScroll={(e) => {
            const el = e.currentTarget;
            cancelAnimationFrame(frame.current);
            frame.current = requestAnimationFrame(() => setActive(slideIndexAt(el)));
          }}
        >
          {photos.map((p, i) => (
            <button type="button" key={p.ID} className="gallery__slide" onClick={() => setFullScreen(i)} aria-label={`Открыть фото ${i + 1} во весь экран`}>
              <Image
                src={p.FULL}
                alt={altOf(p, i)}
                width={p.WIDTH || 1200}
                height={p.HEIGHT || 1600}
                sizes={MAIN_SIZES}
                loading={i === 0 ? 'eager' : 'lazy'}
                fetchPriority={i === 0 ? 'high' : undefined}
                placeholder={i === 0}
              />
            </button>
          ))}
        </div>
        {photos.length > 1 ? (
          <>
            <PhotoArrows block="gallery" index={active} count={photos.length} onGo={show} />
            <div className="gallery__dots" aria-hidden="true">
              {photos.map((p, i) => (
                <span key={p.ID} className={i === active ? 'is-active' : undefined} />
              ))}
            </div>
          </>
        ) : null}
      </div>

      <Dialog open={fullScreen !== null} onClose={() => setFullScreen(null)} label={`${name}: фотографии`} className="lightbox">
        {fullScreen !== null ? (
          <Lightbox
            photos={photos}
            start={fullScreen}
            altOf={altOf}
            onClose={() => setFullScreen(null)}
            onIndex={(i) => {
              // Leave the page's gallery on the photo last seen full-screen.
              show(i, false);
            }}
          />
        ) : null}
      </Dialog>
    </div>
  );
}

/** Full-screen photos: swipe or arrows (keyboard too), a click or tap zooms in and out, Escape closes. */
function Lightbox({
  photos,
  start,
  altOf,
  onClose,
  onIndex,
}: {
  photos: readonly PhotoValue[];
  start: number;
  altOf: (p: PhotoValue, i: number) => string;
  onClose: () => void;
  onIndex: (index: number) => void;
}) {
  const track = useRef<HTMLDivElement>(null);
  const [index, setIndex] = useState(start);
  const [zoomed, setZoomed] = useState(false);
  const frame = useRef(0);
  // While go() scrolls to a slide, positions passed on the way must not move the index back.
  const heading = useRef<number | null>(null);

  useEffect(() => {
    const el = track.current;
    if (el) el.scrollTo({ left: start * el.clientWidth, behavior: 'instant' });
    return () => cancelAnimationFrame(frame.current);
  }, [start]);

  const go = (next: number) => {
    const el = track.current;
    if (!el || next < 0 || next >= photos.length) return;
    setZoomed(false);
    heading.current = next;
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    el.scrollTo({ left: next * el.clientWidth, behavior: reduced ? 'instant' : 'smooth' });
    setIndex(next);
    onIndex(next);
  };

  const toggleZoom = (e: React.MouseEvent<HTMLButtonElement>) => {
    const slide = e.currentTarget;
    const img = slide.querySelector('img');
    if (zoomed || !img) {
      setZoomed(false);
      return;
    }
    // Zoom in around the point clicked: keep it under the pointer once the photo is doubled.
    const rect = img.getBoundingClientRect();
    const within = (v: number) => Math.min(1, Math.max(0, v));
    const fx = rect.width ? within((e.clientX - rect.left) / rect.width) : 0.5;
    const fy = rect.height ? within((e.clientY - rect.top) / rect.height) : 0.5;
    setZoomed(true);
    requestAnimationFrame(() => {
      const zoomedImg = slide.querySelector('img');
      if (!zoomedImg) return;
      slide.scrollTo({
        left: Math.max(0, fx * zoomedImg.offsetWidth - slide.clientWidth / 2),
        top: Math.max(0, fy * zoomedImg.offsetHeight - slide.clientHeight / 2),
        behavior: 'instant',
      });
    });
  };

  return (
    <div
      className={`lightbox__inner${zoomed ? ' is-zoomed' : ''}`}
      onKeyDown={(e) => {
        if (e.key === 'ArrowRight') {
          e.preventDefault();
          go(index + 1);
        } else if (e.key === 'ArrowLeft') {
          e.preventDefault();
          go(index - 1);
        }
      }}
    >
      <div className="lightbox__bar">
        <p className="lightbox__count" aria-live="polite">
          {index + 1} / {photos.length}
        </p>
        <button type="button" className="icon-button lightbox__close" onClick={onClose} aria-label="Закрыть">
          <CloseIcon size={22} />
        </button>
      </div>
      <div
        className="lightbox__track"
        ref={track}
        // A swipe that interrupts an animated scroll hands the index back to the shopper.
        onPointerDown={() => (heading.current = null)}
        onScroll={(e) => {
          if (zoomed) return;
          const el = e.currentTarget;
          cancelAnimationFrame(frame.current);
          frame.current = requestAnimationFrame(() => {
            const i = Math.round(el.scrollLeft / Math.max(1, el.clientWidth));
            if (heading.current !== null) {
              if (Math.abs(el.scrollLeft - heading.current * el.clientWidth) > 1) return;
              heading.current = null;
            }
            if (i !== index) {
              setIndex(i);
              onIndex(i);
            }
          });
        }}
      >
        {photos.map((p, i) => {
          const isZoomed = zoomed && i === index;
          return (
            <button
              type="button"
              key={p.ID}
              className={`lightbox__slide${isZoomed ? ' is-zoomed' : ''}`}
              onClick={i === index ? toggleZoom : () => go(i)}
              aria-label={i !== index ? `Показать фото ${i + 1}` : isZoomed ? 'Уменьшить фото' : 'Увеличить фото'}
              tabIndex={i === index ? 0 : -1}
            >
              <Image
                src={p.FULL}
                alt={altOf(p, i)}
                width={p.WIDTH || 1200}
                height={p.HEIGHT || 1600}
                sizes={isZoomed ? '(min-width: 1024px) 1536px, 200vw' : '(min-width: 1024px) 75vh, 100vw'}
                loading={Math.abs(i - index) <= 1 ? 'eager' : 'lazy'}
              />
            </button>
          );
        })}
      </div>
      {photos.length > 1 ? (
        <>
          <PhotoArrows block="lightbox" index={index} count={photos.length} onGo={go} />
        </>
      ) : null}
    </div>
  );
}

/** Which slide of a scroll-snapped strip is in view (slides may be narrower than the strip on phones). */
function slideIndexAt(track: HTMLElement): number {
  const first = track.children[0] as HTMLElement | undefined;
  const second = track.children[1] as HTMLElement | undefined;
  const step = first && second ? second.offsetLeft - first.offsetLeft : track.clientWidth;
  return Math.min(track.children.length - 1, Math.max(0, Math.round(track.scrollLeft / Math.max(1, step))));
}

/** Previous and next photo, for the page's gallery and the full-screen view alike. */
function PhotoArrows({ block, index, count, onGo }: { block: 'gallery' | 'lightbox'; index: number; count: number; onGo: (i: number) => void }) {
  return (
    <>
      <button
        type="button"
        className={`${block}__arrow ${block}__arrow--prev`}
        aria-label="Предыдущее фото"
        disabled={index === 0}
        onClick={() => onGo(index - 1)}
      >
        <Arrow dir="left" />
      </button>
      <button
        type="button"
        className={`${block}__arrow ${block}__arrow--next`}
        aria-label="Следующее фото"
        disabled={index >= count - 1}
        onClick={() => onGo(index + 1)}
      >
        <Arrow dir="right" />
      </button>
    </>
  );
}

function Arrow({ dir }: { dir: 'left' | 'right' }) {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true">
      <path d={dir === 'left' ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'} stroke="currentColor" strokeWidth="1.5" fill="none" />
    </svg>
  );
}
