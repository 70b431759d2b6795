import { useEffect, useRef, useState } from 'react';
import type { PhotoValue } from '~/shared/contract';
import { Image } from '~/app/ui/Image';
import { Dialog } from '~/app/ui/Dialog';
import { CloseIcon } from '~/app/ui/icons';
import type { PhotoArrows } from './Gallery';

// The gallery's full-screen view, loaded on the first click on a photo (Gallery.tsx renders the
// same closed <dialog> until then): few shoppers open it, so the page does not download it. The
// arrows come from the gallery as a prop: an import of Gallery.tsx from here made Rollup split the
// gallery into a chunk of its own.

/** The full-screen view in its modal dialog; `start` is null while it is closed. */
export function FullScreen({
  photos,
  start,
  label,
  altOf,
  onClose,
  onIndex,
  Arrows,
}: {
  photos: readonly PhotoValue[];
  start: number | null;
  label: string;
  altOf: (p: PhotoValue, i: number) => string;
  onClose: () => void;
  onIndex: (index: number) => void;
  Arrows: typeof PhotoArrows;
}) {
  return (
    <Dialog open={start !== null} onClose={onClose} label={label} className="lightbox">
      {start !== null ? (
        <Lightbox photos={photos} start={start} altOf={altOf} onClose={onClose} onIndex={onIndex} Arrows={Arrows} />
      ) : null}
    </Dialog>
  );
}

/** Full-screen photos: swipe or arrows (keyboard too), a click or tap zooms in and out, Escape closes. */
function Lightbox({
  photos,
  start,
  altOf,
  onClose,
  onIndex,
  Arrows,
}: {
  photos: readonly PhotoValue[];
  start: number;
  altOf: (p: PhotoValue, i: number) => string;
  onClose: () => void;
  onIndex: (index: number) => void;
  Arrows: typeof PhotoArrows;
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
          <Arrows block="lightbox" index={index} count={photos.length} onGo={go} />
        </>
      ) : null}
    </div>
  );
}
