import { useState } from 'react';
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
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { Show, useDataProvider, useNotify, usePermissions, useRecordContext, useRefresh } from 'react-admin';
import type { AdminOrderDetail } from '~/shared/admin-contract';
import type { AdminDataProvider } from '~/admin/lib/data-provider';
import { newIdempotencyKey } from '~/admin/lib/api';
import { auditActionText, dateTime } from '~/admin/lib/labels';
import {
  ACTION_TITLES,
  DELIVERY_LABELS,
  MESSAGE_LABELS,
  PAYMENT_LABELS,
  PAYMENT_STATE_LABELS,
  phoneText,
  rub,
} from './labels';

// One order (issue #29): who, where, what, the money from the one breakdown, then the actions its
// state allows (the others shown disabled), each behind a confirmation dialog that makes its own
// Idempotency-Key when it opens and reuses it on a retry; the fitting form; history, messages,
// the audit entries and staff notes.

const ACTIONS = ['confirm', 'assemble', 'ship', 'deliver', 'receive', 'mark_paid', 'fitting', 'cancel'] as const;
type Action = (typeof ACTIONS)[number];
const PERMISSION: Record<Action, string> = {
  confirm: 'orders:status',
  assemble: 'orders:ship',
  ship: 'orders:ship',
  deliver: 'orders:ship',
  receive: 'orders:ship',
  mark_paid: 'orders:status',
  fitting: 'orders:fitting',
  cancel: 'orders:status',
};
const EXPLAIN: Record<Action, string> = {
  confirm: 'Заказ станет «Подтверждён».',
  assemble: 'Заказ начнут собирать; посылку СДЭК зарегистрируют.',
  ship: 'Покупатель получит SMS и письмо с трек-номером.',
  deliver: 'Заказ доставлен: с этого дня считается срок возврата.',
  receive: 'Покупатель получил заказ.',
  mark_paid: 'Курьер или пункт выдачи получили деньги.',
  fitting: 'Отметьте, что покупатель оставил и что вернул курьеру. Вернувшееся вернётся на склад.',
  cancel: 'Товары вернутся на склад, сертификаты и бонусы — покупателю.',
};

