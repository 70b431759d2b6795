import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useRowCheckboxLabels } from '~/admin/lib/row-checkbox-labels';
import {
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import {
  ArrayInput,
  BooleanInput,
  Create,
  Datagrid,
  Edit,
  FunctionField,
  List,
  required,
  SaveButton,
  SelectArrayInput,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextField as RaTextField,
  TextInput,
  Toolbar,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
} from 'react-admin';
import { useFormContext } from 'react-hook-form';
import type {
  CatalogueOptionsResponse,
  ProductDetail,
  ProductItem,
  ProductOffer,
} from '~/shared/admin-catalogue-contract';
import type { AuditItem } from '~/shared/admin-contract';
import { adminApi, adminUpload, newIdempotencyKey } from '~/admin/lib/api';
import { ACTION_LABELS, dateTime } from '~/admin/lib/labels';
import { AdjustDialog } from '~/admin/stock/StockList';
import { formatRub } from '~/core/money';
import { ProductListActions } from './ProductBulk';

// The catalogue's products (issue #30, docs/back-office.md "The catalogue"): the list (search by
// name or article, section and state filters), a new product (hidden until shown), and a product's
// page: its fields and SEO, its sizes (quantities through the stock ledger's dialog), its photos
// (upload several at once or drop them, order, captions, remove), show or hide, copy, history.
// Prices are typed in roubles ('12 990,50'); the server parses them exactly.

type Options = CatalogueOptionsResponse['data'];
let optionsLoad: Promise<Options> | null = null;
function useOptions(): Options | null {
  const [options, setOptions] = useState<Options | null>(null);
  useEffect(() => {
    optionsLoad ??= adminApi<CatalogueOptionsResponse>('/catalogue/options').then((r) => r.data);
    optionsLoad.then(setOptions, () => {
      optionsLoad = null;
    });
  }, []);
  return options;
}
const categoryChoices = (o: Options | null) =>
  (o?.sections ?? []).filter((s) => s.kind === 'category').map((s) => ({ id: s.id, name: s.path }));

const money = (kopecks: number | null | undefined) =>
  kopecks === null || kopecks === undefined ? '—' : formatRub(kopecks);

function Thumb({ src, alt = '' }: { src: string | null; alt?: string }) {
  return src ? (
    <Box component="img" src={src} alt={alt} sx={{ width: 48, height: 64, objectFit: 'cover', borderRadius: 0.5 }} />
  ) : (
    <Box sx={{ width: 48, height: 64, bgcolor: 'grey.200', borderRadius: 0.5 }} />
  );
}

// --- List --------------------------------------------------------------------------------------

function ProductFilters() {
  const options = useOptions();
  return [
    <TextInput key="q" source="q" label="Название или артикул" alwaysOn />,
    <SelectInput key="section_id" source="section_id" label="Раздел" choices={categoryChoices(options)} alwaysOn />,
    <SelectInput
      key="active"
      source="active"
      label="Показ"
      choices={[
        { id: 'true', name: 'Показан' },
        { id: 'false', name: 'Скрыт' },
      ]}
      alwaysOn
    />,
  ];
}

export function ProductList() {
  const checkboxes = useRowCheckboxLabels<HTMLDivElement>();
  return (
    <List
      filters={ProductFilters()}
      sort={{ field: 'id', order: 'DESC' }}
      title="Товары"
      exporter={false}
      actions={<ProductListActions />}
    >
      {/* The bulk buttons stand in the list's toolbar (ProductListActions); react-admin's own bulk bar is hidden. */}
      <Box ref={checkboxes}>
        <Datagrid
          rowClick="edit"
          bulkActionButtons={<></>}
          sx={{ '& .RaBulkActionsToolbar-toolbar': { display: 'none' } }}
        >
          <FunctionField<ProductItem>
            label="Фото"
            sortable={false}
            render={(p) => <Thumb src={p.thumb_url} alt={p.name} />}
          />
          <RaTextField source="article" label="Артикул" />
          <RaTextField source="name" label="Название" />
          <RaTextField source="section_name" label="Раздел" sortable={false} />
          <FunctionField<ProductItem>
            label="Цена"
            sortBy="price_kopecks"
            textAlign="right"
            render={(p) => (
              <span>
                {money(p.price_kopecks)}
                {p.old_price_kopecks ? (
                  <Box component="s" sx={{ color: 'text.secondary', ml: 1 }}>
                    {money(p.old_price_kopecks)}
                  </Box>
                ) : null}
              </span>
            )}
          />
          <FunctionField<ProductItem>
            label="Показ"
            sortable={false}
            render={(p) => (
              <Chip
                size="small"
                label={p.active ? 'Показан' : 'Скрыт'}
                color={p.active ? 'success' : 'default'}
                variant={p.active ? 'filled' : 'outlined'}
              />
            )}
          />
        </Datagrid>
      </Box>
    </List>
  );
}

// --- The form's fields (create and edit) -------------------------------------------------------

function PaletteInput({ options }: { options: Options | null }) {
  const { setValue, watch } = useFormContext();
  const name = watch('color_name') as string | undefined;
  const hex = watch('color_hex') as string | undefined;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, width: '100%' }}>
      <TextField
        select
        size="small"
        label="Цвет из палитры"
        value={options?.colors.some((c) => c.name === name) ? name : ''}
        onChange={(e) => {
          const c = options?.colors.find((x) => x.name === e.target.value);
          if (c) {
            setValue('color_name', c.name, { shouldDirty: true });
            setValue('color_hex', c.hex, { shouldDirty: true });
          }
        }}
        sx={{ minWidth: 220 }}
      >
        {(options?.colors ?? []).map((c) => (
          <MenuItem key={c.name} value={c.name}>
            <Box
              component="span"
              sx={{ display: 'inline-block', width: 14, height: 14, bgcolor: c.hex, mr: 1, border: 1 }}
            />
            {c.name}
          </MenuItem>
        ))}
      </TextField>
      <TextInput source="color_name" label="Цвет" validate={required('Укажите цвет')} />
      <TextInput source="color_hex" label="Цвет, #rrggbb" validate={required('Укажите цвет')} />
      <Box sx={{ width: 28, height: 28, bgcolor: hex ?? 'transparent', border: 1, borderRadius: 0.5, flex: 'none' }} />
    </Stack>
  );
}

