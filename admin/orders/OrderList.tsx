import { Chip } from '@mui/material';
import { DataTable, DateInput, List, SelectInput, TextInput } from 'react-admin';
import type { AdminOrderItem } from '~/shared/admin-contract';
import { dateTime } from '~/admin/lib/labels';
import {
  DELIVERY_CHOICES,
  DELIVERY_LABELS,
  PAYMENT_CHOICES,
  PAYMENT_LABELS,
  PAYMENT_STATE_LABELS,
  phoneText,
  rub,
  STATUS_CHOICES,
} from './labels';

// Orders (issue #29): newest first; filters by status, dates, delivery, payment, city; the search
// box finds an order by its number, phone, e-mail or name.

const filters = [
  <TextInput key="q" source="q" label="Номер, телефон, e-mail или имя" alwaysOn sx={{ minWidth: 300 }} />,
  <SelectInput key="status" source="status" label="Статус" choices={STATUS_CHOICES} alwaysOn />,
  <DateInput key="from" source="from" label="С даты" alwaysOn />,
  <DateInput key="to" source="to" label="По дату" alwaysOn />,
  <SelectInput key="delivery" source="delivery" label="Доставка" choices={DELIVERY_CHOICES} />,
  <SelectInput key="payment" source="payment" label="Оплата" choices={PAYMENT_CHOICES} />,
  <TextInput key="city" source="city" label="Город" />,
];

export function OrderList() {
  return (
    <List title="Заказы" filters={filters} sort={{ field: 'created_at', order: 'DESC' }} perPage={25} exporter={false}>
      <DataTable<AdminOrderItem> rowClick="show" bulkActionButtons={false}>
        <DataTable.Col<AdminOrderItem> source="id" label="№" />
        <DataTable.Col<AdminOrderItem> source="created_at" label="Дата" render={(r) => dateTime(r.created_at)} />
        <DataTable.Col<AdminOrderItem> label="Покупатель" disableSort render={(r) => r.customer_name || '—'} />
        <DataTable.Col<AdminOrderItem> label="Телефон" disableSort render={(r) => phoneText(r.phone)} />
        <DataTable.Col<AdminOrderItem> label="Город" disableSort render={(r) => r.city || '—'} />
        <DataTable.Col<AdminOrderItem>
          label="Доставка"
          disableSort
          render={(r) => DELIVERY_LABELS[r.delivery_id ?? ''] ?? '—'}
        />
        <DataTable.Col<AdminOrderItem>
          label="Оплата"
          disableSort
          render={(r) => {
            const method = PAYMENT_LABELS[r.payment_id] ?? '—';
            const state = PAYMENT_STATE_LABELS[r.payment_state] ?? '';
            return state && state !== method && state !== '—' ? `${method} · ${state}` : method;
          }}
        />
        <DataTable.Col<AdminOrderItem>
          source="status"
          label="Статус"
          render={(r) => (
            <Chip size="small" variant={r.status === 'cancelled' ? 'outlined' : 'filled'} label={r.status_label} />
          )}
        />
        <DataTable.Col<AdminOrderItem> source="total" label="Сумма" render={(r) => rub(r.total_kopecks)} />
      </DataTable>
    </List>
  );
}
