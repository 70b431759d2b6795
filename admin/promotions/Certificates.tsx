import { useEffect, useState } from 'react';
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
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import {
  Create,
  Datagrid,
  FunctionField,
  Link,
  List,
  RadioButtonGroupInput,
  required,
  SaveButton,
  SelectInput,
  Show,
  SimpleForm,
  TextInput,
  Toolbar,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import type { CertificateDetail, CertificateItem } from '~/shared/admin-promotions-contract';
import { adminApi, newIdempotencyKey } from '~/admin/lib/api';
import { ACTION_LABELS, dateTime } from '~/admin/lib/labels';
import { rub } from '~/admin/orders/labels';

// Gift certificates (issue #30): the list found by number (or its first digits), one
// certificate's page with its balance history (the certificate ledger) and audit rows, voiding one
// with a reason, and issuing one by hand (customer service): a nominal of the certificate products
// or a whole-rouble amount in the stated range, the recipient's e-mail optional. The form's
// Idempotency-Key is made when it opens, so a double click issues one certificate.

const STATE_CHOICES = [
  { id: 'active', name: 'С остатком' },
  { id: 'voided', name: 'Аннулированные' },
  { id: 'manual', name: 'Выпущены вручную' },
];

const filters = [
  <TextInput key="q" source="q" label="Номер сертификата" alwaysOn resettable />,
  <SelectInput key="state" source="state" label="Какие" choices={STATE_CHOICES} alwaysOn emptyText="Все" />,
];

export function CertificateList() {
  return (
    <List title="Подарочные сертификаты" filters={filters} exporter={false} sort={{ field: 'id', order: 'DESC' }}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <FunctionField<CertificateItem>
          label="Номер"
          sortable={false}
          // A link, so the row opens by keyboard too (and the list's scroll area has a focusable element).
          render={(c) => (
            <Link
              to={`/certificates/${c.id}/show`}
              onClick={(e: { stopPropagation(): void }) => e.stopPropagation()}
              sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}
            >
              {c.code_formatted}
            </Link>
          )}
        />
        <FunctionField<CertificateItem> label="Вид" sortable={false} render={(c) => c.kind_label} />
        <FunctionField<CertificateItem>
          label="Номинал"
          sortable={false}
          textAlign="right"
          render={(c) => rub(c.nominal_kopecks)}
        />
        <FunctionField<CertificateItem>
          label="Остаток"
          sortable={false}
          textAlign="right"
          render={(c) => rub(c.balance_kopecks)}
        />
        <FunctionField<CertificateItem>
          label="Откуда"
          sortable={false}
          render={(c) => (c.order_id ? `Заказ № ${c.order_id}` : 'Выпущен вручную')}
        />
        <FunctionField<CertificateItem> label="Действует до" sortable={false} render={(c) => dateTime(c.expires_at)} />
        <FunctionField<CertificateItem> label="Состояние" sortable={false} render={(c) => c.state_label} />
      </Datagrid>
    </List>
  );
}

function VoidButton() {
  const c = useRecordContext<CertificateDetail>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(newIdempotencyKey);
  const [busy, setBusy] = useState(false);
  if (!c || c.voided_at) return null;
  const run = async () => {
    setBusy(true);
    try {
      await adminApi(`/certificates/${c.id}/void`, { method: 'POST', body: { reason }, key });
      notify('Сертификат аннулирован', { type: 'success' });
      setOpen(false);
      setKey(newIdempotencyKey());
      refresh();
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не удалось', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="outlined" color="error" onClick={() => setOpen(true)}>
        Аннулировать
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)}>
        <DialogTitle>Аннулировать сертификат {c.code_formatted}?</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 2 }}>
            Остаток {rub(c.balance_kopecks)} пропадёт, и сертификатом больше нельзя будет оплатить заказ.
          </Typography>
          <TextField
            label="Причина"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            required
            fullWidth
            multiline
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Отмена</Button>
          <Button color="error" onClick={() => void run()} disabled={busy || reason.trim().length < 3}>
            Аннулировать
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

