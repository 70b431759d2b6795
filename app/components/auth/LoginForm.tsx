import { useEffect, useId, useState } from 'react';
import { Link, useFetcher, type FetcherWithComponents } from 'react-router';
import { LOGIN_CODE_MIN_TO_SUBMIT, resendSecondsLeft, resendText } from '~/core/auth';
import { codeOf, emptyCells } from '~/core/code-boxes';
import { formatPhoneMask } from '~/core/phone';
import { phoneDigits, PHONE_MASK_LENGTH } from '~/core/phone-mask';
import { PhoneField } from '~/app/components/forms/TextField';
import { OFFLINE_CAPTCHA_TOKEN, useCaptchaToken } from '~/app/lib/captcha';
import { CodeBoxes } from './CodeBoxes';

/** What the /auth/ action answers the form (never the token: that goes into an HttpOnly cookie). */
export type LoginStep = { step: 'phone'; phone: string; error: string | null } | { step: 'code'; phone: string; sentAt: number; error: string | null };

/**
 * SPEC §2 Login page, §4 Auth: the phone with its mask ('Получить смс код' waits for the whole
 * mask), then six code boxes with the 59-second resend countdown, and 'Войти' from four digits.
 * The forms post to the /auth/ action through a fetcher, so the same form works on the page and
 * in the auth modal; before the scripts load they post as plain forms (the captcha, when one is
 * configured, needs the scripts). After login the action redirects to `next` (default /personal/).
 */
export function LoginForm({ state, next }: { state: LoginStep; next?: string | undefined }) {
  const fetcher = useFetcher<LoginStep>({ key: 'login' });
  // «Изменить номер» goes back to the phone until the next answer arrives.
  const [changed, setChanged] = useState<{ for: LoginStep | undefined; step: LoginStep } | null>(null);
  const view = changed && changed.for === fetcher.data ? changed.step : (fetcher.data ?? state);
  const busy = fetcher.state !== 'idle';
  return view.step === 'code' ? (
    <CodeStep
      state={view}
      busy={busy}
      next={next}
      fetcher={fetcher}
      key={view.sentAt}
      onChangePhone={() => setChanged({ for: fetcher.data, step: { step: 'phone', phone: view.phone, error: null } })}
    />
  ) : (
    <PhoneStep state={view} busy={busy} fetcher={fetcher} />
  );
}

type Fetcher = FetcherWithComponents<LoginStep>;

function PhoneStep({ state, busy, fetcher }: { state: Extract<LoginStep, { step: 'phone' }>; busy: boolean; fetcher: Fetcher }) {
  const [phone, setPhone] = useState(state.phone ? formatPhoneMask(state.phone) : '');
  const [captcha, setCaptcha] = useState(OFFLINE_CAPTCHA_TOKEN);
  const onSubmit = useSubmitWithCaptcha(fetcher, setCaptcha);
  const errorId = useId();
  const complete = phone.length >= PHONE_MASK_LENGTH;
  return (
    <fetcher.Form method="post" action="/auth/" className="login" noValidate onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="send" />
      <input type="hidden" name="captcha" value={captcha} />
      <p className="login__hint">Введите номер телефона — пришлём СМС с кодом для входа.</p>
      {state.error ? (
        <p className="form-banner" role="alert" id={errorId}>
          {state.error}
        </p>
      ) : null}
      <PhoneField label="Номер телефона" name="phone" value={phone} onChange={setPhone} autoFocus />
      <button type="submit" className="button login__submit" disabled={!complete || busy} aria-busy={busy}>
        Получить смс код
      </button>
    </fetcher.Form>
  );
}

function CodeStep({
  state,
  busy,
  next,
  fetcher,
  onChangePhone,
}: {
  state: Extract<LoginStep, { step: 'code' }>;
  busy: boolean;
  next?: string | undefined;
  fetcher: Fetcher;
  onChangePhone: () => void;
}) {
  const [cells, setCells] = useState(emptyCells);
  const [now, setNow] = useState(() => Date.now());
  const errorId = useId();
  const left = resendSecondsLeft(state.sentAt, now);
  // SPEC §9: the countdown ticks every 100 ms.
  useEffect(() => {
    if (left <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [left]);
  const code = codeOf(cells);
  return (
    <div className="login">
      <p className="login__hint">
        Код отправлен на <strong>{formatPhoneMask(state.phone)}</strong>.{' '}
        <button type="button" className="link-button login__change" onClick={onChangePhone}>
          Изменить номер
        </button>
      </p>
      <fetcher.Form method="post" action="/auth/" className="login__code" noValidate>
        <input type="hidden" name="intent" value="verify" />
        <input type="hidden" name="phone" value={state.phone} />
        <input type="hidden" name="sentAt" value={state.sentAt} />
        <input type="hidden" name="code" value={code} />
        {next ? <input type="hidden" name="next" value={next} /> : null}
        {state.error ? (
          <p className="form-banner" role="alert" id={errorId}>
            {state.error}
          </p>
        ) : null}
        <CodeBoxes cells={cells} onChange={setCells} invalid={state.error !== null} describedBy={state.error ? errorId : undefined} autoFocus />
        <button type="submit" className="button login__submit" disabled={code.length < LOGIN_CODE_MIN_TO_SUBMIT || busy} aria-busy={busy}>
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
        <ResendForm phone={state.phone} busy={busy} fetcher={fetcher} />
      )}
    </div>
  );
}

function ResendForm({ phone, busy, fetcher }: { phone: string; busy: boolean; fetcher: Fetcher }) {
  const onSubmit = useSubmitWithCaptcha(fetcher);
  return (
    <fetcher.Form method="post" action="/auth/" className="login__resend" onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="send" />
      <input type="hidden" name="phone" value={phoneDigits(phone)} />
      <input type="hidden" name="captcha" defaultValue={OFFLINE_CAPTCHA_TOKEN} />
      <button type="submit" className="link-button" disabled={busy}>
        Получить новый код
      </button>
    </fetcher.Form>
  );
}

/**
 * The captcha token is asked for at the moment of sending (tokens are short-lived and single
 * use): the submit waits for it, then posts the form with it. Before the scripts load the form
 * posts itself, with the token the server rendered (the captcha-off default).
 */
function useSubmitWithCaptcha(fetcher: Fetcher, onToken?: (token: string) => void) {
  const getToken = useCaptchaToken();
  return (e: React.FormEvent<HTMLFormElement>) => {
    const form = e.currentTarget;
    e.preventDefault();
    void getToken('send_sms').then((token) => {
      onToken?.(token);
      const fields = new FormData(form);
      fields.set('captcha', token);
      void fetcher.submit(fields, { method: 'post', action: '/auth/' });
    });
  };
}
