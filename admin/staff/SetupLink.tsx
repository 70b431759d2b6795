import { useState } from 'react';
import { Alert, Button, Stack, TextField, Typography } from '@mui/material';
import { dateTime } from '~/admin/lib/labels';

/** A one-time link just made (new account, authenticator reset): shown once, to hand to its owner. */
export function SetupLink({ email, url, expiresAt }: { email: string; url: string; expiresAt: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Stack spacing={2} data-testid="setup-link">
      <Alert severity="info">
        Ссылка для {email} показывается один раз. Передайте её сотруднику лично или в мессенджере: по ней он задаст
        пароль и подключит приложение-аутентификатор. Ссылка действует до {dateTime(expiresAt)} (МСК) и открывается один
        раз.
      </Alert>
      <TextField
        label="Одноразовая ссылка"
        value={url}
        slotProps={{ htmlInput: { readOnly: true } }}
        onFocus={(e) => e.target.select()}
        fullWidth
      />
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button
          variant="outlined"
          onClick={() => {
            void navigator.clipboard?.writeText(url).then(() => setCopied(true));
          }}
        >
          Скопировать
        </Button>
        {copied ? (
          <Typography variant="body2" color="success.main" role="status">
            Скопировано
          </Typography>
        ) : null}
      </Stack>
    </Stack>
  );
}
