import { useEffect, useState } from 'react';
import { Alert, Box, Button, Chip, GlobalStyles, Stack, TextField, Typography } from '@mui/material';
import {
  BooleanInput,
  Create,
  Datagrid,
  DateInput,
  Edit,
  FunctionField,
  List,
  required,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextField as RaTextField,
  TextInput,
  Toolbar,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
// The storefront's stylesheets as text, for the preview only (CSS, no code crosses the layers).
// eslint-disable-next-line import-x/no-restricted-paths
import contentCss from '~/app/styles/content.css?inline';
// eslint-disable-next-line import-x/no-restricted-paths
import appCss from '~/app/styles/app.css?inline';
import type { ContentItem } from '~/shared/admin-content-contract';
import type { AuditItem } from '~/shared/admin-contract';
import { adminApi, adminUpload, newIdempotencyKey } from '~/admin/lib/api';
import { imageUrl, mediaUrl } from '~/shared/image-url';
import { ACTION_LABELS, dateTime } from '~/admin/lib/labels';

// The site's words (issue #30): information pages and blog articles in Markdown with a preview
// drawn by the storefront's own rendering and styles, page metadata, redirects and their bulk
// import. Every save carries the version the form opened (the data provider adds it): a save
// over a colleague's newer one is refused with the server's Russian message.

const KIND_LABELS: Record<string, string> = { page: 'Страница', article: 'Статья блога' };

function History() {
  const r = useRecordContext<{ audit?: AuditItem[] }>();
  if (!r?.audit?.length) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h2">
        История
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {[...r.audit].reverse().map((a) => (
          <li key={a.id}>
            {dateTime(a.at)} — {a.actor_label}: {ACTION_LABELS[a.action] ?? a.action}
          </li>
        ))}
      </Box>
    </Box>
  );
}

// ── Pages and articles ────────────────────────────────────────────────────────

const contentFilters = [
  <TextInput key="q" source="q" label="Поиск" alwaysOn />,
  <SelectInput
    key="kind"
    source="kind"
    label="Вид"
    alwaysOn
    choices={[
      { id: 'page', name: 'Страницы' },
      { id: 'article', name: 'Статьи блога' },
    ]}
  />,
  <SelectInput
    key="published"
    source="published"
    label="Публикация"
    choices={[
      { id: 'true', name: 'Опубликовано' },
      { id: 'false', name: 'Не опубликовано' },
    ]}
  />,
];

export function ContentList() {
  return (
    <List title="Страницы и блог" exporter={false} filters={contentFilters} sort={{ field: 'title', order: 'ASC' }}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <RaTextField source="title" label="Заголовок" />
        <RaTextField source="url" label="Адрес" sortable={false} />
        <FunctionField<ContentItem> label="Вид" sortable={false} render={(r) => KIND_LABELS[r.kind] ?? r.kind} />
        <FunctionField<ContentItem>
          label="Публикация"
          sortable={false}
          render={(r) =>
            r.published ? (
              <Chip size="small" color="success" variant="outlined" label="Опубликовано" />
            ) : (
              <Chip size="small" variant="outlined" label="Скрыто" />
            )
          }
        />
        <FunctionField<ContentItem> label="Дата" source="published_on" render={(r) => r.published_on ?? '—'} />
        <FunctionField<ContentItem> label="Изменено" source="updated_at" render={(r) => dateTime(r.updated_at)} />
      </Datagrid>
    </List>
  );
}

// The storefront's colours and fonts (app.css's :root, here on the preview's box) and its Markdown
// styles (content.css: every rule is under a class). Injected through emotion, which carries the
// admin CSP's nonce; the HTML is the server's sanitised rendering, and the CSP runs no inline script.
const PREVIEW_STYLE = `${(/:root\s*\{[^}]*\}/.exec(appCss)?.[0] ?? '').replace(':root', '.vt-preview')} ${contentCss}`;

