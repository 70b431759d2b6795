import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import {
  BooleanField,
  Datagrid,
  DateField,
  FunctionField,
  List,
  NumberInput,
  SelectInput,
  Show,
  SimpleShowLayout,
  TextField as RaTextField,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import type { AdminReviewItem } from '~/shared/reviews-contract';
import type { AdminDataProvider } from '~/admin/lib/data-provider';
import { newIdempotencyKey } from '~/admin/lib/api';
import { mediaUrl } from '~/shared/image-url';

// Product reviews (issue #32, docs/reviews.md): the moderation queue (new reviews nobody has
// looked at), publish, reject with the reason the customer sees in their account, the shop's
// reply under a review. Each dialog makes its Idempotency-Key when it opens: a double click acts once.

const STATUSES = [
  { id: 'pending', name: 'На модерации' },
  { id: 'published', name: 'Опубликован' },
  { id: 'rejected', name: 'Отклонён' },
];

type ActionName = 'publish' | 'reject' | 'reply';
const TITLES: Record<ActionName, string> = { publish: 'Опубликовать', reject: 'Отклонить', reply: 'Ответить' };
const EXPLAIN: Record<ActionName, string> = {
  publish: 'Отзыв появится на странице товара и войдёт в рейтинг.',
  reject: 'Причину увидит покупатель в личном кабинете; он сможет один раз исправить отзыв и отправить снова.',
  reply: 'Ответ магазина покажется под отзывом. Пустой ответ удаляет прежний.',
};

function ReviewAction({
  record,
  action,
  onClose,
}: {
  record: AdminReviewItem;
  action: ActionName;
  onClose: () => void;
}) {
  const dataProvider = useDataProvider<AdminDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [idempotencyKey] = useState(newIdempotencyKey);
  const [text, setText] = useState(action === 'reply' ? (record.reply ?? '') : '');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      const body = action === 'reject' ? { reason: text } : action === 'reply' ? { reply: text } : {};
      await dataProvider.action('reviews', { id: record.id, name: action, body, idempotencyKey });
      notify('Готово', { type: 'success' });
      refresh();
      onClose();
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не получилось', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>
        {TITLES[action]}: отзыв №{record.id}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <span>{EXPLAIN[action]}</span>
          {action !== 'publish' ? (
            <TextField
              label={action === 'reject' ? 'Причина отказа' : 'Ответ магазина'}
              required={action === 'reject'}
              value={text}
              onChange={(e) => setText(e.target.value)}
              multiline
              minRows={2}
            />
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Отмена</Button>
        <Button
          variant="contained"
          disabled={busy || (action === 'reject' && text.trim().length < 3)}
          onClick={() => void submit()}
        >
          {TITLES[action]}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function ReviewActions() {
  const record = useRecordContext<AdminReviewItem>();
  const [open, setOpen] = useState<ActionName | null>(null);
  if (!record) return null;
  const withdrawn = record.withdrawn_at !== null;
  return (
    <Stack direction="row" spacing={1} sx={{ my: 1 }}>
      {!withdrawn && (record.status !== 'published' || record.in_queue) ? (
        <Button variant="contained" onClick={() => setOpen('publish')}>
          {record.status === 'published' ? 'Проверен, оставить' : 'Опубликовать'}
        </Button>
      ) : null}
      {record.status !== 'rejected' ? (
        <Button variant="outlined" onClick={() => setOpen('reject')}>
          Отклонить
        </Button>
      ) : null}
      <Button variant="outlined" onClick={() => setOpen('reply')}>
        {record.reply ? 'Изменить ответ' : 'Ответить'}
      </Button>
      {open ? <ReviewAction key={open} record={record} action={open} onClose={() => setOpen(null)} /> : null}
    </Stack>
  );
}

function Photos() {
  const record = useRecordContext<AdminReviewItem>();
  if (!record?.photos.length) return <span>—</span>;
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
      {record.photos.map((p) => (
        <a key={p.path} href={mediaUrl(p.path)} target="_blank" rel="noreferrer">
          <img
            src={`/img/320/${p.path}`}
            alt="Фото покупателя"
            width={120}
            height={Math.round((120 * p.height) / p.width)}
            style={{ objectFit: 'cover' }}
          />
        </a>
      ))}
    </Stack>
  );
}

const filters = [
  <SelectInput
    key="queue"
    source="queue"
    label="Очередь"
    choices={[
      { id: 'true', name: 'Новые, не проверены' },
      { id: 'false', name: 'Проверенные' },
    ]}
    alwaysOn
  />,
  <SelectInput key="status" source="status" label="Статус" choices={STATUSES} alwaysOn />,
  <SelectInput
    key="rating"
    source="rating"
    label="Оценка"
    choices={[1, 2, 3, 4, 5].map((r) => ({ id: String(r), name: `${r} ★` }))}
  />,
  <NumberInput key="product_id" source="product_id" label="Товар (id)" />,
];

export function ReviewList() {
  return (
    <List
      filters={filters}
      filterDefaultValues={{ queue: 'true' }}
      sort={{ field: 'id', order: 'DESC' }}
      title="Отзывы"
    >
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <RaTextField source="id" label="№" />
        <DateField source="sent_at" label="Отправлен" showTime sortable={false} />
        <RaTextField source="product_name" label="Товар" sortable={false} />
        <FunctionField label="Оценка" render={(r: AdminReviewItem) => '★'.repeat(r.rating)} />
        <RaTextField source="fit_label" label="Посадка" sortable={false} />
        <FunctionField
          label="Текст"
          render={(r: AdminReviewItem) => (r.text.length > 120 ? `${r.text.slice(0, 120)}…` : r.text)}
        />
        <FunctionField label="Фото" render={(r: AdminReviewItem) => r.photos.length || ''} />
        <RaTextField source="status_label" label="Статус" sortable={false} />
        <BooleanField source="in_queue" label="Новый" sortable={false} />
      </Datagrid>
    </List>
  );
}

export function ReviewShow() {
  return (
    <Show title="Отзыв">
      <SimpleShowLayout>
        <ReviewActions />
        <RaTextField source="id" label="№" />
        <FunctionField label="Товар" render={(r: AdminReviewItem) => <a href={r.product_url}>{r.product_name}</a>} />
        <RaTextField source="author" label="Автор" />
        <RaTextField source="order_id" label="Заказ" />
        <RaTextField source="status_label" label="Статус" />
        <FunctionField label="Оценка" render={(r: AdminReviewItem) => `${'★'.repeat(r.rating)} (${r.rating})`} />
        <RaTextField source="fit_label" label="Посадка" />
        <RaTextField source="size" label="Размер" />
        <RaTextField source="height_cm" label="Рост" emptyText="—" />
        <RaTextField source="usual_size" label="Обычный размер" emptyText="—" />
        <FunctionField
          label="Текст"
          render={(r: AdminReviewItem) => <span style={{ whiteSpace: 'pre-line' }}>{r.text}</span>}
        />
        <Photos />
        <RaTextField source="reject_reason" label="Причина отказа" emptyText="—" />
        <RaTextField source="resend_count" label="Отправлен повторно" />
        <RaTextField source="reply" label="Ответ магазина" emptyText="—" />
        <RaTextField source="helpful" label="«Помог»" />
        <DateField source="sent_at" label="Отправлен" showTime />
        <DateField source="published_at" label="Опубликован" showTime emptyText="—" />
        <DateField source="withdrawn_at" label="Снят после возврата" showTime emptyText="—" />
      </SimpleShowLayout>
    </Show>
  );
}
