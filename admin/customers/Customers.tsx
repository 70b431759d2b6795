import { ArrayField, Datagrid, DateField, List, NumberField, Show, SimpleShowLayout, TextField, TextInput } from 'react-admin';

// Customers (issue #29), read only so far: search by phone, e-mail or name; the profile with orders and returns.

export function CustomerList() {
  return (
    <List filters={[<TextInput key="q" source="q" label="Телефон, e-mail или имя" alwaysOn />]} sort={{ field: 'id', order: 'DESC' }} title="Покупатели">
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="id" label="№" />
        <TextField source="name" label="Имя" sortable={false} />
        <TextField source="phone" label="Телефон" sortable={false} />
        <TextField source="email" label="E-mail" sortable={false} />
        <DateField source="created_at" label="С нами с" sortable={false} />
      </Datagrid>
    </List>
  );
}

export function CustomerShow() {
  return (
    <Show title="Покупатель">
      <SimpleShowLayout>
        <TextField source="name" label="Имя" />
        <TextField source="phone" label="Телефон" />
        <TextField source="email" label="E-mail" />
        <NumberField source="bonus_kopecks" label="Бонусы, коп." />
        <ArrayField source="orders" label="Заказы">
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <TextField source="id" label="№" />
            <TextField source="status" label="Статус" />
            <NumberField source="total_kopecks" label="Сумма, коп." />
            <DateField source="created_at" label="Дата" />
          </Datagrid>
        </ArrayField>
        <ArrayField source="returns" label="Возвраты">
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <TextField source="id" label="№" />
            <TextField source="order_id" label="Заказ" />
            <TextField source="status" label="Статус" />
            <DateField source="created_at" label="Дата" />
          </Datagrid>
        </ArrayField>
      </SimpleShowLayout>
    </Show>
  );
}