function ProductFields({ options, create }: { options: Options | null; create: boolean }) {
  return (
    <>
      <TextInput source="name" label="Название" validate={required('Укажите название')} fullWidth />
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' }, width: '100%' }}>
        <TextInput source="article" label="Артикул" validate={required('Укажите артикул')} />
        <TextInput
          source="slug"
          label="Адрес (латиницей)"
          helperText={create ? 'Пусто — из названия и цвета' : 'Смена адреса оставит переадресацию 301 со старого'}
        />
        <TextInput
          source="price"
          label="Цена, ₽"
          validate={required('Укажите цену')}
          helperText="Например, 12 990 или 12 990,50"
        />
        <TextInput source="old_price" label="Старая цена, ₽" helperText="Пусто — без скидки" />
        <SelectInput
          source="section_id"
          label="Раздел (адрес товара)"
          choices={categoryChoices(options)}
          validate={required('Выберите раздел')}
        />
        <SelectArrayInput source="section_ids" label="Ещё разделы" choices={categoryChoices(options)} />
        <SelectInput
          source="kind"
          label="Вид изделия"
          choices={options?.kinds ?? []}
          validate={required('Выберите вид изделия')}
        />
        <TextInput source="group_key" label="Группа цветов" helperText="Одна группа — цвета одной модели" />
      </Box>
      <PaletteInput options={options} />
      <BooleanInput source="is_new" label="Новая коллекция" />
      <TextInput source="description" label="Описание" multiline minRows={3} fullWidth />
      <TextInput source="composition" label="Состав" fullWidth />
      <TextInput source="care" label="Уход" multiline fullWidth />
      <ArrayInput source="properties" label="Другие свойства (подкладка, утеплитель, параметры модели…)">
        <SimpleFormIterator inline disableReordering>
          <TextInput source="code" label="Код" helperText="ROST, SOSTAV_PODKLADKI…" />
          <TextInput source="name" label="Название" />
          <TextInput source="value" label="Значение" />
        </SimpleFormIterator>
      </ArrayInput>
      <Typography variant="subtitle1" component="h2" sx={{ mt: 1 }}>
        SEO
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' }, width: '100%' }}>
        <TextInput source="seo.title" label="Заголовок страницы" helperText="Пусто — по шаблону" />
        <TextInput source="seo.keywords" label="Ключевые слова" />
      </Box>
      <TextInput source="seo.description" label="Описание для поисковиков" multiline fullWidth />
      <TextInput source="seo.text" label="Текст о модели (под карточкой)" multiline fullWidth />
    </>
  );
}

