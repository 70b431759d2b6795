import { ArrayField, Datagrid, DateField, FunctionField, NumberField, ReferenceManyField, Show, SimpleShowLayout, TextField } from 'react-admin';
import type { AuditItem } from '~/shared/admin-contract';
import { ACTION_LABELS } from '~/admin/lib/labels';

// One offer, its stock ledger (stock_moves), newest first, and its history from the audit log.

export function OfferShow() {
  return (
    <Show title="Предложение">
      <SimpleShowLayout>
        <TextField source="article" label="Артикул" />
        <TextField source="name" label="Товар" />
        <TextField source="size" label="Размер" />
        <NumberField source="quantity" label="Остаток" />
        <ReferenceManyField reference="offers-moves" target="offer_id" label="Движения остатка">
          <Datagrid bulkActionButtons={false}>
            <DateField source="created_at" label="Когда" showTime />
            <NumberField source="delta" label="Изменение" />
            <NumberField source="quantity_after" label="Стало" />
            <TextField source="reason_label" label="Причина" />
            <TextField source="note" label="Комментарий" />
            <TextField source="actor_kind" label="Кто" />
          </Datagrid>
        </ReferenceManyField>
        <ArrayField source="audit" label="История (журнал действий)">
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<span>Пока пусто</span>}>
            <DateField source="at" label="Когда" showTime sortable={false} />
            <TextField source="actor_label" label="Кто" sortable={false} />
            <FunctionField<AuditItem> label="Что" sortable={false} render={(a) => ACTION_LABELS[a.action] ?? a.action} />
            <TextField source="reason" label="Причина" sortable={false} />
          </Datagrid>
        </ArrayField>
      </SimpleShowLayout>
    </Show>
  );
}
