import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { LOGIN_CODE_MIN_TO_SUBMIT, resendSecondsLeft, resendText } from '~/core/auth';
import { codeOf, emptyCells } from '~/core/code-boxes';
import { OFFLINE_CAPTCHA_TOKEN } from '~/app/lib/captcha';
import { CodeBoxes } from './CodeBoxes';
import { useSubmitWithCaptcha, type LoginFetcher } from './use-submit-with-captcha';

type Fields = Record<string, string | number | undefined>;

/**
 * The code step both logins share (SPEC §4 Auth, §5): six code boxes, 'Войти' from four
 * digits, the consent to the loyalty programme, and the 59-second countdown until
 * 'Получить новый код'. The callers say where the forms post and which hidden fields name the
 * phone or the address; give it a `key` of the send time so a new code empties the boxes.
 * Each new answer with an error (a wrong code) empties them too, the first one focused.
 */
export function CodeStep({
  hint,
  fetcher,
  action,
  captchaAction,
  verifyFields,
  resendFields,
  sentAt,
  serverNow,
  answer,
  error,
  busy,
  boxesLabel,
}: {
  /** What was sent where, with the way back to change it. */
  hint: ReactNode;
  fetcher: LoginFetcher;
  action: string;
  captchaAction: string;
  /** Hidden fields of the code form (intent, the phone or the address, sentAt, next). */
  verifyFields: Fields;
  /** Hidden fields of the resend form (intent, the phone or the address). */
  resendFields: Fields;
  sentAt: number;
  /** The server's clock when it answered (undefined: the browser's now). */
  serverNow?: number | undefined;
  /** The answer shown: a new one with an error empties the boxes. */
  answer: object;
  error: string | null;
  busy: boolean;
  boxesLabel: string;
}) {
  const [cells, setCells] = useState(emptyCells);
  const [shownAnswer, setShownAnswer] = useState(answer);
  const form = useRef<HTMLFormElement>(null);
  if (shownAnswer !== answer) {
    // A wrong code: the digits that were wrong go, so the next try starts clean.
    setShownAnswer(answer);
    if (error) setCells(emptyCells());
  }
  useEffect(() => {
    if (error && shownAnswer !== null) form.current?.querySelector<HTMLInputElement>('.code-boxes__cell')?.focus();
  }, [shownAnswer, error]);
  const left = useResendCountdown(sentAt, serverNow);
  const errorId = useId();
  const code = codeOf(cells);
  return (
    <div className="login">
      <p className="login__hint">{hint}</p>
      <fetcher.Form method="post" action={action} className="login__code" noValidate ref={form}>
        <HiddenFields fields={verifyFields} />
        <input type="hidden" name="code" value={code} />
        {error ? (
          <p className="form-banner" role="alert" id={errorId}>
            {error}
          </p>
        ) : null}
        <CodeBoxes
          cells={cells}
          onChange={setCells}
          invalid={error !== null}
          describedBy={error ? errorId : undefined}
          label={boxesLabel}
          autoFocus
        />
        <button
          type="submit"
          className="button login__submit"
          disabled={code.length < LOGIN_CODE_MIN_TO_SUBMIT || busy}
          aria-busy={busy}
        >
          Войти
        </button>
        <p className="login__consent">
          Нажимая «Войти», вы соглашаетесь с условиями <Link to="/loyalty/">программы лояльности</Link> и{' '}
          <Link to="/privacy-policy/">политикой конфиденциальности</Link>.
        </p>
      </fetcher.Form>
      {left > 0 ? (
        <p className="login__resend" aria-live="off">
          {resendText(left)}
        </p>
      ) : (
        <ResendForm fields={resendFields} busy={busy} fetcher={fetcher} action={action} captchaAction={captchaAction} />
      )}
    </div>
  );
}

/** The other login page, keeping where to go after login. */
export function loginPath(path: '/auth/' | '/auth/email/', next: string | undefined): string {
  return next ? `${path}?next=${encodeURIComponent(next)}` : path;
}

/**
 * Seconds left before another code may be asked for; SPEC §9: the countdown ticks every 100 ms.
 * It counts on the server's clock (`sentAt` is the server's): from `serverNow`, plus the time
 * passed since on the browser's clock. So the server's page and the browser's first render
 * read the same (no hydration error after a reload), and a browser clock set wrong does not
 * matter; the moments between the answer and the first render are not counted, so «Получить
 * новый код» comes a little late at worst, never before the server allows it.
 */
function useResendCountdown(sentAt: number, serverNow: number | undefined): number {
  const [origin] = useState(() => serverNow ?? Date.now());
  const [passed, setPassed] = useState(0);
  const left = resendSecondsLeft(sentAt, origin + passed);
  const running = left > 0;
  useEffect(() => {
    if (!running) return;
    const start = Date.now();
    const timer = setInterval(() => setPassed(Math.max(0, Date.now() - start)), 100);
    return () => clearInterval(timer);
  }, [running]);
  return left;
}

function ResendForm({
  fields,
  busy,
  fetcher,
  action,
  captchaAction,
}: {
  fields: Fields;
  busy: boolean;
  fetcher: LoginFetcher;
  action: string;
  captchaAction: string;
}) {
  const onSubmit = useSubmitWithCaptcha(fetcher, { action, captchaAction });
  return (
    <fetcher.Form method="post" action={action} className="login__resend" onSubmit={onSubmit}>
      <HiddenFields fields={fields} />
      <input type="hidden" name="captcha" defaultValue={OFFLINE_CAPTCHA_TOKEN} />
      <button type="submit" className="link-button" disabled={busy}>
        Получить новый код
      </button>
    </fetcher.Form>
  );
}

function HiddenFields({ fields }: { fields: Fields }) {
  return Object.entries(fields).map(([name, value]) =>
    value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
  );
}
