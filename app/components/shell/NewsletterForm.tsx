import { useEffect, useRef, useState } from 'react';
import { TextField } from '~/app/components/forms/TextField';
import { useBrowserApi } from '~/app/lib/browser-api';

/** SPEC §8: what a failed call shows when the server gave no message of its own. */
const SERVER_ERROR = 'Произошла ошибка на сервере. Пожалуйста, попробуйте позже.';

type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'success'; message: string } | { kind: 'error'; error: string };

/**
 * SPEC §4 Newsletter form in the footer: idle → loading (the 38×38 spinner of §9 in the
 * button) → success (the form gives way to the server's message) or error (the server's text
 * above the field; the form stays). No check of the address here (§5): the server decides.
 */
export function NewsletterForm() {
  const api = useBrowserApi();
  const [email, setEmail] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const sending = useRef(false);
  const done = useRef<HTMLParagraphElement>(null);

  // The button that had the focus is gone: the message takes it, so the keyboard stays here.
  useEffect(() => {
    if (state.kind === 'success') done.current?.focus();
  }, [state.kind]);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (sending.current) return;
    sending.current = true;
    setState({ kind: 'loading' });
    try {
      const res = await api.subscribeNewsletter(email);
      setState('message' in res ? { kind: 'success', message: res.message } : { kind: 'error', error: res.error || SERVER_ERROR });
    } catch {
      setState({ kind: 'error', error: SERVER_ERROR });
    } finally {
      sending.current = false;
    }
  }

  if (state.kind === 'success') {
    return (
      <p className="newsletter__done" role="status" tabIndex={-1} ref={done}>
        {state.message}
      </p>
    );
  }

  const loading = state.kind === 'loading';
  return (
    <form className="newsletter" aria-label="Подписка на рассылку" onSubmit={submit} noValidate aria-busy={loading}>
      <p className="newsletter__text">Новые коллекции, поступления и специальные предложения — первыми.</p>
      {state.kind === 'error' ? (
        <p className="form-banner newsletter__error" role="alert">
          {state.error}
        </p>
      ) : null}
      <div className="newsletter__row">
        <TextField label="Электронная почта" name="email" type="email" inputMode="email" autoComplete="email" value={email} onChange={setEmail} />
        <button type="submit" className="button newsletter__submit" disabled={loading} aria-busy={loading}>
          Подписаться
          {loading ? <span className="newsletter__spinner" aria-hidden="true" /> : null}
        </button>
      </div>
    </form>
  );
}
