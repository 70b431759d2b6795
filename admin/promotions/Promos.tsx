import { useState } from 'react';
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
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  Create,
  Datagrid,
  DateTimeInput,
  Edit,
  FunctionField,
  List,
  NumberInput,
  RadioButtonGroupInput,
  required,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
  type RaRecord,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { PromoDetail, PromoItem } from '~/shared/admin-promotions-contract';
import { adminApi, newIdempotencyKey } from '~/admin/lib/api';
import { ACTION_LABELS, dateTime } from '~/admin/lib/labels';
import { rub } from '~/admin/orders/labels';

// Promo codes (issue #30): the list with usage figures (orders, revenue, discount given) from the
// orders, a search by code and active/ended filters; a new code; a code's page to change its terms,
// end it now («Завершить») or remove it while no order used it. Sale items never take a promo code
// (content/pages/promo.md), so there is no switch for it.

const STATE_CHOICES = [
  { id: 'active', name: 'Действуют' },
  { id: 'expired', name: 'Завершены' },
];
const KIND_CHOICES = [
  { id: 'percent', name: 'Процент' },
  { id: 'fixed', name: 'Сумма, ₽' },
];

const period = (p: PromoItem) =>
  p.valid_from || p.valid_to
    ? `${p.valid_from ? dateTime(p.valid_from) : '…'} — ${p.valid_to ? dateTime(p.valid_to) : '…'}`
    : 'без срока';
const limits = (p: PromoItem) =>
  `${p.used_count}${p.total_limit !== null ? ` из ${p.total_limit}` : ''}${p.per_customer_limit !== null ? `, на покупателя ${p.per_customer_limit}` : ''}`;

const filters = [
  <TextInput key="q" source="q" label="Поиск по коду" alwaysOn resettable />,
  <SelectInput key="state" source="state" label="Состояние" choices={STATE_CHOICES} alwaysOn emptyText="Все" />,
];

