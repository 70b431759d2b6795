import { useEffect, useState } from 'react';
import { Box, Chip, IconButton, Typography } from '@mui/material';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import {
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  FunctionField,
  List,
  NumberInput,
  required,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextField as RaTextField,
  TextInput,
  Toolbar,
  useListContext,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin';
import type { SectionItem } from '~/shared/admin-catalogue-contract';
import type { AuditItem } from '~/shared/admin-contract';
import { adminApi, newIdempotencyKey } from '~/admin/lib/api';
import { ACTION_LABELS, dateTime } from '~/admin/lib/labels';

// The section tree (issue #30): top-level sections in their order, each followed by its children;
// up and down reorder within a level; a section's page renames, moves (its address stays), hides
// it from the mega menu and sets its SEO texts (title, description, keywords, the text under the
// listing).

function OrderButtons() {
  const s = useRecordContext<SectionItem>();
  const { data } = useListContext<SectionItem>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!s || !data) return null;
  const siblings = data.filter((x) => x.parent_id === s.parent_id).map((x) => x.id);
  const i = siblings.indexOf(s.id);
  const move = async (by: number) => {
    const next = [...siblings];
    next.splice(i, 1);
    next.splice(i + by, 0, s.id);
    setBusy(true);
    try {
      await adminApi('/sections/order', { method: 'POST', body: { parent_id: s.parent_id, ids: next } });
      refresh();
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не удалось', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ whiteSpace: 'nowrap' }} onClick={(e) => e.stopPropagation()}>
      <IconButton size="small" aria-label={`${s.name}: выше`} disabled={busy || i <= 0} onClick={() => void move(-1)}>
        <ArrowUpwardIcon fontSize="small" />
      </IconButton>
      <IconButton
        size="small"
        aria-label={`${s.name}: ниже`}
        disabled={busy || i === siblings.length - 1}
        onClick={() => void move(1)}
      >
        <ArrowDownwardIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

export function SectionList() {
  return (
    <List title="Разделы" exporter={false} perPage={100} pagination={false} sort={{ field: 'sort', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <FunctionField<SectionItem>
          label="Раздел"
          sortable={false}
          render={(s) => <Box sx={{ pl: s.parent_id ? 3 : 0, fontWeight: s.parent_id ? 400 : 600 }}>{s.name}</Box>}
        />
        <RaTextField source="url" label="Адрес" sortable={false} />
        <FunctionField<SectionItem> label="Товаров" sortable={false} textAlign="right" render={(s) => s.products} />
        <FunctionField<SectionItem>
          label="В меню"
          sortable={false}
          render={(s) =>
            s.kind !== 'category' ? (
              <Chip size="small" variant="outlined" label={s.kind === 'new' ? 'Новинки' : 'Распродажа'} />
            ) : s.in_menu ? (
              'да'
            ) : (
              '—'
            )
          }
        />
        <OrderButtons />
      </Datagrid>
    </List>
  );
}

function useParentChoices(selfId?: number) {
  const [choices, setChoices] = useState<{ id: number; name: string }[]>([]);
  useEffect(() => {
    let live = true;
    adminApi<{ data: SectionItem[] }>('/sections?limit=100').then(
      (r) => {
        if (live)
          setChoices(
            r.data
              .filter((s) => s.parent_id === null && s.kind === 'category' && s.id !== selfId)
              .map((s) => ({ id: s.id, name: s.name })),
          );
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [selfId]);
  return choices;
}

function SeoFields() {
  return (
    <>
      <Typography variant="subtitle1" component="h2" sx={{ mt: 1 }}>
        SEO
      </Typography>
      <TextInput source="seo.title" label="Заголовок страницы" fullWidth />
      <TextInput source="seo.description" label="Описание для поисковиков" multiline fullWidth />
      <TextInput source="seo.keywords" label="Ключевые слова" fullWidth />
      <TextInput
        source="seo.text"
        label="Текст под списком товаров"
        helperText="Абзацы — через пустую строку"
        multiline
        minRows={3}
        fullWidth
      />
    </>
  );
}

export function SectionCreate() {
  const parents = useParentChoices();
  const [idempotencyKey] = useState(newIdempotencyKey);
  return (
    <Create title="Новый раздел" redirect="list" mutationOptions={{ meta: { idempotencyKey } }}>
      <SimpleForm defaultValues={{ in_menu: true, sort: 500, parent_id: null }} sx={{ maxWidth: 720 }}>
        <TextInput source="name" label="Название" validate={required('Укажите название')} fullWidth />
        <TextInput
          source="code"
          label="Код (латиницей)"
          helperText="Часть адреса: /catalog/woman/<код>/. Адрес потом не меняется"
          validate={required('Укажите код')}
        />
        <SelectInput source="parent_id" label="Внутри раздела" choices={parents} emptyText="— верхний уровень —" />
        <NumberInput source="sort" label="Порядок" />
        <BooleanInput source="in_menu" label="В меню сайта" />
        <SeoFields />
      </SimpleForm>
    </Create>
  );
}

function SectionHistory() {
  const s = useRecordContext<SectionItem & { audit: AuditItem[] }>();
  if (!s?.audit?.length) return null;
  return (
    <Box component="ul" sx={{ m: 0, pl: 3 }}>
      {[...s.audit].reverse().map((a) => (
        <li key={a.id}>
          {dateTime(a.at)} — {a.actor_label}: {ACTION_LABELS[a.action] ?? a.action}
        </li>
      ))}
    </Box>
  );
}

function SectionForm() {
  const s = useRecordContext<SectionItem>();
  const parents = useParentChoices(s?.id);
  return (
    // No delete button: sections are moved or hidden from the menu, never deleted here.
    <SimpleForm
      sx={{ maxWidth: 720 }}
      toolbar={
        <Toolbar>
          <SaveButton label="Сохранить" />
        </Toolbar>
      }
    >
      <Typography variant="body2" color="text.secondary">
        Адрес: {s?.url} (не меняется при переносе и переименовании)
      </Typography>
      <TextInput source="name" label="Название" validate={required('Укажите название')} fullWidth />
      <SelectInput source="parent_id" label="Внутри раздела" choices={parents} emptyText="— верхний уровень —" />
      <NumberInput source="sort" label="Порядок" />
      <BooleanInput source="in_menu" label="В меню сайта" />
      <SeoFields />
      <SectionHistory />
    </SimpleForm>
  );
}

export function SectionEdit() {
  return (
    <Edit
      title="Раздел"
      mutationMode="pessimistic"
      redirect={false}
      transform={(d: Record<string, unknown>) => ({
        name: d.name,
        parent_id: d.parent_id ?? null,
        sort: d.sort,
        in_menu: d.in_menu,
        seo: d.seo,
      })}
    >
      <SectionForm />
    </Edit>
  );
}
