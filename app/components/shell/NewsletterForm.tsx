import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { TextField } from '~/app/ui/TextField';
import { useBrowserApi } from '~/app/lib/browser-api';

/** SPEC §8: what a failed call shows when the server gave no message of its own. */
const SERVER_ERROR = 'Произошла ошибка на сервере. Пожалуйста, попробуйте позже.';

type State =
  { kind: 'idle' } | { kind: 'loading' } | { kind: 'success'; message: string } | { kind: 'error'; error: string };

/** What the shopper did in the form before this code loaded (Newsletter.tsx). */
export interface NewsletterSoFar {
  email: string;
  focus: 'email' | 'submit' | null;
  submitted: boolean;
}

/**
 * SPEC §4 Newsletter form in the footer: idle → loading (the 38×38 spinner of §9 in the
 * button) → success (the form gives way to the server's message) or error (the server's text
 * above the field; the form stays). No check of the address here (§5): the server decides.
 */
export function NewsletterForm({ typed }: { typed: NewsletterSoFar | null }) {
  const api = useBrowserApi();
  const [email, setEmail] = useState(typed?.email ?? '');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const sending = useRef(false);
  const done = useRef<HTMLParagraphElement>(null);

  // The button that had the focus is gone: the message takes it, so the keyboard stays here.
  useEffect(() => {
    if (state.kind === 'success') done.current?.focus();
  }, [state.kind]);

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void send();
  }

  async function send() {
    if (sending.current) return;
    sending.current = true;
    setState({ kind: 'loading' });
    try {
      const res = await api.subscribeNewsletter(email);
      setState(
        'message' in res
          ? { kind: 'success', message: res.message }
          : { kind: 'error', error: res.error || SERVER_ERROR },
      );
    } catch {
      setState({ kind: 'error', error: SERVER_ERROR });
    } finally {
      sending.current = false;
    }
  }

  // Taking over from the plain form: the focus stays, before the frame is painted,
  // and a form sent meanwhile is sent now.
  const form = useRef<HTMLFormElement>(null);
  useLayoutEffect(() => {
    if (!typed) return;
    const field = form.current?.elements.namedItem('email');
    // An e-mail field has no caret position to read or set: focused, it types on at the end.
    if (typed.focus === 'email' && field instanceof HTMLInputElement) field.focus();
    else if (typed.focus === 'submit') form.current?.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
    if (typed.submitted) void send();
    // Once, on taking over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (state.kind === 'success') {
    return (
      <p className="newsletter__done" role="status" tabIndex={-1} ref={done}>
        {state.message}
      </p>
    );
  }

  const loading = state.kind === 'loading';
  return (
    <form
      ref={form}
      className="newsletter"
      aria-label="Подписка на рассылку"
      onSubmit={submit}
      noValidate
      aria-busy={loading}
    >
      <p className="newsletter__text">Новые коллекции, поступления и специальные предложения — первыми.</p>
      {state.kind === 'error' ? (
        <p className="form-banner newsletter__error" role="alert">
          {state.error}
        </p>
      ) : null}
      <div className="newsletter__row">
        <TextField
          label="Электронная почта"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
        />
        <button type="submit" className="button newsletter__submit" disabled={loading} aria-busy={loading}>
          Подписаться
          {loading ? <span className="newsletter__spinner" aria-hidden="true" /> : null}
        </button>
      </div>
    </form>
  );
}
