import { Link } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import {
  ArrayField,
  Datagrid,
  FunctionField,
  NumberField,
  ReferenceManyField,
  Show,
  SimpleShowLayout,
  TextField,
} from 'react-admin';
import type { AuditItem, StockMoveItem } from '~/shared/admin-contract';
import { ACTOR_KIND_LABELS, auditActionText, dateTime } from '~/admin/lib/labels';

// One offer (a size of a product), its stock ledger (stock_moves), newest first: what moved,
// why, for which order or return, and who; and its history from the audit log.

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

export function OfferShow() {
  return (
    <Show title="Остаток размера">
      <SimpleShowLayout>
        <TextField source="article" label="Артикул" />
        <TextField source="name" label="Товар" />
        <TextField source="size" label="Размер" />
        <NumberField source="quantity" label="Остаток" />
        <ReferenceManyField reference="offers-moves" target="offer_id" label="Движения остатка">
          <Datagrid bulkActionButtons={false} rowClick={false}>
            <FunctionField<StockMoveItem> label="Когда" render={(m) => dateTime(m.created_at)} />
            <FunctionField<StockMoveItem> label="Изменение" textAlign="right" render={(m) => signed(m.delta)} />
            <NumberField source="quantity_after" label="Стало" />
            <FunctionField<StockMoveItem>
              label="Причина"
              render={(m) =>
                m.order_id ? (
                  <Link component={RouterLink} to={`/orders/${m.order_id}/show`}>
                    {m.reason === 'order' ? `Заказ №\u00a0${m.order_id}` : `${m.reason_label} (№\u00a0${m.order_id})`}
                  </Link>
                ) : m.return_request_id ? (
                  <Link component={RouterLink} to={`/returns/${m.return_request_id}/show`}>
                    {m.reason_label} (заявление №\u00a0{m.return_request_id})
                  </Link>
                ) : (
                  m.reason_label
                )
              }
            />
            <TextField source="note" label="Комментарий" emptyText="—" />
            <FunctionField<StockMoveItem> label="Кто" render={(m) => ACTOR_KIND_LABELS[m.actor_kind] ?? '—'} />
          </Datagrid>
        </ReferenceManyField>
        <ArrayField source="audit" label="История (журнал действий)">
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<span>Пока пусто</span>}>
            <FunctionField<AuditItem> label="Когда" sortable={false} render={(a) => dateTime(a.at)} />
            <TextField source="actor_label" label="Кто" sortable={false} />
            <FunctionField<AuditItem> label="Что" sortable={false} render={(a) => auditActionText(a)} />
            <TextField source="reason" label="Причина" sortable={false} />
          </Datagrid>
        </ArrayField>
      </SimpleShowLayout>
    </Show>
  );
}
