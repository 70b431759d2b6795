import { useEffect, useState } from 'react';
import type {
  PublicReview,
  ReviewHelpfulResponse,
  ReviewLinesResponse,
  ReviewListResponse,
  ReviewPhoto,
  ReviewVotesResponse,
} from '~/shared/reviews-contract';
import { ratingText, reviewsCountText } from '~/core/rating-text';
import { mediaUrl } from '~/shared/image-url';
import { formatRussianDate } from '~/core/dates';
import { Image } from '~/app/ui/Image';
import { Dialog } from '~/app/ui/Dialog';
import { CloseIcon, StarIcon, ThumbUpIcon } from '~/app/ui/icons';
import { useBrowserApi } from '~/app/lib/browser-api';
import { useShopperCounts } from '~/app/lib/shopper-state';
import { useRootData } from '~/app/lib/root-data';

// Product reviews on the product page (issue #32, docs/reviews.md). What the server renders is
// public (the first page of published reviews, the rating, the fit advice) and stays in the guest
// page cache; a publication bumps the catalogue version, which empties it. Sorting, filters and
// further pages are the public list call from the browser. Whether this shopper may write a
// review, and which reviews they marked «Помог», is personal: asked after paint, only when logged
// in. «Помог» is one vote per customer and review (not a toggle); a guest is asked to log in.

/** A JSON call of the review API from the browser: the HttpOnly session cookie stands in for the token (same origin only). */
async function postReviewApi<T>(base: string, path: string, body: Record<string, string>) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const answer = (await res.json().catch(() => null)) as (T & { error?: string }) | { error?: string } | null;
  return { status: res.status, body: answer };
}

const HELPFUL_LOGIN = 'Войдите, чтобы отметить отзыв полезным';
const HELPFUL_FAILED = 'Не удалось отметить отзыв. Попробуйте ещё раз.';

/** What «Помог» under one review shows: the count, this shopper's vote, a note after a press. */
interface HelpfulState {
  count: number;
  voted: boolean;
  own: boolean;
  busy: boolean;
  note: { text: string; login: boolean } | null;
}

export function Stars({ value, label }: { value: number; label?: string }) {
  const full = Math.round(value);
  return (
    <span className="stars" role="img" aria-label={label ?? `Оценка ${ratingText(value)} из 5`}>
      {[1, 2, 3, 4, 5].map((i) => (
        <span key={i} aria-hidden="true" className={i <= full ? 'stars__on' : 'stars__off'}>
          <StarIcon size={16} />
        </span>
      ))}
    </span>
  );
}

/** The average and the count near the price, a link to the section; nothing without reviews. */
export function RatingLink({ reviews }: { reviews: ReviewListResponse | null }) {
  if (!reviews || reviews.summary.count === 0) return null;
  const { average, count } = reviews.summary;
  return (
    <a href="#reviews" className="product__rating">
      <Stars value={average} />
      <span className="product__rating-value">{ratingText(average)}</span>
      <span className="product__rating-count">{reviewsCountText(count)}</span>
    </a>
  );
}

/** The fit advice beside the size picker, once enough buyers answered alike. */
export function FitAdviceNote({ reviews }: { reviews: ReviewListResponse | null }) {
  const text = reviews?.summary.fit.advice_text;
  if (!text) return null;
  return (
    <p className="product__fit" data-fit={reviews.summary.fit.advice ?? ''}>
      {text}
      <span className="product__fit-count">
        {' '}
        ({reviewsCountText(reviews.summary.fit.total).replace('отзыв', 'ответ')} о посадке)
      </span>
    </p>
  );
}

type Filter = { sort: 'new' | 'helpful'; rating: number | null; photos: boolean };

