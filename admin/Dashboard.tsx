import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Link,
  List,
  ListItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { Title, useAuthenticated, useGetIdentity, useLogout, useNotify, usePermissions } from 'react-admin';
import { adminApi } from '~/admin/lib/api';
import { currentStaff } from './lib/auth-provider';
import { dateTime } from './lib/labels';
import { DashboardFigures } from './orders/DashboardFigures';

// The start page: who is logged in, until when, and the sections this role may open. The shop's
// figures (orders, returns, stock) come with their screens.

const SECTIONS: { to: string; label: string; permission: string }[] = [
  { to: '/orders', label: 'Заказы', permission: 'orders:read' },
  { to: '/returns', label: 'Возвраты', permission: 'returns:read' },
  { to: '/offers', label: 'Склад', permission: 'stock:read' },
  { to: '/waiting-list', label: 'Листы ожидания', permission: 'waitlist:read' },
  { to: '/customers', label: 'Покупатели', permission: 'customers:read' },
  { to: '/staff', label: 'Сотрудники: доступ, роли, сеансы', permission: 'staff:read' },
  { to: '/audit', label: 'Журнал действий', permission: 'audit:read' },
];

export function Dashboard() {
  useAuthenticated();
  const { identity } = useGetIdentity();
  const { permissions } = usePermissions<string[]>();
  const me = currentStaff();
  const open = SECTIONS.filter((s) => permissions?.includes(s.permission));
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="Витрина" />
      <CardContent>
        <Stack spacing={1.5}>
          <Typography variant="h5" component="h1">
            Здравствуйте{identity?.fullName ? `, ${identity.fullName}` : ''}
          </Typography>
          {me ? (
            <Typography color="text.secondary">
              Роль: {me.role_label}. Сеанс действует до {dateTime(me.session.expires_at)} (МСК) и завершится после 30
              минут без действий.
            </Typography>
          ) : null}
          {permissions?.includes('dashboard:read') ? <DashboardFigures /> : null}
          {open.length ? (
            <>
              <Typography variant="subtitle1" component="h2" sx={{ pt: 1 }}>
                Разделы
              </Typography>
              <List dense>
                {open.map((s) => (
                  <ListItem key={s.to} disableGutters>
                    <Link component={RouterLink} to={s.to}>
                      {s.label}
                    </Link>
                  </ListItem>
                ))}
              </List>
            </>
          ) : (
            <Typography color="text.secondary">
              Разделы для вашей роли (заказы, возвраты, остатки, товары) появятся здесь.
            </Typography>
          )}
          <ChangePassword />
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The own password: the current one and a new one; every session ends, so the login comes next. */
function ChangePassword() {
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const logout = useLogout();
  const notify = useNotify();
  async function save() {
    setBusy(true);
    setError(null);
    try {
      await adminApi('/auth/password', { method: 'POST', body: { current_password: current, password } });
      notify('Пароль изменён. Войдите с новым паролем', { type: 'success' });
      await logout();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Не удалось');
      setBusy(false);
    }
  }
  return (
    <>
      <Button variant="outlined" sx={{ alignSelf: 'flex-start' }} onClick={() => setOpen(true)}>
        Сменить пароль
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>Сменить пароль</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {error ? <Alert severity="error">{error}</Alert> : null}
            <TextField
              label="Текущий пароль"
              type="password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
              autoComplete="current-password"
            />
            <TextField
              label="Новый пароль"
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="new-password"
              helperText="Не короче 8 символов. После смены все ваши сеансы завершатся"
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Отмена</Button>
          <Button variant="contained" onClick={save} disabled={busy || !current || !password}>
            Сменить
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
