import {
  BooleanField,
  Datagrid,
  FunctionField,
  List,
  NumberField,
  NumberInput,
  NullableBooleanInput,
  TextField,
} from 'react-admin';
import { Link } from 'react-router';
import type { PreorderListResponse, WaitingListResponse } from '~/shared/admin-contract';
import { dateTime } from '~/admin/lib/labels';
import { phoneText } from '~/admin/orders/labels';

// Waiting lists and pre-orders (issue #29). Waiting lists: who waits for which size, oldest
// first; adding stock to a sold-out size tells them by SMS. Pre-orders: the pre-order lines of
// orders not yet handed to delivery, oldest order first, with the size's stock now — «Пришёл на
// склад» marks those that can be fulfilled now.

type Waiting = WaitingListResponse['data'][number];

export function WaitingList() {
  return (
    <List
      filters={[<NumberInput key="offer_id" source="offer_id" label="Предложение (id)" alwaysOn />]}
      sort={{ field: 'created_at', order: 'ASC' }}
      title="Листы ожидания"
      // Phones are personal data: no export from here (customers:export is the admin's alone).
      exporter={false}
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <FunctionField<Waiting> label="С" sortBy="created_at" render={(r) => dateTime(r.created_at)} />
        <TextField source="article" label="Артикул" sortable={false} />
        <TextField source="product_name" label="Товар" sortable={false} />
        <TextField source="size" label="Размер" sortable={false} />
        <NumberField source="quantity" label="Остаток" sortable={false} />
        <BooleanField source="preorder" label="Предзаказ" sortable={false} />
        <TextField source="name" label="Имя" sortable={false} />
        <FunctionField<Waiting> label="Телефон" sortable={false} render={(r) => phoneText(r.phone)} />
      </Datagrid>
    </List>
  );
}

type Preorder = PreorderListResponse['data'][number];

export function PreorderList() {
  return (
    <List
      filters={[
        <NullableBooleanInput
          key="in_stock"
          source="in_stock"
          label="Пришёл на склад"
          alwaysOn
          trueLabel="Да"
          falseLabel="Нет"
          nullLabel="Все"
        />,
        <NumberInput key="offer_id" source="offer_id" label="Предложение (id)" />,
      ]}
      sort={{ field: 'order_created_at', order: 'ASC' }}
      title="Предзаказы"
      exporter={false}
    >
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <FunctionField<Preorder>
          label="Заказ"
          sortable={false}
          render={(r) => (
            <Link to={`/orders/${r.order_id}/show`} onClick={(e) => e.stopPropagation()}>
              № {r.order_id}
            </Link>
          )}
        />
        <FunctionField<Preorder>
          label="Оформлен"
          sortBy="order_created_at"
          render={(r) => dateTime(r.order_created_at)}
        />
        <TextField source="status_label" label="Статус" sortable={false} />
        <TextField source="article" label="Артикул" sortable={false} />
        <TextField source="title" label="Товар" sortable={false} />
        <TextField source="size" label="Размер" sortable={false} />
        <NumberField source="quantity" label="Кол-во" sortable={false} />
        <NumberField source="in_stock" label="На складе" sortable={false} />
        <TextField source="customer_name" label="Покупатель" sortable={false} />
        <FunctionField<Preorder> label="Телефон" sortable={false} render={(r) => phoneText(r.phone)} />
      </Datagrid>
    </List>
  );
}
