import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import {
  BooleanInput,
  Datagrid,
  List,
  NumberField,
  NumberInput,
  TextField as RaTextField,
  TextInput,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import type { StockOfferItem } from '~/shared/admin-contract';
import type { AdminDataProvider } from '~/admin/lib/data-provider';
import { newIdempotencyKey } from '~/admin/lib/api';

// Stock (issue #29): offers with their quantities, filters, and the adjust dialog. The dialog makes
// its Idempotency-Key when it opens: a double click or a retry of the same adjustment applies once.

const KINDS = [
  { id: 'receipt', name: 'Поступление (+)' },
  { id: 'damage', name: 'Брак или порча (−)' },
  { id: 'count', name: 'Инвентаризация (новое количество)' },
  { id: 'correction', name: 'Исправление (±)' },
];

export function AdjustDialog({ record, onClose }: { record: StockOfferItem; onClose: () => void }) {
  const dataProvider = useDataProvider<AdminDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [kind, setKind] = useState('receipt');
  const [amount, setAmount] = useState('1');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const n = Number(amount);
    const body =
      kind === 'count' ? { set: n, kind, note } : { delta: kind === 'damage' ? -Math.abs(n) : n, kind, note };
    setBusy(true);
    try {
      await dataProvider.action('offers', { id: record.id, name: 'stock', body, idempotencyKey });
      notify('Остаток изменён', { type: 'success' });
      refresh();
      onClose();
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не удалось изменить остаток', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>
        Остаток: {record.article}, размер {record.size} (сейчас {record.quantity})
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField select label="Причина" value={kind} onChange={(e) => setKind(e.target.value)}>
            {KINDS.map((k) => (
              <MenuItem key={k.id} value={k.id}>
                {k.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={kind === 'count' ? 'Новое количество' : 'Количество'}
            type="number"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
          <TextField label="Комментарий" required value={note} onChange={(e) => setNote(e.target.value)} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Отмена</Button>
        <Button variant="contained" disabled={busy || !note.trim()} onClick={() => void submit()}>
          Сохранить
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function AdjustButton() {
  const record = useRecordContext<StockOfferItem>();
  const [open, setOpen] = useState(false);
  if (!record) return null;
  return (
    <>
      <Button
        size="small"
        onClick={(e) => {
          e.stopPropagation();
          setOpen(true);
        }}
      >
        Изменить
      </Button>
      {open ? <AdjustDialog record={record} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

const filters = [
  <TextInput key="q" source="q" label="Артикул или название" alwaysOn />,
  <TextInput key="size" source="size" label="Размер" />,
  <NumberInput key="section_id" source="section_id" label="Раздел (id)" />,
  <NumberInput key="at_most" source="at_most" label="Не больше" />,
  <BooleanInput key="sold_out" source="sold_out" label="Нет в наличии" />,
];

export function StockList() {
  return (
    <List filters={filters} sort={{ field: 'id', order: 'ASC' }} title="Склад" exporter={false}>
      <Datagrid rowClick={(id) => `/offers/${id}/show`} bulkActionButtons={false}>
        <RaTextField source="article" label="Артикул" />
        <RaTextField source="name" label="Товар" />
        <RaTextField source="size" label="Размер" sortable={false} />
        <NumberField source="quantity" label="Остаток" />
        <NumberField source="waiting" label="Ждут" sortable={false} />
        <AdjustButton />
      </Datagrid>
    </List>
  );
}