export function ProductReviews({ productId, initial }: { productId: number; initial: ReviewListResponse | null }) {
  const api = useBrowserApi();
  const [data, setData] = useState(initial);
  const [filter, setFilter] = useState<Filter>({ sort: 'new', rating: null, photos: false });
  const [items, setItems] = useState<PublicReview[]>(initial?.items ?? []);
  const [page, setPage] = useState(1);
  const [busy, setBusy] = useState(false);
  const [viewer, setViewer] = useState<{ photos: ReviewPhoto[]; index: number } | null>(null);
  const { loggedIn } = useShopperCounts();
  const base = useRootData()?.env?.API_BASE_URL ?? '/backend';
  // This shopper's votes and own reviews (after paint), and what their presses changed.
  const [votes, setVotes] = useState<{
    voted: ReadonlySet<number>;
    own: ReadonlySet<number>;
    helpful: Readonly<Record<string, number>>;
  } | null>(null);
  const [pressed, setPressed] = useState<
    ReadonlyMap<number, Partial<Pick<HelpfulState, 'count' | 'voted' | 'busy' | 'note'>>>
  >(new Map());
  const hasReviews = (initial?.summary.count ?? 0) > 0;
  useEffect(() => {
    if (!loggedIn || !hasReviews) return;
    let live = true;
    postReviewApi<ReviewVotesResponse>(base, '/api/reviews/my_votes.php', { product_id: String(productId) })
      .then(({ status, body }) => {
        if (!live || status !== 200 || !body || !('voted' in body)) return;
        setVotes({ voted: new Set(body.voted), own: new Set(body.own), helpful: body.helpful });
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [loggedIn, hasReviews, productId, base]);

  const helpfulOf = (r: PublicReview): HelpfulState => {
    const p = pressed.get(r.id);
    return {
      // The cached page's count may lag (docs/reviews.md); this shopper's own vote is always in it.
      count: p?.count ?? Math.max(r.helpful, votes?.helpful[String(r.id)] ?? 0),
      voted: p?.voted ?? votes?.voted.has(r.id) ?? false,
      own: votes?.own.has(r.id) ?? false,
      busy: p?.busy ?? false,
      note: p?.note ?? null,
    };
  };
  const press = (id: number, patch: Partial<Pick<HelpfulState, 'count' | 'voted' | 'busy' | 'note'>>) =>
    setPressed((prev) => new Map(prev).set(id, { ...prev.get(id), ...patch }));
  const voteHelpful = (r: PublicReview) => {
    const state = helpfulOf(r);
    if (state.busy || state.voted || state.own) return;
    if (!loggedIn) return press(r.id, { note: { text: HELPFUL_LOGIN, login: true } });
    press(r.id, { busy: true, note: null });
    postReviewApi<ReviewHelpfulResponse>(base, '/api/reviews/helpful.php', { review_id: String(r.id) })
      .then(({ status, body }) => {
        if (status === 200 && body && 'success' in body) {
          if (body.success) return press(r.id, { busy: false, count: body.helpful, voted: true });
          return press(r.id, { busy: false, note: { text: body.error ?? HELPFUL_FAILED, login: false } });
        }
        if (status === 401) return press(r.id, { busy: false, note: { text: HELPFUL_LOGIN, login: true } });
        press(r.id, { busy: false, note: { text: body?.error ?? HELPFUL_FAILED, login: false } });
      })
      .catch(() => press(r.id, { busy: false, note: { text: HELPFUL_FAILED, login: false } }));
  };

  const load = (next: Filter, nextPage = 1) => {
    setBusy(true);
    api
      .getReviews(productId, { sort: next.sort, rating: next.rating, photos: next.photos, page: nextPage })
      .then((answer) => {
        setData(answer);
        setItems((prev) => (nextPage > 1 ? [...prev, ...answer.items] : answer.items));
        setPage(nextPage);
      })
      .catch(() => {})
      .finally(() => setBusy(false));
  };
  const change = (patch: Partial<Filter>) => {
    const next = { ...filter, ...patch };
    setFilter(next);
    load(next);
  };

  const summary = data?.summary ?? initial?.summary;
  const count = initial?.summary.count ?? 0;
  return (
    <section className="reviews" id="reviews" aria-labelledby="reviews-title">
      <h2 className="reviews__title" id="reviews-title">
        Отзывы {count > 0 ? <span className="reviews__count">{count}</span> : null}
      </h2>
      {summary && count > 0 ? (
        <div className="reviews__summary">
          <p className="reviews__average">
            <span className="reviews__average-value">{ratingText(summary.average)}</span>
            <Stars value={summary.average} />
            <span className="reviews__average-count">{reviewsCountText(summary.count)}</span>
          </p>
          {summary.fit.advice_text ? <p className="reviews__fit">{summary.fit.advice_text}</p> : null}
        </div>
      ) : (
        <p className="reviews__empty">
          Отзывов пока нет. Оставить отзыв могут покупатели этой модели — в личном кабинете, в заказе.
        </p>
      )}
      <WriteReviewHint productId={productId} />

      {count > 0 ? (
        <div className="reviews__controls" role="group" aria-label="Сортировка и фильтры отзывов">
          <label className="reviews__sort">
            <span className="visually-hidden">Сортировка</span>
            <select
              value={filter.sort}
              onChange={(e) => change({ sort: e.target.value === 'helpful' ? 'helpful' : 'new' })}
            >
              <option value="new">Сначала новые</option>
              <option value="helpful">Сначала полезные</option>
            </select>
          </label>
          <div className="reviews__chips">
            <button
              type="button"
              className="chip"
              aria-pressed={filter.rating === null}
              onClick={() => change({ rating: null })}
            >
              Все
            </button>
            {[5, 4, 3, 2, 1].map((r) => (
              <button
                key={r}
                type="button"
                className="chip"
                aria-pressed={filter.rating === r}
                aria-label={`Оценка ${r}`}
                disabled={(summary?.histogram[r - 1] ?? 0) === 0 && filter.rating !== r}
                onClick={() => change({ rating: filter.rating === r ? null : r })}
              >
                {r} <StarIcon size={14} />
              </button>
            ))}
            <button
              type="button"
              className="chip"
              aria-pressed={filter.photos}
              disabled={!summary?.with_photos && !filter.photos}
              onClick={() => change({ photos: !filter.photos })}
            >
              С фото
            </button>
          </div>
        </div>
      ) : null}

      <ul className="reviews__list" aria-busy={busy}>
        {items.map((r) => (
          <ReviewItem
            key={r.id}
            review={r}
            helpful={helpfulOf(r)}
            onHelpful={() => voteHelpful(r)}
            onPhoto={(index) => setViewer({ photos: r.photos, index })}
          />
        ))}
      </ul>
      {count > 0 && items.length === 0 && !busy ? <p className="reviews__empty">Таких отзывов нет.</p> : null}
      {data && page < data.page_count ? (
        <button
          type="button"
          className="button button--ghost reviews__more"
          disabled={busy}
          onClick={() => load(filter, page + 1)}
        >
          Показать ещё
        </button>
      ) : null}
      {summary ? <p className="reviews__note">{summary.window_note}</p> : null}

      <Dialog open={viewer !== null} onClose={() => setViewer(null)} label="Фото покупателя" className="review-photo">
        {viewer ? (
          <PhotoViewer
            photos={viewer.photos}
            index={viewer.index}
            onIndex={(index) => setViewer({ ...viewer, index })}
            onClose={() => setViewer(null)}
          />
        ) : null}
      </Dialog>
    </section>
  );
}

function ReviewItem({
  review,
  helpful,
  onHelpful,
  onPhoto,
}: {
  review: PublicReview;
  helpful: HelpfulState;
  onHelpful: () => void;
  onPhoto: (index: number) => void;
}) {
  return (
    <li className="review">
      <p className="review__head">
        <strong className="review__author">{review.author}</strong>
        <span className="review__date">{formatRussianDate(review.date)}</span>
      </p>
      <Stars value={review.rating} />
      <p className="review__facts">
        Размер {review.size} · {review.fit_label}
        {review.height_cm ? ` · рост ${review.height_cm} см` : ''}
        {review.usual_size ? ` · обычно носит ${review.usual_size}` : ''}
      </p>
      {/* Plain text: React escapes it, so markup and links stay words (never clickable). */}
      <p className="review__text">{review.text}</p>
      {review.photos.length ? (
        <ul className="review__photos">
          {review.photos.map((p, i) => (
            <li key={p.path}>
              <button
                type="button"
                className="review__photo"
                onClick={() => onPhoto(i)}
                aria-label={`Фото ${i + 1} из ${review.photos.length}`}
              >
                <Image
                  src={mediaUrl(p.path)}
                  alt=""
                  width={72}
                  height={96}
                  sizes="72px"
                  widths={[160, 320]}
                  loading="lazy"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {review.reply ? (
        <div className="review__reply">
          <p className="review__reply-title">Ответ магазина</p>
          <p className="review__text">{review.reply}</p>
        </div>
      ) : null}
      <HelpfulButton state={helpful} onPress={onHelpful} />
    </li>
  );
}

/** «Помог» with the count: pressed once it is this shopper's vote; their own review cannot be voted for. */
function HelpfulButton({ state, onPress }: { state: HelpfulState; onPress: () => void }) {
  const { count, voted, own, busy, note } = state;
  const next = typeof window === 'undefined' ? '/' : `${window.location.pathname}${window.location.search}#reviews`;
  return (
    <div className="review__helpful">
      <button
        type="button"
        className="review__helpful-button"
        aria-pressed={voted}
        aria-busy={busy}
        disabled={own}
        title={voted ? 'Вы отметили, что отзыв помог' : undefined}
        onClick={onPress}
      >
        <ThumbUpIcon size={16} />
        <span>Помог</span>
        {count > 0 ? <span className="review__helpful-count">{count}</span> : null}
      </button>
      <span className="review__helpful-note" role="status">
        {own ? 'Это ваш отзыв' : null}
        {note ? (
          note.login ? (
            <>
              <a href={`/auth/?next=${encodeURIComponent(next)}`}>Войдите</a>
              {note.text.replace(/^Войдите/, '')}
            </>
          ) : (
            note.text
          )
        ) : null}
      </span>
    </div>
  );
}

function PhotoViewer({
  photos,
  index,
  onIndex,
  onClose,
}: {
  photos: ReviewPhoto[];
  index: number;
  onIndex: (i: number) => void;
  onClose: () => void;
}) {
  const photo = photos[index];
  if (!photo) return null;
  return (
    <div className="review-photo__inner">
      <div className="review-photo__bar">
        <span>
          {index + 1} / {photos.length}
        </span>
        <button type="button" className="review-photo__close" onClick={onClose} aria-label="Закрыть">
          <CloseIcon />
        </button>
      </div>
      <Image
        src={mediaUrl(photo.path)}
        alt="Фото покупателя"
        width={photo.width}
        height={photo.height}
        sizes="100vw"
        widths={[640, 1024, 1440]}
      />
      {photos.length > 1 ? (
        <div className="review-photo__nav">
          <button
            type="button"
            className="button button--ghost"
            disabled={index === 0}
            onClick={() => onIndex(index - 1)}
          >
            Назад
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={index === photos.length - 1}
            onClick={() => onIndex(index + 1)}
          >
            Вперёд
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** «Оставить отзыв» for a logged-in buyer of this model: asked after paint, never in the cached page. */
function WriteReviewHint({ productId }: { productId: number }) {
  const { loggedIn } = useShopperCounts();
  const base = useRootData()?.env?.API_BASE_URL ?? '/backend';
  const [line, setLine] = useState<ReviewLinesResponse['lines'][number] | null>(null);
  useEffect(() => {
    if (!loggedIn) return;
    let live = true;
    fetch(`${base}/api/personal/review_lines.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ product_id: String(productId) }),
      credentials: 'same-origin',
    })
      .then((res) => (res.ok ? (res.json() as Promise<ReviewLinesResponse>) : null))
      .then((answer) => {
        if (live) setLine(answer?.lines.find((l) => l.can_review) ?? null);
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [loggedIn, productId, base]);
  if (!line) return null;
  return (
    <p className="reviews__write">
      <a className="button" href={`/personal/orders/${line.order_id}/#review-${line.offer_id}`}>
        Оставить отзыв
      </a>
      <span className="reviews__write-note">
        Вы покупали эту модель (размер {line.size}): расскажите, как она сидит.
      </span>
    </p>
  );
}
