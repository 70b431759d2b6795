import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Link, Stack, TextField } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import {
  Datagrid,
  DateInput,
  FunctionField,
  List,
  NumberInput,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField as RaTextField,
  useDataProvider,
  useNotify,
  usePermissions,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import type { ReturnItem } from '~/shared/admin-contract';
import type { AdminDataProvider } from '~/admin/lib/data-provider';
import { newIdempotencyKey } from '~/admin/lib/api';
import { dateTime } from '~/admin/lib/labels';

// Returns (issue #29): the requests shoppers file in their account; approve (the refund by the
// original means, once), refuse with the reason the customer sees, receive the goods (stock back).
// Each dialog makes its Idempotency-Key when it opens: a double click or a retry acts once.

const STATUSES = [
  { id: 'new', name: 'Новое' },
  { id: 'approved', name: 'Одобрено' },
  { id: 'refunded', name: 'Деньги возвращены' },
  { id: 'rejected', name: 'Отказано' },
];
const MEANS: Record<string, string> = {
  cloudpayments: 'на карту',
  dolyami: 'в Долями',
  'yandex-split': 'в Яндекс Сплит',
  certificate: 'на сертификат',
  bonus: 'бонусами',
  transfer: 'переводом',
};
const REFUND_STATUS: Record<string, string> = { pending: 'в работе', done: 'выполнен', manual: 'переводом вручную' };
const rub = (kopecks: number) => `${(kopecks / 100).toLocaleString('ru-RU', { maximumFractionDigits: 2 })} ₽`;

// `label` is read by SimpleShowLayout for the row's caption.
function ReturnLines(_props: { label: string }) {
  const r = useRecordContext<ReturnItem>();
  if (!r) return null;
  return (
    <Stack spacing={0.5}>
      {r.items.map((i) => (
        <Link key={i.offer_id} component={RouterLink} to={`/offers/${i.offer_id}/show`}>
          Размер № {i.offer_id} — {i.quantity} шт.
        </Link>
      ))}
    </Stack>
  );
}

function ReturnRefunds(_props: { label: string }) {
  const r = useRecordContext<ReturnItem>();
  if (!r?.refunds) return null;
  if (r.refunds.length === 0) return <span>—</span>;
  return (
    <Stack spacing={0.5}>
      {r.refunds.map((f) => (
        <span key={f.means}>
          {rub(f.amount_kopecks)} {MEANS[f.means] ?? ''} — {REFUND_STATUS[f.status] ?? f.status}
        </span>
      ))}
    </Stack>
  );
}

// The staff's words for a status (the filter's), rather than the shopper's «Заявка принята».
const statusName = (r: ReturnItem) => STATUSES.find((s) => s.id === r.status)?.name ?? r.status_label;

type ActionName = 'approve' | 'reject' | 'receive';
const TITLES: Record<ActionName, string> = {
  approve: 'Одобрить и вернуть деньги',
  reject: 'Отказать',
  receive: 'Принять товар на склад',
};
const EXPLAIN: Record<ActionName, string> = {
  approve:
    'Деньги вернутся тем же способом, каким оплачен заказ: на карту, в сервис оплаты частями, на сертификаты и бонусы. Покупатель получит уведомление.',
  reject: 'Причину увидит покупатель.',
  receive: 'Товары заявления вернутся в остаток (один раз).',
};

function ReturnAction({ record, action, onClose }: { record: ReturnItem; action: ActionName; onClose: () => void }) {
  const dataProvider = useDataProvider<AdminDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      const body = action === 'receive' ? (note ? { reason: note } : {}) : note ? { note } : {};
      await dataProvider.action('returns', { id: record.id, name: action, body, idempotencyKey });
      notify('Готово', { type: 'success' });
      refresh();
      onClose();
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не получилось', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>
        {TITLES[action]}: заявление №{record.id}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <span>{EXPLAIN[action]}</span>
          <TextField
            label={action === 'reject' ? 'Причина отказа' : 'Комментарий'}
            required={action === 'reject'}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            multiline
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Отмена</Button>
        <Button
          variant="contained"
          disabled={busy || (action === 'reject' && !note.trim())}
          onClick={() => void submit()}
        >
          {TITLES[action]}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

// The permission each action needs (the server checks it again): warehouse only receives.
const PERMISSION: Record<ActionName, string> = {
  approve: 'refunds:create',
  reject: 'returns:decide',
  receive: 'returns:receive',
};

function ReturnActions() {
  const record = useRecordContext<ReturnItem>();
  const { permissions } = usePermissions<string[]>();
  const [open, setOpen] = useState<ActionName | null>(null);
  if (!record) return null;
  const may = (a: ActionName) => permissions?.includes(PERMISSION[a]) ?? false;
  return (
    <Stack direction="row" spacing={1} sx={{ my: 1 }}>
      {record.status === 'new' && may('approve') ? (
        <Button variant="contained" onClick={() => setOpen('approve')}>
          Одобрить и вернуть деньги
        </Button>
      ) : null}
      {record.status === 'new' && may('reject') ? (
        <Button variant="outlined" onClick={() => setOpen('reject')}>
          Отказать
        </Button>
      ) : null}
      {(record.status === 'approved' || record.status === 'refunded') && !record.received && may('receive') ? (
        <Button variant="outlined" onClick={() => setOpen('receive')}>
          Принять товар
        </Button>
      ) : null}
      {open ? <ReturnAction key={open} record={record} action={open} onClose={() => setOpen(null)} /> : null}
    </Stack>
  );
}

const filters = [
  <SelectInput key="status" source="status" label="Статус" choices={STATUSES} alwaysOn />,
  <NumberInput key="order_id" source="order_id" label="Номер заказа" alwaysOn />,
  <NumberInput key="customer_id" source="customer_id" label="Покупатель (id)" />,
  <DateInput key="from" source="from" label="С даты" />,
  <DateInput key="to" source="to" label="По дату" />,
];

export function ReturnList() {
  return (
    <List filters={filters} sort={{ field: 'id', order: 'DESC' }} title="Возвраты" exporter={false}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <RaTextField source="id" label="№" />
        <FunctionField<ReturnItem> label="Подано" sortBy="created_at" render={(r) => dateTime(r.created_at)} />
        <RaTextField source="order_id" label="Заказ" />
        <FunctionField<ReturnItem> label="Статус" sortable={false} render={statusName} />
        <RaTextField source="reason" label="Причина" sortable={false} />
        <FunctionField<ReturnItem> label="Товар принят" sortable={false} render={(r) => (r.received ? 'Да' : 'Нет')} />
      </Datagrid>
    </List>
  );
}

export function ReturnShow() {
  const { permissions } = usePermissions<string[]>();
  // Without orders:money (warehouse) the answer has no refunds, and without customers:read the customer's page is closed.
  const money = permissions?.includes('orders:money') ?? false;
  const customers = permissions?.includes('customers:read') ?? false;
  return (
    <Show title="Возврат">
      <SimpleShowLayout>
        <ReturnActions />
        <RaTextField source="id" label="№" />
        <FunctionField<ReturnItem>
          label="Заказ"
          render={(r) => (
            <Link component={RouterLink} to={`/orders/${r.order_id}/show`}>
              № {r.order_id}
            </Link>
          )}
        />
        <FunctionField<ReturnItem>
          label="Покупатель"
          render={(r) =>
            customers ? (
              <Link component={RouterLink} to={`/customers/${r.customer_id}/show`}>
                № {r.customer_id}
              </Link>
            ) : (
              `№ ${r.customer_id}`
            )
          }
        />
        <FunctionField<ReturnItem> label="Статус" render={statusName} />
        <RaTextField source="reason" label="Причина покупателя" />
        <ReturnLines label="Товары" />
        <RaTextField source="decision_note" label="Решение" emptyText="—" />
        {money ? <ReturnRefunds label="Возврат денег" /> : null}
        <FunctionField<ReturnItem> label="Товар принят" render={(r) => (r.received ? 'Да' : 'Нет')} />
        <FunctionField<ReturnItem> label="Подано" sortBy="created_at" render={(r) => dateTime(r.created_at)} />
      </SimpleShowLayout>
    </Show>
  );
}