const EDITABLE = [
  'name',
  'article',
  'slug',
  'description',
  'composition',
  'care',
  'properties',
  'section_id',
  'section_ids',
  'group_key',
  'color_name',
  'color_hex',
  'kind',
  'price',
  'old_price',
  'is_new',
  'seo',
] as const;
const pickEditable = (data: Record<string, unknown>) => {
  const out: Record<string, unknown> = {};
  for (const k of EDITABLE) if (data[k] !== undefined && data[k] !== null) out[k] = data[k];
  if (data.old_price === null) out.old_price = '';
  if (Array.isArray(out.properties))
    out.properties = (out.properties as Record<string, unknown>[]).map(({ code, name, value, description }) => ({
      code,
      name,
      value,
      ...(description ? { description } : {}),
    }));
  return out;
};

export function ProductCreate() {
  const options = useOptions();
  const [idempotencyKey] = useState(newIdempotencyKey);
  return (
    <Create
      title="Новый товар"
      redirect="edit"
      mutationOptions={{ meta: { idempotencyKey } }}
      transform={(data: Record<string, unknown>) => {
        const body = pickEditable(data);
        if (!body.slug) delete body.slug;
        if (!body.group_key) delete body.group_key;
        return body;
      }}
    >
      <SimpleForm
        defaultValues={{
          is_new: false,
          section_ids: [],
          properties: [],
          old_price: '',
          color_hex: '#141414',
          color_name: 'Чёрный',
        }}
        sx={{ maxWidth: 900 }}
      >
        <Typography variant="body2" color="text.secondary">
          Новый товар скрыт: покажите его в магазине, когда добавите размеры и фотографии.
        </Typography>
        <ProductFields options={options} create />
      </SimpleForm>
    </Create>
  );
}

// --- A product's page ----------------------------------------------------------------------------

function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
            {title}
          </Typography>
          {actions}
        </Stack>
        {children}
      </CardContent>
    </Card>
  );
}

/** A named POST of the product with a key per intent; the page refreshes with the answer. */
function useAction(productId: number | undefined) {
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const run = async (path: string, body: unknown, done: string, method: 'POST' | 'PATCH' = 'POST', key?: string) => {
    if (!productId) return false;
    setBusy(true);
    try {
      await adminApi(`/products/${productId}${path}`, { method, body, ...(key ? { key } : {}) });
      notify(done, { type: 'success' });
      refresh();
      return true;
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не удалось', { type: 'error' });
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy };
}

function StateBar() {
  const p = useRecordContext<ProductDetail>();
  const { run, busy } = useAction(p?.id);
  const redirect = useRedirect();
  const notify = useNotify();
  const [copying, setCopying] = useState(false);
  const [article, setArticle] = useState('');
  const [key] = useState(newIdempotencyKey);
  if (!p) return null;
  const copy = async () => {
    try {
      const r = await adminApi<{ data: ProductDetail }>(`/products/${p.id}/copy`, {
        method: 'POST',
        body: { article },
        key,
      });
      setCopying(false);
      redirect('edit', 'products', r.data.id);
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не удалось скопировать', { type: 'error' });
    }
  };
  return (
    <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
      <Chip
        label={p.active ? 'Показан в магазине' : 'Скрыт'}
        color={p.active ? 'success' : 'default'}
        variant={p.active ? 'filled' : 'outlined'}
      />
      {p.active ? (
        <Button disabled={busy} onClick={() => void run('/deactivate', {}, 'Товар скрыт')}>
          Скрыть
        </Button>
      ) : (
        <Button
          variant="contained"
          disabled={busy}
          onClick={() => void run('/activate', {}, 'Товар показан в магазине')}
        >
          Показать в магазине
        </Button>
      )}
      <Button onClick={() => setCopying(true)}>Копировать</Button>
      <Button component="a" href={p.url} target="_blank" rel="noopener">
        Открыть в магазине
      </Button>
      {copying ? (
        <Dialog open onClose={() => setCopying(false)} maxWidth="xs" fullWidth>
          <DialogTitle>Копия товара</DialogTitle>
          <DialogContent>
            <Typography variant="body2" sx={{ mb: 2 }}>
              Копия получит все поля, разделы и размеры (без остатков, штрихкодов и фотографий) и будет скрыта.
            </Typography>
            <TextField label="Артикул копии" fullWidth value={article} onChange={(e) => setArticle(e.target.value)} />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setCopying(false)}>Отмена</Button>
            <Button variant="contained" disabled={!article.trim()} onClick={() => void copy()}>
              Копировать
            </Button>
          </DialogActions>
        </Dialog>
      ) : null}
    </Stack>
  );
}

