import { useId, useRef } from 'react';
import { onDemand, useOnDemand } from '~/app/lib/on-demand';
import type * as NewsletterModule from './NewsletterForm';
import type { NewsletterSoFar } from './NewsletterForm';

const newsletterForm = onDemand(() => import('./NewsletterForm'));

/**
 * The footer's newsletter form as the server sends it. Its code (NewsletterForm, the field, the
 * API client) loads when the form first takes the focus and replaces this in the same markup,
 * keeping what was typed and the focus; a form sent before that is sent once it is in.
 * Newsletter.test.tsx checks both render the same HTML.
 */
export function Newsletter() {
  const form = useRef<HTMLFormElement>(null);
  const { loaded, ask } = useOnDemand<typeof NewsletterModule, NewsletterSoFar>(newsletterForm);
  // Sent before the code was in: NewsletterForm sends it on taking over.
  const submitted = useRef(false);
  const take = (): NewsletterSoFar => {
    const field = form.current?.elements.namedItem('email');
    const input = field instanceof HTMLInputElement ? field : null;
    const active = document.activeElement;
    return {
      email: input?.value ?? '',
      focus: active && active === input ? 'email' : active && form.current?.contains(active) ? 'submit' : null,
      submitted: submitted.current,
    };
  };
  if (loaded) return <loaded.module.NewsletterForm typed={loaded.from} />;
  // The markup of NewsletterForm in its first state (TextField's included), children in the same places.
  return (
    <form
      ref={form}
      className="newsletter"
      aria-label="Подписка на рассылку"
      noValidate
      aria-busy={false}
      onFocus={() => ask(take)}
      onSubmit={(e) => {
        e.preventDefault();
        submitted.current = true;
        ask(take);
      }}
    >
      <p className="newsletter__text">Новые коллекции, поступления и специальные предложения — первыми.</p>
      {null}
      <div className="newsletter__row">
        <PlainField />
        <button type="submit" className="button newsletter__submit" disabled={false} aria-busy={false}>
          Подписаться
          {null}
        </button>
      </div>
    </form>
  );
}

/** TextField's markup, from the same place in the tree (so useId gives the server's id). */
function PlainField() {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        Электронная почта
      </label>
      <input
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        id={id}
        className="field__input"
        defaultValue=""
      />
      {null}
    </div>
  );
}
