import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import {
  Edit,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  useDataProvider,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import type { StaffItem, StaffLinkResponse, StaffSessionsEndedResponse } from '~/shared/admin-contract';
import type { AdminDataProvider } from '~/admin/lib/data-provider';
import { newIdempotencyKey } from '~/admin/lib/api';
import { dateTime, ROLE_CHOICES, SESSION_END_LABELS } from '~/admin/lib/labels';
import { SetupLink } from './SetupLink';
import { StaffStatus } from './StaffList';

// A staff member's page (admin only): the name (PATCH), then the named changes, each a POST with
// its own Idempotency-Key made when its dialog opens (a double click or a retry changes once):
// role, disable / enable, reset the authenticator (a new one-time link), end sessions; and the
// sessions themselves.

type ActionName = 'role' | 'disable' | 'enable' | 'reset-totp' | 'reset-password' | 'end-sessions';
const MAKES_LINK: readonly ActionName[] = ['reset-totp', 'reset-password'];

const TITLES: Record<ActionName, string> = {
  role: 'Сменить роль',
  disable: 'Отключить сотрудника',
  enable: 'Включить сотрудника',
  'reset-totp': 'Сбросить приложение для входа',
  'reset-password': 'Сбросить пароль',
  'end-sessions': 'Завершить все сеансы',
};
const EXPLAIN: Record<ActionName, string> = {
  role: 'Новая роль действует со следующего действия сотрудника.',
  disable: 'Сотрудник не сможет войти; его сеансы завершатся сразу.',
  enable: 'Сотрудник снова сможет входить с прежним паролем и приложением.',
  'reset-totp':
    'Для потерянного телефона: приложение отключается, сеансы завершаются, и появится одноразовая ссылка, по которой сотрудник подключит новое приложение (спросим и его пароль).',
  'reset-password':
    'Если пароль забыт: пароль и приложение удаляются, сеансы завершаются, и появится одноразовая ссылка, по которой сотрудник задаст новый пароль и подключит приложение.',
  'end-sessions': 'Например, если ноутбук потерян: сотруднику придётся войти снова.',
};

function ActionDialog({ record, action, onClose }: { record: StaffItem; action: ActionName; onClose: () => void }) {
  const dataProvider = useDataProvider<AdminDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [role, setRole] = useState(record.role);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [link, setLink] = useState<StaffLinkResponse | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const body = { ...(action === 'role' ? { role } : {}), ...(reason.trim() ? { reason: reason.trim() } : {}) };
      const answer = await dataProvider.action<StaffLinkResponse | StaffSessionsEndedResponse>('staff', {
        id: record.id,
        name: action,
        body,
        idempotencyKey,
      });
      refresh();
      if (MAKES_LINK.includes(action)) setLink(answer as StaffLinkResponse);
      else {
        const ended = (answer as StaffSessionsEndedResponse).sessions_ended;
        notify(action === 'end-sessions' ? `Завершено сеансов: ${ended}` : 'Сохранено', { type: 'success' });
        onClose();
      }
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Не удалось');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{TITLES[action]}</DialogTitle>
      <DialogContent>
        {link ? (
          <SetupLink email={record.email} url={link.setup_url} expiresAt={link.setup_expires_at} />
        ) : (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2">
              {record.email}. {EXPLAIN[action]}
            </Typography>
            {error ? <Alert severity="error">{error}</Alert> : null}
            {action === 'role' ? (
              <TextField select label="Роль" value={role} onChange={(e) => setRole(e.target.value)}>
                {ROLE_CHOICES.map((c) => (
                  <MenuItem key={c.id} value={c.id}>
                    {c.name}
                  </MenuItem>
                ))}
              </TextField>
            ) : null}
            <TextField
              label="Причина (в журнал)"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 500 } }}
            />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {link ? (
          <Button onClick={onClose} variant="contained">
            Готово
          </Button>
        ) : (
          <>
            <Button onClick={onClose}>Отмена</Button>
            <Button
              onClick={run}
              variant="contained"
              color={action === 'disable' ? 'error' : 'primary'}
              disabled={busy || (action === 'role' && role === record.role)}
            >
              {TITLES[action]}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}

function StaffActions() {
  const record = useRecordContext<StaffItem>();
  const { identity } = useGetIdentity();
  const [open, setOpen] = useState<ActionName | null>(null);
  if (!record) return null;
  const self = identity?.id === record.id;
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
          <Typography variant="h6" component="h2">
            Доступ
          </Typography>
          <StaffStatus record={record} />
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Роль: {record.role_label}
          {self ? ' · это вы' : ''}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button variant="outlined" onClick={() => setOpen('role')}>
            Сменить роль
          </Button>
          {record.disabled ? (
            <Button variant="outlined" onClick={() => setOpen('enable')}>
              Включить
            </Button>
          ) : (
            <Button variant="outlined" color="error" onClick={() => setOpen('disable')}>
              Отключить
            </Button>
          )}
          <Button variant="outlined" onClick={() => setOpen('reset-totp')}>
            {record.password_set ? 'Сбросить приложение для входа' : 'Новая ссылка для настройки'}
          </Button>
          {record.password_set ? (
            <Button variant="outlined" onClick={() => setOpen('reset-password')}>
              Сбросить пароль
            </Button>
          ) : null}
          <Button variant="outlined" onClick={() => setOpen('end-sessions')}>
            Завершить сеансы
          </Button>
        </Stack>
        {open ? <ActionDialog key={open} record={record} action={open} onClose={() => setOpen(null)} /> : null}
        <StaffSessions id={record.id} />
      </CardContent>
    </Card>
  );
}

function StaffSessions({ id }: { id: number }) {
  const dataProvider = useDataProvider<AdminDataProvider>();
  const { data, isPending } = useQuery({
    queryKey: ['staff', 'sessions', id],
    queryFn: () => dataProvider.staffSessions(id),
  });
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1 }}>
        Сеансы
      </Typography>
      {isPending ? null : !data?.data.length ? (
        <Typography variant="body2" color="text.secondary">
          Входов ещё не было.
        </Typography>
      ) : (
        <Table size="small" aria-label="Сеансы">
          <TableHead>
            <TableRow>
              <TableCell>Вход</TableCell>
              <TableCell>Последнее действие</TableCell>
              <TableCell>IP-адрес</TableCell>
              <TableCell>Браузер</TableCell>
              <TableCell>Завершён</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.data.map((s) => (
              <TableRow key={s.id}>
                <TableCell>{dateTime(s.authenticated_at ?? s.created_at)}</TableCell>
                <TableCell>{dateTime(s.last_seen_at)}</TableCell>
                <TableCell>{s.ip}</TableCell>
                <TableCell
                  sx={{ maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  title={s.user_agent}
                >
                  {s.user_agent}
                </TableCell>
                <TableCell>
                  {s.ended_at
                    ? `${dateTime(s.ended_at)}: ${SESSION_END_LABELS[s.end_reason ?? ''] ?? s.end_reason}`
                    : 'открыт'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}

const NameToolbar = () => (
  <Toolbar>
    <SaveButton label="Сохранить имя" />
  </Toolbar>
);

export function StaffEdit() {
  return (
    <Edit title={<StaffTitle />} mutationMode="pessimistic" actions={false} component="div">
      <Card>
        <SimpleForm toolbar={<NameToolbar />} sx={{ maxWidth: 520 }}>
          <TextInput source="email" label="Почта" disabled fullWidth />
          <TextInput source="name" label="Имя и фамилия" fullWidth />
        </SimpleForm>
      </Card>
      <StaffActions />
    </Edit>
  );
}

function StaffTitle() {
  const record = useRecordContext<StaffItem>();
  return <>{record ? `Сотрудник ${record.name || record.email}` : 'Сотрудник'}</>;
}