/** The Markdown as guests will see it, rendered by the server as the storefront renders it. */
function Preview() {
  const body = useWatch({ name: 'body' }) as string | undefined;
  const title = useWatch({ name: 'title' }) as string | undefined;
  const lead = useWatch({ name: 'lead' }) as string | undefined;
  const [html, setHtml] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => {
      adminApi<{ html: string }>('/content/preview', { method: 'POST', body: { body: body ?? '' } }).then(
        (r) => {
          if (live) {
            setHtml(r.html);
            setError(null);
          }
        },
        (e: unknown) => live && setError(e instanceof Error ? e.message : 'Не удалось показать'),
      );
    }, 400);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [body]);
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <GlobalStyles styles={PREVIEW_STYLE} />
      <Typography variant="subtitle1" component="h2">
        Как увидят покупатели
      </Typography>
      {error ? <Alert severity="error">{error}</Alert> : null}
      <Box
        className="vt-preview"
        role="region"
        aria-label="Предпросмотр страницы"
        tabIndex={0}
        sx={{
          p: 3,
          border: '1px solid',
          borderColor: 'divider',
          bgcolor: '#fff',
          maxHeight: 720,
          overflow: 'auto',
          fontFamily: 'var(--font)',
          color: 'var(--ink)',
        }}
      >
        <Box
          component="p"
          sx={{ fontFamily: 'var(--font-display)', fontSize: 40, fontWeight: 500, lineHeight: 1.1, m: '0 0 12px' }}
        >
          {title}
        </Box>
        {lead ? <Box component="p" sx={{ color: 'var(--muted)', fontSize: 18, m: '0 0 24px' }}>{lead}</Box> : null}
        <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
      </Box>
    </Box>
  );
}

function ContentFields({ kind }: { kind: 'page' | 'article' }) {
  return (
    <>
      <TextInput source="title" label="Заголовок" validate={required('Укажите заголовок')} fullWidth />
      <TextInput source="lead" label="Подзаголовок" multiline fullWidth />
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} sx={{ width: '100%' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <TextInput
            source="body"
            label="Текст (Markdown)"
            helperText="## Заголовок, **жирный**, [ссылка](/delivery/), списки через «- ». HTML показывается как текст"
            multiline
            minRows={18}
            fullWidth
            sx={{ '& textarea': { fontFamily: 'monospace', fontSize: 14 } }}
          />
        </Box>
        <Preview />
      </Stack>
      <BooleanInput source="published" label="Опубликовано (видно покупателям)" />
      {kind === 'article' ? (
        <>
          <DateInput source="published_on" label="Дата публикации" />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextInput source="cover_kind" label="Обложка: рисунок (coat, dress, …)" />
            <TextInput source="cover_color" label="Цвет обложки (#rrggbb)" />
          </Stack>
          <TextInput
            source="products"
            label="Разделы каталога в конце статьи"
            helperText="Адреса через запятую: /catalog/woman/denim/"
            fullWidth
          />
        </>
      ) : null}
      <Typography variant="subtitle1" component="h2" sx={{ mt: 1 }}>
        SEO
      </Typography>
      <TextInput source="seo.title" label="Заголовок для поисковиков" fullWidth />
      <TextInput source="seo.description" label="Описание для поисковиков" multiline fullWidth />
      <TextInput source="seo.keywords" label="Ключевые слова" fullWidth />
    </>
  );
}

/** An article's cover photo: uploaded through the product photo pipeline, or removed (the drawing shows). */
function CoverPhoto() {
  const r = useRecordContext<ContentItem & { cover_photo: string | null }>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!r || r.kind !== 'article') return null;
  const done = (p: Promise<unknown>) => {
    setBusy(true);
    p.then(
      () => {
        notify('Обложка сохранена');
        refresh();
      },
      (e: unknown) => notify(e instanceof Error ? e.message : 'Не удалось', { type: 'error' }),
    ).finally(() => setBusy(false));
  };
  return (
    <Box sx={{ my: 1 }}>
      <Typography variant="subtitle1" component="h2">
        Фото обложки
      </Typography>
      {r.cover_photo ? (
        <Box component="img" src={imageUrl(mediaUrl(r.cover_photo), 320)} alt="Обложка статьи" sx={{ width: 160, display: 'block', mb: 1 }} />
      ) : (
        <Typography variant="body2" color="text.secondary">
          Нет: показывается рисунок (вид и цвет ниже)
        </Typography>
      )}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp,image/avif"
          aria-label="Фото обложки"
          disabled={busy}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) done(adminUpload(`/content/${r.id}/cover`, [f], [], newIdempotencyKey()));
            e.target.value = '';
          }}
        />
        {r.cover_photo ? (
          <Button
            size="small"
            disabled={busy}
            onClick={() => done(adminApi(`/content/${r.id}/cover/remove`, { method: 'POST', body: {} }))}
          >
            Убрать фото
          </Button>
        ) : null}
      </Stack>
    </Box>
  );
}

