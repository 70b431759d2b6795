import { useState } from 'react';
import { useRevalidator } from 'react-router';
import type { OwnReview, ReviewLine, ReviewLinesResponse, ReviewWriteResponse } from '~/shared/reviews-contract';
import { FIT_LABELS, FITS, REVIEW_PHOTOS_MAX, REVIEW_TEXT_MAX, type Fit } from '~/core/reviews';
import { formatRussianDate } from '~/core/dates';
import { mediaUrl } from '~/shared/image-url';
import { useRootData } from '~/app/lib/root-data';
import { StarIcon } from '~/app/ui/icons';

// Reviews in an order of the account (issue #32): each line that may be reviewed gets
// «Оставить отзыв» and its form (rating, fit, text, optional height and usual size, up to five
// photos); a written review shows its moderation state, the reason when rejected, and a rejected
// one can be edited and sent again once. The form posts JSON straight to the API (photos are too
// large for a page form): the browser scales each photo to at most 2000 px first, the server
// checks and re-encodes it again (server/review-photos.server.ts).

export function OrderReviews({ reviews }: { reviews: ReviewLinesResponse | null }) {
  const lines = reviews?.lines.filter((l) => l.can_review || l.review) ?? [];
  if (!reviews || lines.length === 0) return null;
  return (
    <section className="order-reviews" aria-labelledby="order-reviews">
      <h2 className="order-placed__title" id="order-reviews">
        Отзывы о покупках
      </h2>
      <p className="order-card__hint">{reviews.window_note}</p>
      <ul className="order-reviews__list">
        {lines.map((l) => (
          <ReviewLineItem key={`${l.offer_id}:${l.is_preorder}`} line={l} />
        ))}
      </ul>
    </section>
  );
}

function ReviewLineItem({ line }: { line: ReviewLine }) {
  const [open, setOpen] = useState(false);
  const review = line.review;
  return (
    <li className="order-reviews__line" id={`review-${line.offer_id}`}>
      <p className="order-reviews__title">
        <strong>{line.title}</strong> <span className="order-reviews__muted">размер {line.size}</span>
      </p>
      {review ? <ReviewState review={review} /> : null}
      {!review && line.can_review ? (
        <p className="order-reviews__muted">Можно оставить до {line.until ? formatRussianDate(line.until) : ''}</p>
      ) : null}
      {(line.can_review || review?.can_resend) && !open ? (
        <button type="button" className="button" onClick={() => setOpen(true)}>
          {review ? 'Исправить и отправить снова' : 'Оставить отзыв'}
        </button>
      ) : null}
      {open ? <ReviewForm line={line} onDone={() => setOpen(false)} /> : null}
    </li>
  );
}

function ReviewState({ review }: { review: OwnReview }) {
  return (
    <div className="order-reviews__state" data-status={review.status}>
      <p>
        Ваш отзыв: <strong>{review.status_label}</strong> · оценка {review.rating} из 5 · {FIT_LABELS[review.fit]}
      </p>
      {review.reject_reason ? <p className="order-reviews__reason">Причина: {review.reject_reason}</p> : null}
      {review.status === 'rejected' && !review.can_resend ? (
        <p className="order-reviews__muted">Отклонённый отзыв можно исправить только один раз.</p>
      ) : null}
      <p className="order-reviews__text">{review.text}</p>
      {review.photos.length ? (
        <p className="order-reviews__photos">
          {review.photos.map((p) => (
            <img key={p.path} src={mediaUrl(p.path)} alt="" width={48} height={64} loading="lazy" />
          ))}
        </p>
      ) : null}
      {review.reply ? <p className="order-reviews__reply">Ответ магазина: {review.reply}</p> : null}
    </div>
  );
}

/** A photo file scaled to at most 2000 px and sent as JPEG base64 (the server checks it again). */
async function photoData(file: File): Promise<string> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, 2000 / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL('image/jpeg', 0.88);
  } catch {
    // Not decodable here: sent as it is, the server says what is wrong with it.
    return await new Promise<string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => reject(new Error('read'));
      reader.readAsDataURL(file);
    });
  }
}

