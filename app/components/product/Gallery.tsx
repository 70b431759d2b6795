import { useEffect, useRef, useState } from 'react';
import type { PhotoValue } from '~/shared/contract';
import { Image } from '~/app/ui/Image';
import { ExpandIcon } from '~/app/ui/icons';
import { onDemand } from '~/app/lib/on-demand';

// Main photo: the full width on phones; beside the thumbnails on desktops (app/styles/product.css).
const MAIN_SIZES = '(min-width: 1440px) 640px, (min-width: 1024px) 46vw, 100vw';
const THUMB_WIDTHS = [320];

// The full-screen view and its dialog load with the first click on a photo (few shoppers open it).
const lightbox = onDemand(() => import('./Lightbox'));

/**
 * The product's photos (SPEC §2 Product page): a swipeable strip (CSS scroll snap) with dots on
 * phones, thumbnails beside it on desktops; a click or tap opens the full-screen view.
 */
export function Gallery({ photos, name }: { photos: readonly PhotoValue[]; name: string }) {
  const track = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const [fullScreen, setFullScreen] = useState<number | null>(null);
  const [loaded, setLoaded] = useState(() => lightbox.current);
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

  const label = `${name}: фотографии`;
  const altOf = (p: PhotoValue, i: number) => p.ALT || `${name}, фото ${i + 1}`;

  const open = (index: number) => {
    setFullScreen(index);
    if (!loaded)
      lightbox.load().then(setLoaded, (error: unknown) => console.warn('full-screen view not loaded', error));
  };

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
                <Image
                  src={p.FULL}
                  alt=""
                  width={72}
                  height={96}
                  widths={THUMB_WIDTHS}
                  sizes="72px"
                  loading={i < 5 ? 'eager' : 'lazy'}
                />
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
            <button
              type="button"
              key={p.ID}
              className="gallery__slide"
              onClick={() => open(i)}
              aria-label={`Открыть фото ${i + 1} во весь экран`}
            >
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
        {/* Said out loud on every width: a click on the photo opens the same view, but a desktop
            visitor does not expect a photo to be a button (issue #26). */}
        <button
          type="button"
          className="gallery__expand"
          onClick={() => open(active)}
          aria-label="Полноэкранный просмотр"
          title="Полноэкранный просмотр"
        >
          <ExpandIcon size={20} />
        </button>
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

      {loaded ? (
        <loaded.FullScreen
          photos={photos}
          start={fullScreen}
          label={label}
          Arrows={PhotoArrows}
          altOf={altOf}
          onClose={() => setFullScreen(null)}
          onIndex={(i) => {
            // Leave the page's gallery on the photo last seen full-screen.
            show(i, false);
          }}
        />
      ) : (
        // What the closed Dialog renders, until the full-screen view's code is in.
        <dialog className="lightbox" aria-label={label} />
      )}
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
export function PhotoArrows({
  block,
  index,
  count,
  onGo,
}: {
  block: 'gallery' | 'lightbox';
  index: number;
  count: number;
  onGo: (i: number) => void;
}) {
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
      <path
        d={dir === 'left' ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'}
        stroke="currentColor"
        strokeWidth="1.5"
        fill="none"
      />
    </svg>
  );
}