function ContentForm() {
  const r = useRecordContext<ContentItem>();
  if (!r) return null;
  return (
    <SimpleForm
      toolbar={
        <Toolbar>
          <SaveButton label="Сохранить" />
        </Toolbar>
      }
    >
      <Typography variant="body2" color="text.secondary">
        {KIND_LABELS[r.kind]} · адрес на сайте:{' '}
        <a href={r.url} target="_blank" rel="noreferrer">
          {r.url}
        </a>
      </Typography>
      <ContentFields kind={r.kind} />
      <CoverPhoto />
      <History />
    </SimpleForm>
  );
}

export function ContentEdit() {
  return (
    <Edit
      title="Страница"
      mutationMode="pessimistic"
      redirect={false}
      transform={(d: Record<string, unknown>) => ({
        title: d.title,
        lead: d.lead ?? '',
        body: d.body ?? '',
        published: d.published,
        ...(d.kind === 'article'
          ? {
              published_on: d.published_on || null,
              cover_kind: d.cover_kind || null,
              cover_color: d.cover_color || null,
              products: d.products ?? '',
            }
          : {}),
        seo: d.seo,
      })}
    >
      <ContentForm />
    </Edit>
  );
}

export function ArticleCreate() {
  const [idempotencyKey] = useState(newIdempotencyKey);
  return (
    <Create title="Новая статья" redirect="edit" mutationOptions={{ meta: { idempotencyKey } }}>
      <SimpleForm defaultValues={{ published: false, body: '', lead: '' }}>
        <TextInput
          source="slug"
          label="Адрес статьи (латиницей)"
          helperText="/blog/<адрес>/, например kak-nosit-trench"
          validate={required('Укажите адрес')}
        />
        <ContentFields kind="article" />
      </SimpleForm>
    </Create>
  );
}

// ── Page metadata ─────────────────────────────────────────────────────────────

export function PageMetaList() {
  return (
    <List
      title="Метаданные страниц"
      exporter={false}
      filters={[<TextInput key="q" source="q" label="Адрес или заголовок" alwaysOn />]}
      sort={{ field: 'path', order: 'ASC' }}
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <RaTextField source="path" label="Адрес" />
        <RaTextField source="title" label="Заголовок" sortable={false} />
        <FunctionField<{ description: string }>
          label="Описание"
          sortable={false}
          render={(r) => (r.description.length > 90 ? `${r.description.slice(0, 90)}…` : r.description)}
        />
      </Datagrid>
    </List>
  );
}

function MetaFields() {
  return (
    <>
      <TextInput source="title" label="Заголовок страницы (title)" validate={required('Укажите заголовок')} fullWidth />
      <TextInput source="description" label="Описание (description)" multiline fullWidth />
      <TextInput source="keywords" label="Ключевые слова (keywords)" fullWidth />
    </>
  );
}