export function PromoList() {
  return (
    <List title="Промокоды" filters={filters} exporter={false} sort={{ field: 'created_at', order: 'DESC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <FunctionField<PromoItem> label="Код" source="code" render={(p) => <strong>{p.code}</strong>} />
        <FunctionField<PromoItem> label="Условия" sortable={false} render={(p) => p.terms} />
        <FunctionField<PromoItem> label="Срок" source="valid_to" render={period} />
        <FunctionField<PromoItem> label="Использован" sortable={false} render={limits} />
        <FunctionField<PromoItem> label="Заказов" sortable={false} textAlign="right" render={(p) => p.orders} />
        <FunctionField<PromoItem>
          label="Выручка"
          sortable={false}
          textAlign="right"
          render={(p) => rub(p.revenue_kopecks)}
        />
        <FunctionField<PromoItem>
          label="Скидка"
          sortable={false}
          textAlign="right"
          render={(p) => rub(p.discount_kopecks)}
        />
        <FunctionField<PromoItem> label="Состояние" sortable={false} render={(p) => p.state_label} />
      </Datagrid>
    </List>
  );
}

/** The form's values as the API takes them: money as text in roubles, moments as ISO. */
function termsBody(d: Record<string, unknown>) {
  const iso = (v: unknown) => (v ? new Date(String(v)).toISOString() : null);
  const num = (v: unknown) => (v === '' || v === null || v === undefined ? null : Number(v));
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return {
    kind: d.kind,
    percent: d.kind === 'percent' ? num(d.percent) : null,
    amount: d.kind === 'fixed' ? text(d.amount) : '',
    min_basket: text(d.min_basket),
    valid_from: iso(d.valid_from),
    valid_to: iso(d.valid_to),
    total_limit: num(d.total_limit),
    per_customer_limit: num(d.per_customer_limit),
  };
}

function ValueInput() {
  const kind = useWatch({ name: 'kind' }) as string | undefined;
  return kind === 'fixed' ? (
    <TextInput
      source="amount"
      label="Скидка, ₽"
      helperText="Например, 1 000"
      validate={required('Укажите сумму скидки')}
    />
  ) : (
    <NumberInput source="percent" label="Скидка, %" min={1} max={100} validate={required('Укажите процент')} />
  );
}

function TermsFields() {
  return (
    <>
      <RadioButtonGroupInput source="kind" label="Вид скидки" choices={KIND_CHOICES} />
      <ValueInput />
      <TextInput source="min_basket" label="Минимальная сумма заказа, ₽" helperText="Пусто — без минимума" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <DateTimeInput source="valid_from" label="Действует с" />
        <DateTimeInput source="valid_to" label="Действует по" />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <NumberInput source="total_limit" label="Всего использований" helperText="Пусто — без лимита" min={1} />
        <NumberInput source="per_customer_limit" label="На одного покупателя" helperText="Пусто — без лимита" min={1} />
      </Stack>
      <Alert severity="info" sx={{ mb: 2 }}>
        Промокод не действует на вещи со скидкой и на подарочные сертификаты — так обещает страница «Акции и распродажа»
        (/promo/).
      </Alert>
    </>
  );
}

export function PromoCreate() {
  const [idempotencyKey] = useState(newIdempotencyKey);
  return (
    <Create
      title="Новый промокод"
      redirect="edit"
      mutationOptions={{ meta: { idempotencyKey } }}
      transform={(d: Record<string, unknown>) => ({ code: typeof d.code === 'string' ? d.code : '', ...termsBody(d) })}
    >
      <SimpleForm defaultValues={{ kind: 'percent' }} sx={{ maxWidth: 720 }}>
        <TextInput
          source="code"
          label="Код"
          helperText="Латинские или русские буквы, цифры, «-» и «_»; регистр не важен"
          validate={required('Укажите промокод')}
        />
        <TermsFields />
      </SimpleForm>
    </Create>
  );
}

function PromoFigures() {
  const p = useRecordContext<PromoDetail>();
  if (!p) return null;
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {p.code} — {p.state_label}
        </Typography>
        <Typography>
          Заказов: <strong>{p.orders}</strong> · выручка: <strong>{rub(p.revenue_kopecks)}</strong> · скидка:{' '}
          <strong>{rub(p.discount_kopecks)}</strong> · использован: {limits(p)}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Отменённые заказы не считаются. Создан {dateTime(p.created_at)}
          {p.expired_at ? `, завершён ${dateTime(p.expired_at)}` : ''}.
        </Typography>
      </CardContent>
    </Card>
  );
}

function PromoActions() {
  const p = useRecordContext<PromoDetail>();
  const notify = useNotify();
  const refresh = useRefresh();
  const redirect = useRedirect();
  const [open, setOpen] = useState<null | 'expire' | 'remove'>(null);
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(newIdempotencyKey);
  const [busy, setBusy] = useState(false);
  if (!p) return null;
  const run = async () => {
    if (!open) return;
    setBusy(true);
    try {
      await adminApi(`/promo-codes/${encodeURIComponent(p.code)}/${open}`, { method: 'POST', body: { reason }, key });
      notify(open === 'expire' ? 'Промокод завершён' : 'Промокод удалён', { type: 'success' });
      setOpen(null);
      setKey(newIdempotencyKey());
      if (open === 'remove') redirect('list', 'promo-codes');
      else refresh();
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не удалось', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ mb: 2 }}>
      {p.state !== 'expired' || p.active ? (
        <Button variant="outlined" onClick={() => setOpen('expire')} disabled={!p.active}>
          Завершить
        </Button>
      ) : null}
      {p.removable ? (
        <Button variant="outlined" color="error" onClick={() => setOpen('remove')}>
          Удалить
        </Button>
      ) : (
        <Typography variant="body2" color="text.secondary" sx={{ alignSelf: 'center' }}>
          Использованный промокод нельзя удалить — только завершить.
        </Typography>
      )}
      <Dialog open={open !== null} onClose={() => setOpen(null)}>
        <DialogTitle>{open === 'expire' ? `Завершить промокод ${p.code}?` : `Удалить промокод ${p.code}?`}</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>
            {open === 'expire'
              ? 'Новые заказы его не примут; оформленные заказы сохранят скидку.'
              : 'Промокод ещё не использован ни в одном заказе.'}
          </Typography>
          <TextField label="Причина" value={reason} onChange={(e) => setReason(e.target.value)} fullWidth />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(null)}>Отмена</Button>
          <Button onClick={() => void run()} disabled={busy} color={open === 'remove' ? 'error' : 'primary'}>
            {open === 'expire' ? 'Завершить' : 'Удалить'}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}

function PromoHistory() {
  const p = useRecordContext<PromoDetail>();
  if (!p?.audit?.length) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h2">
        История
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {[...p.audit].reverse().map((a) => (
          <li key={a.id}>
            {dateTime(a.at)} — {a.actor_label}: {ACTION_LABELS[a.action] ?? a.action}
            {a.reason ? ` («${a.reason}»)` : ''}
          </li>
        ))}
      </Box>
    </Box>
  );
}

/** The record as the form shows it: money in roubles, as typed. */
const toForm = (p: RaRecord) => ({
  ...p,
  amount: p.amount_kopecks ? String(p.amount_kopecks / 100).replace('.', ',') : '',
  min_basket: p.min_basket_kopecks ? String(p.min_basket_kopecks / 100).replace('.', ',') : '',
});

function PromoForm() {
  const p = useRecordContext<PromoDetail>();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!p) return null;
  const save = async (d: Record<string, unknown>) => {
    try {
      await adminApi(`/promo-codes/${encodeURIComponent(p.code)}`, { method: 'PATCH', body: termsBody(d) });
      notify('Промокод сохранён', { type: 'success' });
      refresh();
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не удалось', { type: 'error' });
    }
  };
  return (
    <SimpleForm
      record={toForm(p)}
      onSubmit={(d: Record<string, unknown>) => save(d)}
      sx={{ maxWidth: 720 }}
      toolbar={
        <Toolbar>
          <SaveButton label="Сохранить" />
        </Toolbar>
      }
    >
      <PromoFigures />
      <PromoActions />
      <TermsFields />
      <PromoHistory />
    </SimpleForm>
  );
}

export function PromoEdit() {
  return (
    <Edit title="Промокод" mutationMode="pessimistic" redirect={false}>
      <PromoForm />
    </Edit>
  );
}
