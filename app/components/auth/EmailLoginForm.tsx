import { useId, useState } from 'react';
import { Link, useFetcher } from 'react-router';
import { normalizeEmail } from '~/core/auth';
import { EMAIL_CAPTCHA_ACTION } from '~/core/email-login';
import { TextField } from '~/app/ui/TextField';
import { OFFLINE_CAPTCHA_TOKEN } from '~/app/lib/captcha';
import { CodeStep, loginPath } from './CodeStep';
import { useSubmitWithCaptcha, type LoginFetcher } from './use-submit-with-captcha';

/** What the /auth/email/ action answers the form (never the token: that goes into an HttpOnly cookie). */
/** `now`: the server's clock when it answered (see LoginStep). */
export type EmailLoginStep =
  | { step: 'email'; email: string; error: string | null }
  | { step: 'code'; email: string; sentAt: number; now?: number; error: string | null };

const ACTION = '/auth/email/';

/**
 * SPEC §2 /auth/email/: the phone login's flow with a code sent by e-mail, for customers who
 * gave the address in their profile. The address ('Получить код' once it looks like one), then
 * the same six code boxes, countdown and consent as LoginForm, posting to the same route
 * action through a fetcher. After login the action redirects to `next` (default /personal/).
 */
export function EmailLoginForm({ state, next }: { state: EmailLoginStep; next?: string | undefined }) {
  const fetcher = useFetcher<EmailLoginStep>({ key: 'login-email' });
  // «Изменить адрес» goes back to the address until the next answer arrives.
  const [changed, setChanged] = useState<{ for: EmailLoginStep | undefined; step: EmailLoginStep } | null>(null);
  const view = changed && changed.for === fetcher.data ? changed.step : (fetcher.data ?? state);
  const busy = fetcher.state !== 'idle';
  if (view.step === 'email') return <EmailStep state={view} busy={busy} next={next} fetcher={fetcher} />;
  return (
    <CodeStep
      key={view.sentAt}
      hint={
        <>
          Код отправлен на <strong className="login__address">{view.email}</strong>. Если письма нет, проверьте папку
          «Спам».{' '}
          <button
            type="button"
            className="link-button login__change"
            onClick={() => setChanged({ for: fetcher.data, step: { step: 'email', email: view.email, error: null } })}
          >
            Изменить адрес
          </button>
        </>
      }
      fetcher={fetcher}
      action={ACTION}
      captchaAction={EMAIL_CAPTCHA_ACTION}
      verifyFields={{ intent: 'verify-email', email: view.email, sentAt: view.sentAt, next }}
      resendFields={{ intent: 'send-email', email: view.email }}
      sentAt={view.sentAt}
      serverNow={view.now}
      answer={view}
      error={view.error}
      busy={busy}
      boxesLabel="Код из письма"
    />
  );
}

function EmailStep({
  state,
  busy,
  next,
  fetcher,
}: {
  state: Extract<EmailLoginStep, { step: 'email' }>;
  busy: boolean;
  next?: string | undefined;
  fetcher: LoginFetcher;
}) {
  const [email, setEmail] = useState(state.email);
  const [captcha, setCaptcha] = useState(OFFLINE_CAPTCHA_TOKEN);
  const onSubmit = useSubmitWithCaptcha(fetcher, { action: ACTION, captchaAction: EMAIL_CAPTCHA_ACTION }, setCaptcha);
  const errorId = useId();
  return (
    <fetcher.Form method="post" action={ACTION} className="login" noValidate onSubmit={onSubmit}>
      <input type="hidden" name="intent" value="send-email" />
      <input type="hidden" name="captcha" value={captcha} />
      <p className="login__hint">
        Введите адрес электронной почты из вашего профиля — пришлём письмо с кодом для входа.
      </p>
      {state.error ? (
        <p className="form-banner" role="alert" id={errorId}>
          {state.error}
        </p>
      ) : null}
      <TextField
        label="Электронная почта"
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        placeholder="name@example.ru"
        maxLength={254}
        value={email}
        onChange={setEmail}
        autoFocus
      />
      <button type="submit" className="button login__submit" disabled={!normalizeEmail(email) || busy} aria-busy={busy}>
        Получить код
      </button>
      <p className="login__other">
        <Link to={loginPath('/auth/', next)}>Войти по номеру телефона</Link>
      </p>
    </fetcher.Form>
  );
}