export function PageMetaEdit() {
  return (
    <Edit
      title="Метаданные страницы"
      mutationMode="pessimistic"
      redirect={false}
      transform={(d: Record<string, unknown>) => ({ title: d.title, description: d.description ?? '', keywords: d.keywords ?? '' })}
    >
      <SimpleForm sx={{ maxWidth: 800 }} toolbar={<Toolbar><SaveButton label="Сохранить" /></Toolbar>}>
        <FunctionField<{ path: string }> render={(r) => <Typography variant="h6">{r.path}</Typography>} />
        <MetaFields />
        <History />
      </SimpleForm>
    </Edit>
  );
}

export function PageMetaCreate() {
  const [idempotencyKey] = useState(newIdempotencyKey);
  return (
    <Create title="Метаданные для адреса" redirect="list" mutationOptions={{ meta: { idempotencyKey } }}>
      <SimpleForm sx={{ maxWidth: 800 }} defaultValues={{ description: '', keywords: '' }}>
        <TextInput source="path" label="Адрес страницы" helperText="Например, /catalog/woman/denim/" validate={required('Укажите адрес')} />
        <MetaFields />
      </SimpleForm>
    </Create>
  );
}

// ── Redirects ─────────────────────────────────────────────────────────────────

const STATUS_CHOICES = [
  { id: 301, name: '301 — навсегда' },
  { id: 302, name: '302 — временно' },
];

function ImportLink() {
  const go = useRedirect();
  return (
    <Button size="small" onClick={() => go('/redirect-import')}>
      Импорт списком
    </Button>
  );
}

export function RedirectList() {
  return (
    <List
      title="Перенаправления"
      exporter={false}
      filters={[<TextInput key="q" source="q" label="Адрес" alwaysOn />]}
      sort={{ field: 'from', order: 'ASC' }}
      actions={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <ImportLink />
        </Stack>
      }
    >
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <RaTextField source="from" label="Старый адрес" />
        <RaTextField source="to" label="Новый адрес" sortable={false} />
        <RaTextField source="status" label="Код" sortable={false} />
      </Datagrid>
    </List>
  );
}

function DeleteRedirect() {
  const r = useRecordContext<{ id: string; version: number }>();
  const notify = useNotify();
  const go = useRedirect();
  if (!r) return null;
  return (
    <Button
      color="error"
      onClick={() => {
        if (!window.confirm(`Удалить перенаправление с ${r.id}?`)) return;
        adminApi(`/redirects/${encodeURIComponent(r.id)}/delete`, { method: 'POST', body: { version: r.version } }).then(
          () => {
            notify('Перенаправление удалено');
            go('list', 'redirects');
          },
          (e: unknown) => notify(e instanceof Error ? e.message : 'Не удалось', { type: 'error' }),
        );
      }}
    >
      Удалить
    </Button>
  );
}

export function RedirectEdit() {
  return (
    <Edit
      title="Перенаправление"
      mutationMode="pessimistic"
      redirect={false}
      transform={(d: Record<string, unknown>) => ({ to: d.to, status: d.status })}
    >
      <SimpleForm
        sx={{ maxWidth: 800 }}
        toolbar={
          <Toolbar sx={{ gap: 2 }}>
            <SaveButton label="Сохранить" />
            <DeleteRedirect />
          </Toolbar>
        }
      >
        <FunctionField<{ from: string }> render={(r) => <Typography variant="h6">С адреса {r.from}</Typography>} />
        <TextInput source="to" label="Новый адрес" helperText="Путь на сайте (/catalog/…) или https://…" validate={required('Укажите новый адрес')} fullWidth />
        <SelectInput source="status" label="Код" choices={STATUS_CHOICES} />
        <History />
      </SimpleForm>
    </Edit>
  );
}

