import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Menu,
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
import DownloadIcon from '@mui/icons-material/Download';
import UploadIcon from '@mui/icons-material/Upload';
import { CreateButton, TopToolbar, useListContext, useNotify, useRefresh, useUnselectAll } from 'react-admin';
import type { CatalogueOptionsResponse } from '~/shared/admin-catalogue-contract';
import type {
  ImportApplyResponse,
  ImportCheckResponse,
  ImportSummary,
  ProductBulkBody,
  ProductBulkResponse,
} from '~/shared/admin-catalogue-bulk-contract';
import { adminApi, adminApiBase, newIdempotencyKey } from '~/admin/lib/api';
import { formatRub } from '~/core/money';

// Bulk work in «Товары» (issue #30, docs/back-office.md "Products in a spreadsheet", "Bulk
// actions"): the CSV export (for Excel, or plain UTF-8 with commas), the import's dialog (choose a
// file → the dry run: what is created, what changes from what to what, each bad row by its line →
// «Применить» applies it whole), and the buttons for the selected rows: show, hide, add to a
// section, a sale by percent. Each intent carries its own Idempotency-Key, so a double click or a
// retry changes once.

// --- The list's toolbar: export and import --------------------------------------------------------

export function ProductListActions() {
  const [open, setOpen] = useState(false);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const { selectedIds } = useListContext();
  const base = `${adminApiBase()}/products/export.csv`;
  // While rows are selected, the bulk actions stand in this toolbar's place (react-admin's own bulk
  // toolbar slides under a toolbar this tall and could not be clicked).
  if (selectedIds.length)
    return (
      <TopToolbar>
        <ProductBulkButtons />
      </TopToolbar>
    );
  return (
    <TopToolbar>
      <CreateButton />
      <Button
        size="small"
        startIcon={<DownloadIcon />}
        aria-label="Выгрузить CSV"
        aria-haspopup="menu"
        onClick={(e) => setMenu(e.currentTarget)}
      >
        <Wide>Выгрузить CSV</Wide>
      </Button>
      <Menu anchorEl={menu} open={menu !== null} onClose={() => setMenu(null)}>
        <MenuItem component="a" href={base} download onClick={() => setMenu(null)}>
          Для Excel (точка с запятой)
        </MenuItem>
        <MenuItem component="a" href={`${base}?format=plain`} download onClick={() => setMenu(null)}>
          UTF-8 с запятыми
        </MenuItem>
      </Menu>
      <Button size="small" startIcon={<UploadIcon />} onClick={() => setOpen(true)} aria-label="Загрузить CSV">
        <Wide>Загрузить CSV</Wide>
      </Button>
      {open ? <ImportDialog onClose={() => setOpen(false)} /> : null}
    </TopToolbar>
  );
}

/** A button's words from a tablet up; on a phone its icon (and its aria-label) alone, so the toolbar fits. */
const Wide = ({ children }: { children: string }) => (
  <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
    {children}
  </Box>
);

const money = (k: unknown) => (typeof k === 'number' ? formatRub(k) : k === null ? '—' : '');
const FIELD_LABEL: Record<string, string> = {
  name: 'название',
  price_kopecks: 'цена',
  old_price_kopecks: 'старая цена',
  quantity: 'остаток',
  active: 'показ',
};
function value(field: string, v: unknown): string {
  if (field.endsWith('_kopecks')) return money(v);
  if (typeof v === 'boolean') return v ? 'показан' : 'скрыт';
  return String(v ?? '—');
}
function Change({ before, after }: { before: Record<string, unknown>; after: Record<string, unknown> }) {
  return (
    <>
      {Object.keys(after)
        .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
        .map((k) => (
          <div key={k}>
            {FIELD_LABEL[k] ?? k}: <s>{value(k, before[k])}</s> → <b>{value(k, after[k])}</b>
          </div>
        ))}
    </>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>{children}</Box>
    </Box>
  );
}

