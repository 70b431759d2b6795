import { BooleanField, Datagrid, DateField, List, NumberField, NumberInput, TextField } from 'react-admin';

// Waiting lists (issue #29): who waits for which size, oldest first; a pre-order size is one to
// fulfil when the stock arrives. Adding stock to a sold-out size tells them by SMS.

export function WaitingList() {
  return (
    <List
      filters={[<NumberInput key="offer_id" source="offer_id" label="Предложение (id)" alwaysOn />]}
      sort={{ field: 'created_at', order: 'ASC' }}
      title="Листы ожидания"
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <DateField source="created_at" label="С" showTime />
        <TextField source="article" label="Артикул" sortable={false} />
        <TextField source="product_name" label="Товар" sortable={false} />
        <TextField source="size" label="Размер" sortable={false} />
        <NumberField source="quantity" label="Остаток" sortable={false} />
        <BooleanField source="preorder" label="Предзаказ" sortable={false} />
        <TextField source="name" label="Имя" sortable={false} />
        <TextField source="phone" label="Телефон" sortable={false} />
      </Datagrid>
    </List>
  );
}