export function RedirectCreate() {
  const [idempotencyKey] = useState(newIdempotencyKey);
  return (
    <Create title="Новое перенаправление" redirect="list" mutationOptions={{ meta: { idempotencyKey } }}>
      <SimpleForm sx={{ maxWidth: 800 }} defaultValues={{ status: 301 }}>
        <TextInput source="from" label="Старый адрес" helperText="Например, /sale/" validate={required('Укажите старый адрес')} fullWidth />
        <TextInput source="to" label="Новый адрес" helperText="Путь на сайте или https://…" validate={required('Укажите новый адрес')} fullWidth />
        <SelectInput source="status" label="Код" choices={STATUS_CHOICES} />
      </SimpleForm>
    </Create>
  );
}

interface ImportAnswer {
  applied: boolean;
  create: { line: number; from: string; to: string; status: number }[];
  change: { line: number; from: string; before: { to: string }; after: { to: string } }[];
  unchanged: number;
  errors: { line: number; error: string }[];
}

/** Pasted lines or a CSV file: a dry run first (what would change, errors per line), then all or nothing. */
export function RedirectImportPage() {
  const [text, setText] = useState('');
  const [plan, setPlan] = useState<ImportAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const refresh = useRefresh();
  const run = async (apply: boolean) => {
    setBusy(true);
    try {
      const r = await adminApi<ImportAnswer>('/redirects/import', { method: 'POST', body: { text, apply } });
      setPlan(r);
      if (r.applied) {
        notify(`Записано: ${r.create.length + r.change.length}`);
        refresh();
      }
    } catch (e) {
      const body = (e as { body?: unknown }).body as ImportAnswer | undefined;
      if (body?.errors) setPlan(body);
      notify(e instanceof Error ? e.message : 'Не удалось', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ p: 2, maxWidth: 1000 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        Импорт перенаправлений
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        Одна строка — одно перенаправление: <code>старый адрес;новый адрес;код</code> (код 301 или 302, по умолчанию 301).
        Подойдёт CSV из Excel (разделитель «;» или «,»). Сначала проверка: ничего не записывается, пока вы не подтвердите, и
        тогда записываются все строки или ни одной.
      </Typography>
      <input
        type="file"
        accept=".csv,.txt,text/csv,text/plain"
        aria-label="Файл CSV"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void f.text().then((t) => { setText(t); setPlan(null); });
        }}
      />
      <TextField
        label="Строки"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setPlan(null);
        }}
        multiline
        minRows={8}
        fullWidth
        sx={{ mt: 2, '& textarea': { fontFamily: 'monospace' } }}
      />
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="outlined" disabled={busy || !text.trim()} onClick={() => void run(false)}>
          Проверить
        </Button>
        <Button
          variant="contained"
          disabled={busy || !plan || plan.applied || plan.errors.length > 0 || plan.create.length + plan.change.length === 0}
          onClick={() => void run(true)}
        >
          Записать все
        </Button>
      </Stack>
      {plan ? (
        <Box sx={{ mt: 2 }} aria-live="polite">
          {plan.applied ? <Alert severity="success">Записано: новых {plan.create.length}, изменённых {plan.change.length}</Alert> : null}
          {plan.errors.length ? (
            <Alert severity="error" sx={{ mt: 1 }}>
              Ошибок: {plan.errors.length}. Исправьте их — пока они есть, ничего не запишется.
              <Box component="ul" sx={{ m: 0, pl: 3 }}>
                {plan.errors.map((e) => (
                  <li key={e.line}>
                    Строка {e.line}: {e.error}
                  </li>
                ))}
              </Box>
            </Alert>
          ) : null}
          <Typography sx={{ mt: 1 }}>
            Новых: {plan.create.length}, изменится: {plan.change.length}, без изменений: {plan.unchanged}
          </Typography>
          <Box component="ul" sx={{ pl: 3 }}>
            {plan.create.map((c) => (
              <li key={c.line}>
                Строка {c.line}: {c.from} → {c.to} ({c.status})
              </li>
            ))}
            {plan.change.map((c) => (
              <li key={c.line}>
                Строка {c.line}: {c.from}: было {c.before.to}, станет {c.after.to}
              </li>
            ))}
          </Box>
        </Box>
      ) : null}
    </Box>
  );
}