export function ImportDialog({ onClose }: { onClose: () => void }) {
  const notify = useNotify();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [dry, setDry] = useState<{ id: number; file: string; summary: ImportSummary; key: string } | null>(null);

  async function check(file: File) {
    setBusy(true);
    setError(null);
    setDry(null);
    try {
      const csv = await file.text();
      const r = await adminApi<ImportCheckResponse>('/products/import/check', {
        method: 'POST',
        body: { csv, file_name: file.name },
      });
      // The key of this confirmation, made when its dry run is shown: a double click applies once.
      setDry({ id: r.data.id, file: file.name, summary: r.data.summary, key: newIdempotencyKey() });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }

  async function apply() {
    if (!dry) return;
    setBusy(true);
    setError(null);
    try {
      const r = await adminApi<ImportApplyResponse>(`/products/import/${dry.id}/apply`, {
        method: 'POST',
        body: {},
        key: dry.key,
      });
      notify(`Файл загружен: новых товаров ${r.data.created}, изменено ${r.data.changed}`, { type: 'success' });
      refresh();
      onClose();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const s = dry?.summary;
  const canApply = !!s && s.error_rows === 0 && s.create_rows + s.change_rows > 0;
  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="lg" aria-labelledby="import-title">
      <DialogTitle id="import-title">Загрузка товаров из CSV</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 1 }}>
          Столбцы как в выгрузке (одна строка на размер). Файл из Excel (точка с запятой) и обычный CSV (запятая)
          читаются оба. Сначала показываем, что изменится; ничего не записывается, пока вы не нажмёте «Применить».
        </Typography>
        <Button variant="outlined" component="label" disabled={busy} startIcon={<UploadIcon />}>
          {dry ? 'Выбрать другой файл' : 'Выбрать файл'}
          <input
            ref={input}
            hidden
            type="file"
            accept=".csv,text/csv"
            aria-label="Файл CSV"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void check(f);
            }}
          />
        </Button>
        {busy ? (
          <Typography variant="body2" sx={{ mt: 1 }}>
            Проверяем…
          </Typography>
        ) : null}
        {error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        ) : null}
        {s ? (
          <Box data-testid="import-dry-run">
            <Alert severity={s.error_rows ? 'error' : 'info'} sx={{ mt: 2 }}>
              «{dry.file}»: строк {s.rows}; новых {s.create_rows}, изменится {s.change_rows}, без изменений{' '}
              {s.unchanged}
              {s.error_rows ? `, с ошибками ${s.error_rows}: исправьте файл и выберите его снова` : ''}
            </Alert>
            {s.errors.length ? (
              <Section title="Ошибки">
                <Table size="small" aria-label="Ошибки">
                  <TableBody>
                    {s.errors.map((e, i) => (
                      <TableRow key={i}>
                        <TableCell sx={{ color: 'error.main' }}>{e.error}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Section>
            ) : null}
            {s.changes.length ? (
              <Section title={`Изменится (${s.change_rows})`}>
                <Table size="small" aria-label="Изменится">
                  <TableHead>
                    <TableRow>
                      <TableCell>Строка</TableCell>
                      <TableCell>Артикул</TableCell>
                      <TableCell>Размер</TableCell>
                      <TableCell>Было → стало</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {s.changes.map((c) => (
                      <TableRow key={`${c.line}-${c.size}`}>
                        <TableCell>{c.line}</TableCell>
                        <TableCell>{c.article}</TableCell>
                        <TableCell>{c.size || '—'}</TableCell>
                        <TableCell>
                          <Change before={c.before} after={c.after} />
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Section>
            ) : null}
            {s.creates.length ? (
              <Section title={`Будет создано (${s.create_rows})`}>
                <Table size="small" aria-label="Будет создано">
                  <TableHead>
                    <TableRow>
                      <TableCell>Строка</TableCell>
                      <TableCell>Артикул</TableCell>
                      <TableCell>Название</TableCell>
                      <TableCell>Размер</TableCell>
                      <TableCell align="right">Цена</TableCell>
                      <TableCell align="right">Остаток</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {s.creates.map((c) => (
                      <TableRow key={`${c.line}-${c.size}`}>
                        <TableCell>{c.line}</TableCell>
                        <TableCell>{c.article}</TableCell>
                        <TableCell>{c.name || 'новый размер'}</TableCell>
                        <TableCell>{c.size || '—'}</TableCell>
                        <TableCell align="right">
                          {money(c.price_kopecks)}
                          {c.old_price_kopecks ? <s style={{ marginLeft: 6 }}>{money(c.old_price_kopecks)}</s> : null}
                        </TableCell>
                        <TableCell align="right">{c.quantity}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Section>
            ) : null}
            {s.create_rows > s.creates.length || s.change_rows > s.changes.length ? (
              <Typography variant="body2" sx={{ mt: 1 }}>
                Показаны первые 500 строк каждого списка.
              </Typography>
            ) : null}
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Закрыть
        </Button>
        <Button variant="contained" onClick={() => void apply()} disabled={busy || !canApply}>
          Применить
        </Button>
      </DialogActions>
    </Dialog>
  );
}

// --- Bulk actions on the selected rows ------------------------------------------------------------

type Options = CatalogueOptionsResponse['data'];

function useSections() {
  const [sections, setSections] = useState<Options['sections']>([]);
  useEffect(() => {
    adminApi<CatalogueOptionsResponse>('/catalogue/options').then(
      (r) => setSections(r.data.sections.filter((s) => s.kind === 'category')),
      () => setSections([]),
    );
  }, []);
  return sections;
}

type Pending = { action: 'add_section' } | { action: 'sale' } | null;

export function ProductBulkButtons() {
  const { selectedIds } = useListContext();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselect = useUnselectAll('products');
  const [pending, setPending] = useState<Pending>(null);
  const [key, setKey] = useState(newIdempotencyKey);
  const [busy, setBusy] = useState(false);
  const [sectionId, setSectionId] = useState<number | ''>('');
  const [percent, setPercent] = useState('20');
  const sections = useSections();
  const ids = (selectedIds as number[]).map(Number);

  async function run(body: ProductBulkBody, intentKey: string) {
    setBusy(true);
    try {
      const r = await adminApi<ProductBulkResponse>('/products/bulk', { method: 'POST', body, key: intentKey });
      const skipped = r.data.skipped.length ? `, пропущено ${r.data.skipped.length}` : '';
      notify(`Изменено товаров: ${r.data.changed.length}${skipped}`, { type: 'success' });
      setPending(null);
      setKey(newIdempotencyKey());
      unselect();
      refresh();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  }
  const once = (body: ProductBulkBody) => {
    // Show and hide are one click each: the key is made for this click (a second click is a second intent, answered 409 when nothing is left to change).
    void run(body, newIdempotencyKey());
  };

  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
      <Typography variant="body2" sx={{ mr: 1 }}>
        Выбрано: {ids.length}
      </Typography>
      <Button size="small" disabled={busy} onClick={() => once({ action: 'activate', ids })}>
        Показать
      </Button>
      <Button size="small" disabled={busy} onClick={() => once({ action: 'deactivate', ids })}>
        Скрыть
      </Button>
      <Button
        size="small"
        disabled={busy}
        onClick={() => {
          setKey(newIdempotencyKey());
          setPending({ action: 'add_section' });
        }}
      >
        В раздел…
      </Button>
      <Button
        size="small"
        disabled={busy}
        onClick={() => {
          setKey(newIdempotencyKey());
          setPending({ action: 'sale' });
        }}
      >
        Скидка…
      </Button>
      <Button size="small" disabled={busy} onClick={() => unselect()}>
        Снять выбор
      </Button>
      <Dialog open={pending !== null} onClose={() => setPending(null)} fullWidth maxWidth="xs">
        <DialogTitle>{pending?.action === 'sale' ? 'Скидка в процентах' : 'Добавить в раздел'}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" sx={{ mb: 2 }}>
            Выбрано товаров: {ids.length}.{' '}
            {pending?.action === 'sale'
              ? 'Новая цена — от старой цены (или от цены, если старой нет), округлена до рубля; старая цена ставится.'
              : 'Товар останется и в своём разделе; адрес страницы не меняется.'}
          </Typography>
          {pending?.action === 'sale' ? (
            <TextField
              label="Скидка, %"
              value={percent}
              onChange={(e) => setPercent(e.target.value)}
              inputMode="numeric"
              fullWidth
              autoFocus
            />
          ) : (
            <TextField
              select
              label="Раздел"
              value={sectionId}
              onChange={(e) => setSectionId(Number(e.target.value))}
              fullWidth
            >
              {sections.map((s) => (
                <MenuItem key={s.id} value={s.id}>
                  {s.path}
                </MenuItem>
              ))}
            </TextField>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPending(null)} disabled={busy}>
            Отмена
          </Button>
          <Button
            variant="contained"
            disabled={busy || (pending?.action === 'add_section' && sectionId === '')}
            onClick={() =>
              void run(
                pending?.action === 'sale'
                  ? { action: 'sale', ids, percent: Number(percent.replace(',', '.')) }
                  : { action: 'add_section', ids, section_id: Number(sectionId) },
                key,
              )
            }
          >
            Применить
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
