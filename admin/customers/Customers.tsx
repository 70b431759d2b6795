import { useState } from 'react';
import DownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import {
  BooleanField,
  Datagrid,
  FunctionField,
  List,
  Show,
  TextField,
  TextInput,
  TopToolbar,
  useDataProvider,
  useListContext,
  useNotify,
  usePermissions,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import { Link } from 'react-router';
import type { CustomerListResponse, CustomerOneResponse } from '~/shared/admin-contract';
import { bonusMoveText, type BonusMoveKind } from '~/core/loyalty-account';
import { statusLabel } from '~/core/order-status';
import type { AdminDataProvider } from '~/admin/lib/data-provider';
import { adminApiBase, newIdempotencyKey } from '~/admin/lib/api';
import { auditActionText, dateTime } from '~/admin/lib/labels';
import { phoneText, rub } from '~/admin/orders/labels';

// Customers (issue #29): search by phone, e-mail or name; the customer's page with profile,
// addresses, orders, returns, bonus ledger (manual adjustment with a reason), certificates,
// newsletter, blocking and unblocking, and their history from the audit log. Each action's
// dialog makes its Idempotency-Key when it opens, so a double click or a retry changes once.

type Customer = CustomerOneResponse['data'];
type CustomerRow = CustomerListResponse['data'][number];

/**
 * «Экспорт» (customers:export, the admin's alone): the customers of the list's filter as a CSV
 * file, straight from the API (streamed, audited there); a plain link, so the browser downloads it.
 */
function ExportButton() {
  const { filterValues } = useListContext();
  const q = typeof filterValues.q === 'string' ? filterValues.q.trim() : '';
  const href = `${adminApiBase()}/customers/export.csv${q ? `?q=${encodeURIComponent(q)}` : ''}`;
  return (
    <Button component="a" href={href} download size="small" startIcon={<DownloadIcon />}>
      Экспорт
    </Button>
  );
}

export function CustomerList() {
  const { permissions } = usePermissions<string[]>();
  const canExport = permissions?.includes('customers:export') ?? false;
  return (
    <List
      filters={[<TextInput key="q" source="q" label="Телефон, e-mail или имя" alwaysOn />]}
      sort={{ field: 'id', order: 'DESC' }}
      title="Покупатели"
      // Personal data leaves only through the admin's export (customers:export), not react-admin's exporter.
      exporter={false}
      actions={
        canExport ? (
          <TopToolbar>
            <ExportButton />
          </TopToolbar>
        ) : (
          false
        )
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" label="№" />
        <TextField source="name" label="Имя" sortable={false} />
        <FunctionField<CustomerRow> label="Телефон" sortable={false} render={(c) => phoneText(c.phone)} />
        <TextField source="email" label="E-mail" sortable={false} emptyText="—" />
        <FunctionField<CustomerRow> label="С нами с" sortable={false} render={(c) => dateTime(c.created_at)} />
        <BooleanField source="blocked" label="Заблокирован" sortable={false} looseValue />
      </Datagrid>
    </List>
  );
}

const RETURN_STATUS: Record<string, string> = {
  new: 'Новая',
  approved: 'Одобрена',
  refunded: 'Возвращены деньги',
  rejected: 'Отклонена',
};
const NEWSLETTER: Record<string, string> = {
  pending: 'ждёт подтверждения',
  confirmed: 'подтверждена',
  unsubscribed: 'отписан',
};
const ADDRESS_ORDER = ['postal_code', 'city', 'street', 'house', 'flat'];
const addressText = (fields: Record<string, string>) =>
  [
    ...ADDRESS_ORDER.map((k) => fields[k]),
    ...Object.entries(fields)
      .filter(([k]) => !ADDRESS_ORDER.includes(k))
      .map(([, v]) => v),
  ]
    .filter(Boolean)
    .join(', ');

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

type Dialogs = 'bonuses' | 'block' | 'unblock';

function ActionDialog({ customer, kind, onClose }: { customer: Customer; kind: Dialogs; onClose: () => void }) {
  const dataProvider = useDataProvider<AdminDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [roubles, setRoubles] = useState('');
  const [sign, setSign] = useState<1 | -1>(1);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const amount = Math.trunc(Number(roubles.replace(/\s/g, '')) || 0);
  const ready = kind === 'unblock' || (reason.trim() !== '' && (kind === 'block' || amount > 0));

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const body =
        kind === 'bonuses'
          ? { amount_kopecks: sign * amount * 100, reason: reason.trim() }
          : { ...(reason.trim() ? { reason: reason.trim() } : {}) };
      await dataProvider.action('customers', { id: customer.id, name: kind, body, idempotencyKey });
      notify('Сохранено', { type: 'success' });
      refresh();
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Не удалось');
    } finally {
      setBusy(false);
    }
  }

  const title = kind === 'bonuses' ? 'Изменить бонусы' : kind === 'block' ? 'Заблокировать' : 'Разблокировать';
  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth>
      <DialogTitle>
        {title}: {customer.name || phoneText(customer.phone)}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {kind === 'bonuses' ? (
            <>
              <Typography>
                Сейчас на счёте {rub(customer.bonus_kopecks)}. Начисленные бонусы действуют 12 месяцев; списать больше,
                чем есть, нельзя.
              </Typography>
              <Stack direction="row" spacing={1}>
                <Button variant={sign === 1 ? 'contained' : 'outlined'} onClick={() => setSign(1)}>
                  Начислить
                </Button>
                <Button variant={sign === -1 ? 'contained' : 'outlined'} onClick={() => setSign(-1)}>
                  Списать
                </Button>
              </Stack>
              <MuiTextField
                label="Бонусов (1 бонус = 1 ₽)"
                value={roubles}
                onChange={(e) => setRoubles(e.target.value.replace(/[^\d\s]/g, ''))}
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                autoFocus
              />
            </>
          ) : null}
          {kind === 'block' ? (
            <Typography>
              Покупатель выйдет из личного кабинета на всех устройствах и не сможет войти снова, пока его не
              разблокируют.
            </Typography>
          ) : null}
          {kind === 'unblock' ? <Typography>Покупатель снова сможет входить в личный кабинет.</Typography> : null}
          <MuiTextField
            label={kind === 'unblock' ? 'Причина (необязательно)' : 'Причина'}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required={kind !== 'unblock'}
          />
          {error ? <Alert severity="error">{error}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Не сейчас
        </Button>
        <Button
          onClick={run}
          disabled={busy || !ready}
          variant="contained"
          color={kind === 'block' ? 'error' : 'primary'}
        >
          {error ? 'Повторить' : title}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function CustomerPage() {
  const c = useRecordContext<Customer>();
  const { permissions } = usePermissions<string[]>();
  const [open, setOpen] = useState<Dialogs | null>(null);
  if (!c) return null;
  const may = (p: string) => permissions?.includes(p) ?? false;
  return (
    <Card>
      <CardContent>
        <Stack spacing={3}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="h5" component="h1">
              {c.name || 'Без имени'}
            </Typography>
            {c.blocked ? <Chip color="error" label={`Заблокирован ${dateTime(c.blocked_at)}`} /> : null}
          </Stack>
          {c.blocked && c.blocked_reason ? (
            <Alert severity="warning">Причина блокировки: {c.blocked_reason}</Alert>
          ) : null}
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
            {may('bonuses:adjust') ? (
              <Button variant="outlined" onClick={() => setOpen('bonuses')}>
                Изменить бонусы
              </Button>
            ) : null}
            {may('customers:block') ? (
              c.blocked ? (
                <Button variant="outlined" onClick={() => setOpen('unblock')}>
                  Разблокировать
                </Button>
              ) : (
                <Button variant="outlined" color="error" onClick={() => setOpen('block')}>
                  Заблокировать
                </Button>
              )
            ) : null}
          </Stack>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={4}>
            <Section title="Профиль">
              <Typography>Телефон: {phoneText(c.phone)}</Typography>
              <Typography>E-mail: {c.email || '—'}</Typography>
              <Typography>День рождения: {c.birthday ?? '—'}</Typography>
              <Typography>С нами с {dateTime(c.created_at)}</Typography>
              <Typography>Вошёл на устройствах: {c.sessions}</Typography>
            </Section>
            <Section title="Рассылка">
              <Typography>В личном кабинете: {c.subscribed ? 'подписан' : 'не подписан'}</Typography>
              <Typography>
                Подписка по e-mail: {c.newsletter_status ? NEWSLETTER[c.newsletter_status] : 'нет'}
              </Typography>
            </Section>
            <Section title="Бонусы">
              <Typography variant="h6">{rub(c.bonus_kopecks)}</Typography>
            </Section>
          </Stack>
          <Section title="Адреса">
            {c.addresses.length === 0 ? <Typography color="text.secondary">Нет</Typography> : null}
            {c.addresses.map((a) => (
              <Typography key={a.id}>{addressText(a.fields) || '—'}</Typography>
            ))}
          </Section>
          <Section title="Заказы">
            {c.orders.length === 0 ? (
              <Typography color="text.secondary">Нет</Typography>
            ) : (
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>№</TableCell>
                    <TableCell>Дата</TableCell>
                    <TableCell>Статус</TableCell>
                    <TableCell align="right">Сумма</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {c.orders.map((o) => (
                    <TableRow key={o.id}>
                      <TableCell>
                        <Link to={`/orders/${o.id}/show`}>{o.id}</Link>
                      </TableCell>
                      <TableCell>{dateTime(o.created_at)}</TableCell>
                      <TableCell>{statusLabel(o.status)}</TableCell>
                      <TableCell align="right">{rub(o.total_kopecks)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </Section>
          <Section title="Возвраты">
            {c.returns.length === 0 ? <Typography color="text.secondary">Нет</Typography> : null}
            {c.returns.map((r) => (
              <Typography key={r.id}>
                <Link to={`/returns/${r.id}/show`}>Заявка № {r.id}</Link> по заказу № {r.order_id},{' '}
                {dateTime(r.created_at)} — {RETURN_STATUS[r.status] ?? r.status}
              </Typography>
            ))}
          </Section>
          <Section title="Движение бонусов">
            {c.bonus_moves.length === 0 ? (
              <Typography color="text.secondary">Нет</Typography>
            ) : (
              <Table size="small">
                <TableHead>
                  <TableRow>
                    <TableCell>Когда</TableCell>
                    <TableCell>Что</TableCell>
                    <TableCell align="right">Бонусов</TableCell>
                    <TableCell>Сгорят</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {c.bonus_moves.map((m) => (
                    <TableRow key={m.id}>
                      <TableCell>{dateTime(m.created_at)}</TableCell>
                      <TableCell>
                        {bonusMoveText({
                          kind: m.kind as BonusMoveKind,
                          orderId: m.order_id,
                          amountKopecks: m.amount_kopecks,
                        })}
                      </TableCell>
                      <TableCell align="right">
                        {m.amount_kopecks > 0 ? '+' : ''}
                        {Math.trunc(m.amount_kopecks / 100)}
                      </TableCell>
                      <TableCell>{m.expires_at ? dateTime(m.expires_at) : ''}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </Section>
          <Section title="Подарочные сертификаты (купленные)">
            {c.certificates.length === 0 ? <Typography color="text.secondary">Нет</Typography> : null}
            {c.certificates.map((g) => (
              <Typography key={g.id}>
                …{g.code_tail} ({g.kind === 'plastic' ? 'пластиковый' : 'электронный'}), номинал{' '}
                {rub(g.nominal_kopecks)}, остаток {rub(g.balance_kopecks)}, до {dateTime(g.expires_at)}
                {g.order_id ? `, заказ № ${g.order_id}` : ''}
              </Typography>
            ))}
          </Section>
          <Section title="История">
            {c.audit.length === 0 ? <Typography color="text.secondary">Пока пусто</Typography> : null}
            {c.audit.map((a) => (
              <Typography key={a.id}>
                {dateTime(a.at)} — {a.actor_label}: {auditActionText(a)}
                {a.reason ? ` («${a.reason}»)` : ''}
              </Typography>
            ))}
          </Section>
        </Stack>
      </CardContent>
      {open ? <ActionDialog customer={c} kind={open} onClose={() => setOpen(null)} /> : null}
    </Card>
  );
}

export function CustomerShow() {
  return (
    <Show title="Покупатель" component="div" actions={false}>
      <CustomerPage />
    </Show>
  );
}