function ActionDialog({ order, action, onClose }: { order: AdminOrderDetail; action: Action; onClose: () => void }) {
  const dataProvider = useDataProvider<AdminDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  // One key per intended action: made when the dialog opens, sent again on a retry.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [track, setTrack] = useState(order.track_number ?? '');
  const [reason, setReason] = useState('');
  const fitLines = order.lines.filter((l) => !l.preorder);
  const [kept, setKept] = useState<Record<number, number>>(() =>
    Object.fromEntries(fitLines.map((l) => [l.offer_id, l.quantity])),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const body =
        action === 'fitting'
          ? {
              lines: fitLines.map((l) => ({
                offer_id: l.offer_id,
                kept: kept[l.offer_id] ?? 0,
                refused: l.quantity - (kept[l.offer_id] ?? 0),
              })),
            }
          : action === 'ship'
            ? { ...(track.trim() ? { track_number: track.trim() } : {}) }
            : { ...(reason.trim() ? { reason: reason.trim() } : {}) };
      await dataProvider.action('orders', { id: order.id, name: action.replace('_', '-'), body, idempotencyKey });
      notify('Сохранено', { type: 'success' });
      refresh();
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Не удалось');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth>
      <DialogTitle>
        {ACTION_TITLES[action]}: заказ № {order.id}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography>{EXPLAIN[action]}</Typography>
          {action === 'ship' ? (
            <TextField label="Трек-номер СДЭК" value={track} onChange={(e) => setTrack(e.target.value)} autoFocus />
          ) : null}
          {action === 'fitting'
            ? fitLines.map((l) => (
                <Stack key={l.offer_id} direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                  <Typography sx={{ flex: 1 }}>
                    {l.title}, {l.size} — {l.quantity} шт.
                  </Typography>
                  <TextField
                    label="Оставил"
                    type="number"
                    size="small"
                    sx={{ width: 110 }}
                    slotProps={{ htmlInput: { min: 0, max: l.quantity } }}
                    value={kept[l.offer_id] ?? 0}
                    onChange={(e) =>
                      setKept({ ...kept, [l.offer_id]: Math.max(0, Math.min(l.quantity, Number(e.target.value) || 0)) })
                    }
                  />
                  <Typography sx={{ width: 110 }} color="text.secondary">
                    Вернул: {l.quantity - (kept[l.offer_id] ?? 0)}
                  </Typography>
                </Stack>
              ))
            : null}
          {action !== 'ship' && action !== 'fitting' ? (
            <TextField label="Комментарий (необязательно)" value={reason} onChange={(e) => setReason(e.target.value)} />
          ) : null}
          {error ? <Alert severity="error">{error}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Не сейчас
        </Button>
        <Button onClick={run} disabled={busy} variant="contained" color={action === 'cancel' ? 'error' : 'primary'}>
          {error ? 'Повторить' : ACTION_TITLES[action]}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

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

function NoteForm({ orderId }: { orderId: number }) {
  const dataProvider = useDataProvider<AdminDataProvider>();
  const refresh = useRefresh();
  const notify = useNotify();
  const [text, setText] = useState('');
  const [key, setKey] = useState(newIdempotencyKey);
  const [busy, setBusy] = useState(false);
  async function save() {
    setBusy(true);
    try {
      await dataProvider.action('orders', { id: orderId, name: 'notes', body: { text }, idempotencyKey: key });
      setText('');
      setKey(newIdempotencyKey());
      refresh();
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не удалось', { type: 'error' });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
      <TextField
        size="small"
        fullWidth
        label="Заметка для коллег"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <Button variant="outlined" onClick={save} disabled={busy || !text.trim()}>
        Добавить
      </Button>
    </Stack>
  );
}

function OrderPage() {
  const order = useRecordContext<AdminOrderDetail>();
  const { permissions } = usePermissions<string[]>();
  const [open, setOpen] = useState<Action | null>(null);
  // Opened from the list, react-admin shows the list's row at once (it seeds the one-record cache
  // from the list) while it fetches the order: a row has no lines, actions or history yet.
  if (!order || !Array.isArray(order.lines) || !Array.isArray(order.actions))
    return <LinearProgress aria-label="Загрузка заказа" />;
  const point = order.pickup_point as { address?: string; name?: string } | null;
  return (
    <Card>
      <CardContent>
        <Stack spacing={3}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography variant="h5" component="h1">
              Заказ № {order.id}
            </Typography>
            <Chip label={order.status_label} />
            <Typography color="text.secondary">{dateTime(order.created_at)}</Typography>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', gap: 1 }}>
            {ACTIONS.filter((a) => permissions?.includes(PERMISSION[a])).map((a) => (
              <Button
                key={a}
                variant={order.actions.includes(a) ? 'contained' : 'outlined'}
                color={a === 'cancel' ? 'error' : 'primary'}
                disabled={!order.actions.includes(a)}
                onClick={() => setOpen(a)}
              >
                {ACTION_TITLES[a]}
              </Button>
            ))}
          </Stack>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={4}>
            <Section title="Покупатель">
              <Typography>{order.customer_name || '—'}</Typography>
              <Typography>{phoneText(order.phone)}</Typography>
              <Typography>{order.email || '—'}</Typography>
            </Section>
            <Section title="Доставка">
              <Typography>{DELIVERY_LABELS[order.delivery_id ?? ''] ?? '—'}</Typography>
              <Typography>{point?.address ?? (order.address || order.city || '—')}</Typography>
              <Typography>Трек-номер: {order.track_number ?? '—'}</Typography>
            </Section>
            <Section title="Оплата">
              <Typography>{PAYMENT_LABELS[order.payment_id] ?? '—'}</Typography>
              <Typography>{PAYMENT_STATE_LABELS[order.payment_state]}</Typography>
              {order.paid_at ? <Typography>Оплачен {dateTime(order.paid_at)}</Typography> : null}
            </Section>
          </Stack>
          <Section title="Товары">
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Товар</TableCell>
                  <TableCell>Размер</TableCell>
                  <TableCell align="right">Кол-во</TableCell>
                  <TableCell align="right">Цена</TableCell>
                  <TableCell align="right">Примерка</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {order.lines.map((l) => (
                  <TableRow key={`${l.offer_id}-${l.preorder}`}>
                    <TableCell>
                      {l.title}
                      {l.preorder ? ' (предзаказ)' : ''}
                      {l.gift ? ' (подарок)' : ''}
                    </TableCell>
                    <TableCell>{l.size}</TableCell>
                    <TableCell align="right">{l.quantity}</TableCell>
                    <TableCell align="right">{rub(l.price_kopecks)}</TableCell>
                    <TableCell align="right">
                      {l.kept_quantity === null ? '—' : `оставил ${l.kept_quantity}, вернул ${l.refused_quantity ?? 0}`}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Section>
          {order.money ? (
            <Section title="Деньги">
              <Table size="small" sx={{ maxWidth: 480 }}>
                <TableBody>
                  {order.money.rows.map((r) => (
                    <TableRow key={r.key}>
                      <TableCell>{r.label}</TableCell>
                      <TableCell align="right">{r.text}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Section>
          ) : null}
          <Section title="История">
            {order.history.map((h) => (
              <Typography key={h.id}>
                {dateTime(h.at)} — {h.status_label}
                {h.note ? `: ${h.note}` : ''}
              </Typography>
            ))}
          </Section>
          <Section title="SMS и письма">
            {order.messages.length === 0 ? <Typography color="text.secondary">Не отправлялись</Typography> : null}
            {order.messages.map((m) => (
              <Typography key={m.key}>
                {m.sent_at ? dateTime(m.sent_at) : 'отправляется'} — {m.channel === 'sms' ? 'SMS' : 'письмо'}
                {m.tag && MESSAGE_LABELS[m.tag] ? `: ${MESSAGE_LABELS[m.tag]}` : ''}
              </Typography>
            ))}
          </Section>
          <Section title="Журнал действий">
            {order.audit.length === 0 ? <Typography color="text.secondary">Пока пусто</Typography> : null}
            {order.audit.map((a) => (
              <Typography key={a.id}>
                {dateTime(a.at)} — {a.actor_label}: {auditActionText(a)}
                {a.reason ? ` («${a.reason}»)` : ''}
              </Typography>
            ))}
          </Section>
          <Section title="Заметки">
            {order.notes.map((n) => (
              <Typography key={n.id}>
                {dateTime(n.at)} — {n.author}: {n.text}
              </Typography>
            ))}
            {permissions?.includes('orders:write') ? <NoteForm orderId={order.id} /> : null}
          </Section>
        </Stack>
      </CardContent>
      {open ? <ActionDialog order={order} action={open} onClose={() => setOpen(null)} /> : null}
    </Card>
  );
}

export function OrderShow() {
  return (
    <Show title="Заказ" component="div" actions={false}>
      <OrderPage />
    </Show>
  );
}