function CertificateView() {
  const c = useRecordContext<CertificateDetail>();
  if (!c) return null;
  return (
    <Box sx={{ p: 2, maxWidth: 960 }}>
      <Card variant="outlined" sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="h6" component="h2" sx={{ fontFamily: 'monospace' }}>
            {c.code_formatted}
          </Typography>
          <Typography>
            {c.kind_label}, номинал {rub(c.nominal_kopecks)}, остаток <strong>{rub(c.balance_kopecks)}</strong> —{' '}
            {c.state_label}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Выпущен {dateTime(c.issued_at)}
            {c.order_id ? ` (заказ № ${c.order_id})` : ' вручную'}, действует до {dateTime(c.expires_at)}
            {c.email ? `, e-mail ${c.email}` : ''}
            {c.issue_note ? `. Причина выпуска: ${c.issue_note}` : ''}
          </Typography>
          {c.voided_at ? (
            <Alert severity="warning" sx={{ mt: 1 }}>
              Аннулирован {dateTime(c.voided_at)}: {c.void_reason}
            </Alert>
          ) : null}
        </CardContent>
      </Card>
      <VoidButton />
      <Typography variant="subtitle1" component="h2" sx={{ mt: 2 }}>
        Движения баланса
      </Typography>
      <Table size="small" aria-label="Движения баланса">
        <TableHead>
          <TableRow>
            <TableCell>Когда</TableCell>
            <TableCell>Что</TableCell>
            <TableCell align="right">Сумма</TableCell>
            <TableCell>Заказ</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {(c.moves ?? []).map((m) => (
            <TableRow key={m.id}>
              <TableCell>{dateTime(m.at)}</TableCell>
              <TableCell>{m.kind_label}</TableCell>
              <TableCell align="right">
                {m.amount_kopecks > 0 ? '+' : ''}
                {rub(m.amount_kopecks)}
              </TableCell>
              <TableCell>{m.order_id ? `№ ${m.order_id}` : '—'}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {c.audit?.length ? (
        <>
          <Typography variant="subtitle1" component="h2" sx={{ mt: 2 }}>
            История
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {[...c.audit].reverse().map((a) => (
              <li key={a.id}>
                {dateTime(a.at)} — {a.actor_label}: {ACTION_LABELS[a.action] ?? a.action}
                {a.reason ? ` («${a.reason}»)` : ''}
              </li>
            ))}
          </Box>
        </>
      ) : null}
    </Box>
  );
}

export function CertificateShow() {
  return (
    <Show title="Сертификат">
      <CertificateView />
    </Show>
  );
}

function useNominals() {
  const [options, setOptions] = useState<{
    nominals_kopecks: number[];
    min_kopecks: number;
    max_kopecks: number;
  } | null>(null);
  useEffect(() => {
    let live = true;
    adminApi<{ data: { nominals_kopecks: number[]; min_kopecks: number; max_kopecks: number } }>(
      '/certificates/options',
    ).then(
      (r) => {
        if (live) setOptions(r.data);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return options;
}

export function CertificateCreate() {
  const [idempotencyKey] = useState(newIdempotencyKey);
  const options = useNominals();
  const money = (k: number) => (k / 100).toLocaleString('ru-RU');
  const nominals = (options?.nominals_kopecks ?? []).map(money);
  return (
    <Create title="Выпустить сертификат" redirect="show" mutationOptions={{ meta: { idempotencyKey } }}>
      <SimpleForm
        defaultValues={{ kind: 'electronic' }}
        sx={{ maxWidth: 720 }}
        toolbar={
          <Toolbar>
            <SaveButton label="Выпустить" />
          </Toolbar>
        }
      >
        <RadioButtonGroupInput
          source="kind"
          label="Вид"
          choices={[
            { id: 'electronic', name: 'Электронный' },
            { id: 'plastic', name: 'Пластиковый' },
          ]}
        />
        <TextInput
          source="amount"
          label="Сумма, ₽"
          validate={required('Укажите сумму')}
          helperText={
            options
              ? `Номиналы: ${nominals.join('; ')} ₽; или от ${money(options.min_kopecks)} до ${money(options.max_kopecks)} ₽ в целых рублях`
              : ' '
          }
        />
        <TextInput
          source="email"
          label="E-mail получателя"
          helperText="Необязательно: электронный сертификат придёт письмом"
        />
        <TextInput
          source="note"
          label="Причина выпуска"
          validate={required('Укажите причину выпуска')}
          multiline
          fullWidth
        />
      </SimpleForm>
    </Create>
  );
}
