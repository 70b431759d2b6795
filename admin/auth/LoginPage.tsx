import { useState, type FormEvent } from 'react';
import { Alert, Button, Link, Stack, TextField } from '@mui/material';
import { useLogin } from 'react-admin';
import type { LoginStepResponse } from '~/shared/admin-contract';
import { adminApi } from '~/admin/lib/api';
import { AuthCard } from './AuthCard';

// Staff login in two steps (docs/back-office.md): e-mail and password (POST auth/login sets the
// half-way cookie), then the code from the authenticator app (react-admin's login(): POST
// auth/totp makes the session). A lost authenticator is reset by another admin, never here.

const errorText = (err: unknown) => (err instanceof Error ? err.message : 'Не удалось войти');

export function LoginPage() {
  const login = useLogin();
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function sendPassword(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await adminApi<LoginStepResponse>('/auth/login', { method: 'POST', body: { email, password } });
      setPassword('');
      setStep('code');
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  async function sendCode(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login({ code });
    } catch (err) {
      setCode('');
      setError(errorText(err));
      if (/пароль снова/.test(errorText(err))) setStep('password');
      setBusy(false);
    }
  }

  if (step === 'code')
    return (
      <AuthCard
        title="Код подтверждения"
        subtitle={<>Откройте приложение-аутентификатор и введите шестизначный код для {email}.</>}
      >
        <form onSubmit={sendCode} noValidate>
          <Stack spacing={2}>
            {error ? <Alert severity="error">{error}</Alert> : null}
            <TextField
              label="Код из приложения"
              name="code"
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/[^\d ]/g, '').slice(0, 7))}
              autoComplete="one-time-code"
              autoFocus
              required
              slotProps={{
                htmlInput: { inputMode: 'numeric', pattern: '[0-9 ]*', maxLength: 7, 'aria-describedby': 'code-hint' },
              }}
              helperText={<span id="code-hint">Каждый код действует 30 секунд и принимается один раз</span>}
            />
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={busy || code.replace(/\s/g, '').length !== 6}
            >
              Войти
            </Button>
            <Link
              component="button"
              type="button"
              variant="body2"
              onClick={() => {
                setStep('password');
                setError(null);
              }}
            >
              Назад к паролю
            </Link>
          </Stack>
        </form>
      </AuthCard>
    );

  return (
    <AuthCard title="Вход для сотрудников">
      <form onSubmit={sendPassword} noValidate>
        <Stack spacing={2}>
          {error ? <Alert severity="error">{error}</Alert> : null}
          <TextField
            label="Почта"
            name="email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            autoComplete="username"
            autoFocus
            required
          />
          <TextField
            label="Пароль"
            name="password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
            required
          />
          <Button type="submit" variant="contained" size="large" disabled={busy || !email || !password}>
            Продолжить
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