function ReviewForm({ line, onDone }: { line: ReviewLine; onDone: () => void }) {
  const base = useRootData()?.env?.API_BASE_URL ?? '/backend';
  const revalidator = useRevalidator();
  const old = line.review;
  const [error, setError] = useState<{ text: string; field?: string | undefined } | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const files = form.getAll('photos').filter((f): f is File => f instanceof File && f.size > 0);
    if (files.length > REVIEW_PHOTOS_MAX) {
      setError({ text: `Можно приложить не больше ${REVIEW_PHOTOS_MAX} фотографий`, field: 'photos' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const photos = await Promise.all(files.map(photoData));
      const body = {
        rating: String(form.get('rating') ?? ''),
        fit: String(form.get('fit') ?? ''),
        text: String(form.get('text') ?? ''),
        height: String(form.get('height') ?? ''),
        usual_size: String(form.get('usual_size') ?? ''),
        ...(old
          ? { review_id: old.id, ...(photos.length ? { photos } : { keep_photos: true }) }
          : { order_id: line.order_id, offer_id: line.offer_id, is_preorder: line.is_preorder, photos }),
      };
      const res = await fetch(`${base}/api/personal/${old ? 'review_resend' : 'review_add'}.php`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        credentials: 'same-origin',
      });
      const answer = (await res.json().catch(() => null)) as (ReviewWriteResponse & { error?: string }) | null;
      if (!res.ok || !answer) setError({ text: answer?.error ?? 'Не удалось отправить отзыв. Попробуйте ещё раз.' });
      else if (!answer.success) setError({ text: answer.error, field: answer.field });
      else {
        setDone(answer.published ? 'Спасибо! Отзыв опубликован.' : 'Спасибо! Отзыв появится на сайте после проверки.');
        void revalidator.revalidate();
        setTimeout(onDone, 2500);
      }
    } catch {
      setError({ text: 'Не удалось отправить отзыв. Проверьте соединение и попробуйте ещё раз.' });
    } finally {
      setBusy(false);
    }
  }

  if (done)
    return (
      <p className="account-form__done" role="status">
        {done}
      </p>
    );
  const invalid = (field: string) => (error?.field === field ? true : undefined);
  return (
    <form className="review-form" onSubmit={(e) => void submit(e)} noValidate>
      <fieldset className="review-form__rating" aria-invalid={invalid('rating')}>
        <legend>Оценка</legend>
        {[1, 2, 3, 4, 5].map((r) => (
          <label key={r}>
            <input type="radio" name="rating" value={r} defaultChecked={old?.rating === r} required />
            <span aria-hidden="true">
              <StarIcon size={24} />
            </span>
            <span className="visually-hidden">{r}</span>
          </label>
        ))}
      </fieldset>
      <fieldset className="review-form__fit" aria-invalid={invalid('fit')}>
        <legend>Как сидит</legend>
        {FITS.map((f: Fit) => (
          <label key={f}>
            <input type="radio" name="fit" value={f} defaultChecked={old?.fit === f} required /> {FIT_LABELS[f]}
          </label>
        ))}
      </fieldset>
      <p className="review-form__size">Размер: {line.size}</p>
      <label className="review-form__field">
        <span>Отзыв</span>
        <textarea
          name="text"
          rows={5}
          maxLength={REVIEW_TEXT_MAX}
          defaultValue={old?.text ?? ''}
          required
          aria-invalid={invalid('text')}
        />
      </label>
      <div className="review-form__row">
        <label className="review-form__field">
          <span>Рост, см (необязательно)</span>
          <input
            name="height"
            inputMode="numeric"
            maxLength={3}
            defaultValue={old?.height_cm ?? ''}
            aria-invalid={invalid('height')}
          />
        </label>
        <label className="review-form__field">
          <span>Обычный размер (необязательно)</span>
          <input
            name="usual_size"
            maxLength={10}
            defaultValue={old?.usual_size ?? ''}
            aria-invalid={invalid('usual_size')}
          />
        </label>
      </div>
      <label className="review-form__field">
        <span>
          Фото, до {REVIEW_PHOTOS_MAX} (JPEG, PNG или WebP){old?.photos.length ? ': новые заменят прежние' : ''}
        </span>
        <input
          type="file"
          name="photos"
          accept="image/jpeg,image/png,image/webp"
          multiple
          aria-invalid={invalid('photos')}
        />
      </label>
      {error ? (
        <p className="form-error" role="alert">
          {error.text}
        </p>
      ) : null}
      <p className="review-form__actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? 'Отправляем…' : 'Отправить отзыв'}
        </button>
        <button type="button" className="button button--ghost" onClick={onDone} disabled={busy}>
          Отмена
        </button>
      </p>
      <p className="order-reviews__muted">Мы покажем только ваше имя. Ссылки в тексте не будут кликабельными.</p>
    </form>
  );
}
