import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import type { SetupStartResponse } from '~/shared/admin-contract';
import { adminApi } from '~/admin/lib/api';
import { AuthCard } from './AuthCard';

// The one-time link (`/admin/setup#token=…`, from `npm run staff -- create` or an admin's reset):
// shows the authenticator key (QR code, the key to type, the otpauth:// URI), asks the new
// password (a new account) or the current one (a new authenticator), and a code from the app,
// which proves it holds the key. The token rides in the fragment: it never reaches a server log.

type Setup = SetupStartResponse['data'];

function tokenFromHash(): string {
  return new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token') ?? '';
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : 'Что-то пошло не так');

export function SetupPage() {
  const [token] = useState(tokenFromHash);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [loadError, setLoadError] = useState<string | null>(
    token ? null : 'В ссылке нет ключа: откройте ссылку из сообщения целиком',
  );
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<{ text: string; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!token) return;
    adminApi<SetupStartResponse>('/auth/setup/start', { method: 'POST', body: { token } })
      .then((r) => setSetup(r.data))
      .catch((err: unknown) => setLoadError(errorText(err)));
  }, [token]);

  async function finish(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await adminApi('/auth/setup/finish', { method: 'POST', body: { token, password, code } });
      setDone(true);
    } catch (err) {
      const body = (err as { body?: { field?: string } }).body;
      setError({ text: errorText(err), ...(body?.field ? { field: body.field } : {}) });
      if (body?.field === 'code') setCode('');
    } finally {
      setBusy(false);
    }
  }

  if (done)
    return (
      <AuthCard title="Готово">
        <Stack spacing={2}>
          <Alert severity="success">
            {setup?.purpose === 'totp' ? 'Новое приложение подключено.' : 'Пароль задан, приложение подключено.'}{' '}
            Войдите с паролем и кодом из приложения.
          </Alert>
          <Button component={RouterLink} to="/login" variant="contained" size="large">
            Перейти ко входу
          </Button>
        </Stack>
      </AuthCard>
    );

  if (loadError)
    return (
      <AuthCard title="Ссылка не работает">
        <Alert severity="error">{loadError}</Alert>
      </AuthCard>
    );

  if (!setup)
    return (
      <AuthCard title="Настройка входа">
        <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
          <CircularProgress aria-label="Загрузка" />
        </Box>
      </AuthCard>
    );

  const isNew = setup.purpose === 'setup';
  return (
    <AuthCard
      width={560}
      title={isNew ? 'Настройка входа' : 'Новое приложение для входа'}
      subtitle={
        <>
          {setup.name ? `${setup.name}, ` : ''}
          {setup.email}
        </>
      }
    >
      <form onSubmit={finish} noValidate>
        <Stack spacing={2.5}>
          <Typography variant="subtitle1" component="h2">
            1. Подключите приложение-аутентификатор
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Яндекс Ключ, Google Authenticator, Microsoft Authenticator или любое другое с кодами TOTP: отсканируйте
            QR-код или введите ключ вручную.
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: 'center' }}>
            <Box
              component="img"
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(setup.qr_svg)}`}
              alt={`QR-код для приложения: ключ ${setup.secret}`}
              sx={{ width: 180, height: 180, flex: 'none', border: '1px solid', borderColor: 'divider' }}
            />
            <Box sx={{ minWidth: 0 }}>
              <Typography variant="caption" color="text.secondary" component="p">
                Ключ для ввода вручную
              </Typography>
              <Typography
                data-testid="totp-secret"
                sx={{ fontFamily: 'monospace', fontSize: 17, letterSpacing: '0.05em', mb: 1 }}
              >
                {setup.secret}
              </Typography>
              <Typography variant="caption" color="text.secondary" component="p">
                Адрес для приложения
              </Typography>
              <Typography
                data-testid="otpauth-uri"
                sx={{ fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' }}
              >
                {setup.otpauth_uri}
              </Typography>
            </Box>
          </Stack>
          <Typography variant="subtitle1" component="h2">
            2. {isNew ? 'Придумайте пароль' : 'Подтвердите паролем'}
          </Typography>
          {error ? <Alert severity="error">{error.text}</Alert> : null}
          <TextField
            label={isNew ? 'Новый пароль' : 'Текущий пароль'}
            name="password"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete={isNew ? 'new-password' : 'current-password'}
            required
            error={error?.field === 'password'}
            helperText={
              isNew
                ? `Не короче ${setup.password_min} символов; можно фразу из нескольких слов. Распространённые пароли не принимаются.`
                : 'Пароль, с которым вы входили до сих пор'
            }
            slotProps={{ htmlInput: { maxLength: setup.password_max } }}
          />
          <TextField
            label="Код из приложения"
            name="code"
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/[^\d ]/g, '').slice(0, 7))}
            autoComplete="one-time-code"
            required
            error={error?.field === 'code'}
            helperText="Шесть цифр, которые приложение показывает для «Vitrina»"
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7 } }}
          />
          <Button
            type="submit"
            variant="contained"
            size="large"
            disabled={busy || !password || code.replace(/\s/g, '').length !== 6}
          >
            {isNew ? 'Сохранить и подключить' : 'Подключить'}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
