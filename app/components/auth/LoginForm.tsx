import { useId, useState } from 'react';
import { Link, useFetcher, type FetcherWithComponents } from 'react-router';
import { formatPhoneMask } from '~/core/phone';
import { phoneDigits, PHONE_MASK_LENGTH } from '~/core/phone-mask';
import { PhoneField } from '~/app/ui/TextField';
import { OFFLINE_CAPTCHA_TOKEN } from '~/app/lib/captcha';
import { CodeStep, loginPath } from './CodeStep';
import { useSubmitWithCaptcha } from './use-submit-with-captcha';

/** What the /auth/ action answers the form (never the token: that goes into an HttpOnly cookie). */
/** `now`: the server's clock when it answered, so the countdown reads the same on both sides of hydration. */
export type LoginStep =
  | { step: 'phone'; phone: string; error: string | null }
  | { step: 'code'; phone: string; sentAt: number; now?: number; error: string | null };

/**
 * SPEC §2 Login page, §4 Auth: the phone with its mask ('Получить смс код' waits for the whole
 * mask), then six code boxes with the 59-second resend countdown, and 'Войти' from four digits.
 * The forms post to the /auth/ action through a fetcher, so the same form works on the page and
 * in the auth modal; before the scripts load they post as plain forms (the captcha, when one is
 * configured, needs the scripts). After login the action redirects to `next` (default /personal/).
 */
export function LoginForm({
  state,
  next,
  favourite,
}: {
  state: LoginStep;
  next?: string | undefined;
  /** A product to add to the favourites once logged in (the heart that asked for the login). */
  favourite?: number | undefined;
}) {
  const fetcher = useFetcher<LoginStep>({ key: 'login' });
  // «Изменить номер» goes back to the phone until the next answer arrives.
  const [changed, setChanged] = useState<{ for: LoginStep | undefined; step: LoginStep } | null>(null);
  const view = changed && changed.for === fetcher.data ? changed.step : (fetcher.data ?? state);
  const busy = fetcher.state !== 'idle';
  return view.step === 'code' ? (
    <PhoneCodeStep
      state={view}
      busy={busy}
      next={next}
      favourite={favourite}
      fetcher={fetcher}
      key={view.sentAt}
      onChangePhone={() => setChanged({ for: fetcher.data, step: { step: 'phone', phone: view.phone, error: null } })}
    />
  ) : (
    <PhoneStep state={view} busy={busy} next={next} fetcher={fetcher} />
  );
}

type Fetcher = FetcherWithComponents<LoginStep>;
const CAPTCHA_ACTION = 'send_sms';

function PhoneStep({
  state,
  busy,
  next,
  fetcher,
}: {
  state: Extract<LoginStep, { step: 'phone' }>;
  busy: boolean;
  next?: string | undefined;
  fetcher: Fetcher;
}) {
  const [phone, setPhone] = useState(state.phone ? formatPhoneMask(state.phone) : '');
  const [captcha, setCaptcha] = useState(OFFLINE_CAPTCHA_TOKEN);
  const onSubmit = useSubmitWithCaptcha(fetcher, { action: '/auth/', captchaAction: CAPTCHA_ACTION }, setCaptcha);
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
      <p className="login__other">
        <Link to={loginPath('/auth/email/', next)}>Войти по e-mail</Link>
      </p>
    </fetcher.Form>
  );
}

function PhoneCodeStep({
  state,
  busy,
  next,
  favourite,
  fetcher,
  onChangePhone,
}: {
  state: Extract<LoginStep, { step: 'code' }>;
  busy: boolean;
  next?: string | undefined;
  favourite?: number | undefined;
  fetcher: Fetcher;
  onChangePhone: () => void;
}) {
  return (
    <CodeStep
      hint={
        <>
          Код отправлен на <strong>{formatPhoneMask(state.phone)}</strong>.{' '}
          <button type="button" className="link-button login__change" onClick={onChangePhone}>
            Изменить номер
          </button>
        </>
      }
      fetcher={fetcher}
      action="/auth/"
      captchaAction={CAPTCHA_ACTION}
      verifyFields={{ intent: 'verify', phone: state.phone, sentAt: state.sentAt, next, favourite }}
      resendFields={{ intent: 'send', phone: phoneDigits(state.phone) }}
      sentAt={state.sentAt}
      serverNow={state.now}
      answer={state}
      error={state.error}
      busy={busy}
      boxesLabel="Код из СМС"
    />
  );
}
