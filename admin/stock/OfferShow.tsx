import { Datagrid, DateField, NumberField, ReferenceManyField, Show, SimpleShowLayout, TextField } from 'react-admin';

// One offer and its stock ledger (stock_moves), newest first.

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
      </SimpleShowLayout>
    </Show>
  );
}