function OfferDialog({ offer, onClose }: { offer: ProductOffer; onClose: () => void }) {
  const p = useRecordContext<ProductDetail>();
  const { run, busy } = useAction(p?.id);
  const [price, setPrice] = useState(offer.own_price ? (offer.price_kopecks / 100).toString().replace('.', ',') : '');
  const [preorder, setPreorder] = useState(offer.preorder);
  const [barcode, setBarcode] = useState(offer.barcode ?? '');
  const [key] = useState(newIdempotencyKey);
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>Размер {offer.label}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            label="Своя цена, ₽"
            helperText="Пусто — цена товара"
            value={price}
            onChange={(e) => setPrice(e.target.value)}
          />
          <TextField label="Штрихкод" value={barcode} onChange={(e) => setBarcode(e.target.value)} />
          <FormControlLabel
            control={<Checkbox checked={preorder} onChange={(e) => setPreorder(e.target.checked)} />}
            label="Предзаказ"
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Отмена</Button>
        <Button
          variant="contained"
          disabled={busy}
          onClick={async () => {
            if (await run(`/offers/${offer.id}`, { price, preorder, barcode }, 'Размер изменён', 'PATCH', key))
              onClose();
          }}
        >
          Сохранить
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function Offers() {
  const p = useRecordContext<ProductDetail>();
  const { run, busy } = useAction(p?.id);
  const [sizeType, setSizeType] = useState<'clothes' | 'shoes' | 'none'>('clothes');
  const [size, setSize] = useState('');
  const [price, setPrice] = useState('');
  const [preorder, setPreorder] = useState(false);
  const [barcode, setBarcode] = useState('');
  const [key, setKey] = useState(newIdempotencyKey);
  const [editing, setEditing] = useState<ProductOffer | null>(null);
  const [stock, setStock] = useState<ProductOffer | null>(null);
  if (!p) return null;
  const add = async () => {
    const body = { size_type: sizeType, size, price, preorder, ...(barcode ? { barcode } : {}) };
    if (await run('/offers', body, `Размер ${size} добавлен`, 'POST', key)) {
      setSize('');
      setPrice('');
      setBarcode('');
      setPreorder(false);
      setKey(newIdempotencyKey());
    }
  };
  return (
    <Section title="Размеры">
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Размер</TableCell>
              <TableCell align="right">Цена</TableCell>
              <TableCell align="right">Остаток</TableCell>
              <TableCell>Предзаказ</TableCell>
              <TableCell>Штрихкод</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {p.offers.length === 0 ? (
              <TableRow>
                <TableCell colSpan={6}>Размеров пока нет: без них товар не показать в магазине</TableCell>
              </TableRow>
            ) : null}
            {p.offers.map((o) => (
              <TableRow key={o.id}>
                <TableCell>{o.label}</TableCell>
                <TableCell align="right">
                  {money(o.price_kopecks)}
                  {o.own_price ? ' (своя)' : ''}
                </TableCell>
                <TableCell align="right">{o.quantity}</TableCell>
                <TableCell>{o.preorder ? 'да' : '—'}</TableCell>
                <TableCell>{o.barcode ?? '—'}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Button size="small" onClick={() => setStock(o)}>
                    Остаток
                  </Button>
                  <Button size="small" onClick={() => setEditing(o)}>
                    Изменить
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    disabled={busy}
                    onClick={() => void run(`/offers/${o.id}/remove`, {}, `Размер ${o.label} удалён`)}
                  >
                    Удалить
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ mt: 2, alignItems: { md: 'center' } }}>
        <TextField
          select
          size="small"
          label="Шкала"
          value={sizeType}
          onChange={(e) => setSizeType(e.target.value as typeof sizeType)}
          sx={{ minWidth: 150 }}
        >
          <MenuItem value="clothes">Одежда</MenuItem>
          <MenuItem value="shoes">Обувь</MenuItem>
          <MenuItem value="none">Без размера</MenuItem>
        </TextField>
        <TextField size="small" label="Размер" value={size} onChange={(e) => setSize(e.target.value)} />
        <TextField size="small" label="Своя цена, ₽" value={price} onChange={(e) => setPrice(e.target.value)} />
        <TextField size="small" label="Штрихкод" value={barcode} onChange={(e) => setBarcode(e.target.value)} />
        <FormControlLabel
          control={<Checkbox checked={preorder} onChange={(e) => setPreorder(e.target.checked)} />}
          label="Предзаказ"
        />
        <Button
          variant="outlined"
          disabled={busy || !size.trim()}
          onClick={() => void add()}
          sx={{ whiteSpace: 'nowrap', flex: 'none' }}
        >
          Добавить размер
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        Количество меняется только через складской журнал: кнопка «Остаток» (с причиной).
      </Typography>
      {editing ? <OfferDialog offer={editing} onClose={() => setEditing(null)} /> : null}
      {stock ? (
        <AdjustDialog
          record={{
            id: stock.id,
            product_id: p.id,
            article: p.article,
            name: p.name,
            section_id: p.section_id,
            size: stock.label,
            quantity: stock.quantity,
            preorder: stock.preorder,
            waiting: 0,
          }}
          onClose={() => setStock(null)}
        />
      ) : null}
    </Section>
  );
}

function Photos({ limits }: { limits: Options['photo'] | undefined }) {
  const p = useRecordContext<ProductDetail>();
  const { run, busy } = useAction(p?.id);
  const notify = useNotify();
  const refresh = useRefresh();
  const [uploading, setUploading] = useState(false);
  const [key, setKey] = useState(newIdempotencyKey);
  const [over, setOver] = useState(false);
  const [alts, setAlts] = useState<Record<number, string>>({});
  if (!p) return null;
  const send = async (files: File[]) => {
    if (!files.length) return;
    setUploading(true);
    try {
      await adminUpload(`/products/${p.id}/photos`, files, [], key);
      notify(files.length === 1 ? 'Фотография загружена' : `Загружено фотографий: ${files.length}`, {
        type: 'success',
      });
      setKey(newIdempotencyKey());
      refresh();
    } catch (err) {
      notify(err instanceof Error ? err.message : 'Не удалось загрузить', { type: 'error' });
    } finally {
      setUploading(false);
    }
  };
  const ids = p.photos.map((ph) => ph.id);
  const move = (i: number, by: number) => {
    const next = [...ids];
    const [one] = next.splice(i, 1);
    next.splice(i + by, 0, one as number);
    void run('/photos/order', { ids: next }, 'Порядок фотографий сохранён');
  };
  const formats = limits?.formats.join(', ') ?? 'JPEG, PNG, WebP, AVIF';
  const mb = limits ? limits.max_bytes / 1024 / 1024 : 15;
  return (
    <Section title="Фотографии">
      <Box
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          void send([...e.dataTransfer.files]);
        }}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: over ? 'primary.main' : 'grey.400',
          borderRadius: 1,
          p: 2,
          textAlign: 'center',
          mb: 2,
        }}
      >
        <Typography variant="body2" sx={{ mb: 1 }}>
          Перетащите фотографии сюда или выберите файлы: {formats}, до {mb} МБ каждая, до {limits?.max_files ?? 10} за
          раз
        </Typography>
        <Button variant="outlined" component="label" disabled={uploading}>
          {uploading ? 'Загрузка…' : 'Выбрать файлы'}
          <input
            hidden
            type="file"
            multiple
            accept="image/jpeg,image/png,image/webp,image/avif"
            aria-label="Фотографии товара"
            onChange={(e) => {
              void send([...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </Button>
      </Box>
      {p.photos.length === 0 ? <Typography variant="body2">Фотографий пока нет</Typography> : null}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(140px, 1fr))' }}>
        {p.photos.map((ph, i) => (
          <Card key={ph.id} variant="outlined">
            <Box
              component="img"
              src={ph.thumb_url}
              alt={ph.alt || `Фото ${i + 1}`}
              sx={{ width: '100%', aspectRatio: '3 / 4', objectFit: 'cover', display: 'block' }}
            />
            <Box sx={{ p: 1 }}>
              <TextField
                size="small"
                label={`Подпись фото ${i + 1}`}
                fullWidth
                value={alts[ph.id] ?? ph.alt}
                onChange={(e) => setAlts({ ...alts, [ph.id]: e.target.value })}
                onBlur={() => {
                  const alt = alts[ph.id];
                  if (alt !== undefined && alt !== ph.alt)
                    void run(`/photos/${ph.id}`, { alt }, 'Подпись сохранена', 'PATCH');
                }}
              />
              <Stack direction="row" sx={{ justifyContent: 'space-between', mt: 0.5 }}>
                <IconButton size="small" aria-label="Раньше" disabled={busy || i === 0} onClick={() => move(i, -1)}>
                  <ArrowBackIcon fontSize="small" />
                </IconButton>
                <Button
                  size="small"
                  color="error"
                  disabled={busy}
                  onClick={() => void run(`/photos/${ph.id}/remove`, {}, 'Фотография удалена')}
                >
                  Удалить
                </Button>
                <IconButton
                  size="small"
                  aria-label="Позже"
                  disabled={busy || i === p.photos.length - 1}
                  onClick={() => move(i, 1)}
                >
                  <ArrowForwardIcon fontSize="small" />
                </IconButton>
              </Stack>
            </Box>
          </Card>
        ))}
      </Box>
    </Section>
  );
}

function History() {
  const p = useRecordContext<ProductDetail>();
  if (!p) return null;
  return (
    <Section title="История">
      {p.audit.length === 0 ? <Typography variant="body2">Пока пусто</Typography> : null}
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {[...p.audit].reverse().map((a: AuditItem) => (
          <li key={a.id}>
            {dateTime(a.at)} — {a.actor_label}: {ACTION_LABELS[a.action] ?? a.action}
          </li>
        ))}
      </Box>
    </Section>
  );
}

function EditToolbar() {
  return (
    <Toolbar>
      <SaveButton label="Сохранить" />
    </Toolbar>
  );
}

function ProductPage({ options }: { options: Options | null }) {
  const record = useRecordContext<ProductDetail>();
  // The list seeds the record with its row first: the page waits for the detail's fields.
  const ready = useMemo(() => record && Array.isArray(record.offers), [record]);
  if (!ready) return <Typography sx={{ m: 2 }}>Загрузка…</Typography>;
  return (
    <>
      <SimpleForm toolbar={<EditToolbar />} sx={{ maxWidth: 900 }}>
        <StateBar />
        <ProductFields options={options} create={false} />
      </SimpleForm>
      <Box sx={{ p: { xs: 1, sm: 2 }, pt: 0 }}>
        <Offers />
        <Photos limits={options?.photo} />
        <History />
      </Box>
    </>
  );
}

export function ProductEdit() {
  const options = useOptions();
  return (
    <Edit
      title="Товар"
      mutationMode="pessimistic"
      redirect={false}
      transform={(data: Record<string, unknown>) => pickEditable(data)}
    >
      <ProductPage options={options} />
    </Edit>
  );
}
