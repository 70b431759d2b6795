import { parseRoublesToKopecks } from './money';
import type { CsvRow } from './csv';
import type { SizeType } from './sizes';

// The catalogue as a spreadsheet (issue #30 "Bulk work", docs/back-office.md "Products in a
// spreadsheet"): one row per size (offer), the product's fields repeated on each of its rows. The
// export writes these columns; the import reads them by their heading (any order, extra columns
// ignored) and plans what would change, row by row, without touching the database: the model
// (models/admin-catalogue-csv.server.ts) loads the products the file names, calls planCatalogueImport,
// keeps the plan, and applies it whole when staff confirm.

export const CSV_COLUMNS = {
  article: 'Артикул',
  name: 'Название',
  section: 'Раздел',
  kind: 'Вид',
  color: 'Цвет',
  size: 'Размер',
  sizeType: 'Тип размера',
  barcode: 'Штрихкод',
  price: 'Цена, ₽',
  oldPrice: 'Старая цена, ₽',
  quantity: 'Остаток',
  active: 'Показан',
} as const;
export type CsvColumn = keyof typeof CSV_COLUMNS;
export const CSV_HEADING: readonly string[] = Object.values(CSV_COLUMNS);
const REQUIRED: readonly CsvColumn[] = ['article', 'size', 'price'];

export const SIZE_TYPE_LABEL: Record<SizeType, string> = { clothes: 'одежда', shoes: 'обувь', none: 'единый' };
const SIZE_TYPE_OF: Record<string, SizeType> = {
  одежда: 'clothes',
  обувь: 'shoes',
  единый: 'none',
  'без размера': 'none',
  clothes: 'clothes',
  shoes: 'shoes',
  none: 'none',
};

export const MAX_IMPORT_ROWS = 20_000;
const MAX_PRICE_KOPECKS = 100_000_000;
const MAX_QUANTITY = 1_000_000;

/** Kopecks as a spreadsheet's number: '12990', '12990,50' (with `;`) or '12990.50' (with `,`). */
export function kopecksToCsv(kopecks: number | null, separator: ';' | ','): string {
  if (kopecks === null) return '';
  const roubles = Math.trunc(kopecks / 100);
  const rest = Math.abs(kopecks % 100);
  return rest === 0 ? String(roubles) : `${roubles}${separator === ';' ? ',' : '.'}${String(rest).padStart(2, '0')}`;
}

/** Sale price by percent off a base price, in whole roubles (never below 1 ₽). */
export function salePrice(baseKopecks: number, percent: number): number {
  return Math.max(100, Math.round((baseKopecks * (100 - percent)) / 10_000) * 100);
}

export interface CurrentOffer {
  id: number;
  size: string;
  sizeType: SizeType;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  quantity: number;
}
export interface CurrentProduct {
  id: number;
  article: string;
  name: string;
  sectionId: number;
  kind: string;
  colorName: string;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  active: boolean;
  offers: CurrentOffer[];
}

export interface PlannedOffer {
  line: number;
  size: string;
  sizeType: SizeType;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  quantity: number;
}
export interface PlannedCreate {
  line: number;
  article: string;
  name: string;
  sectionId: number;
  kind: string;
  colorName: string;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  active: boolean;
  offers: PlannedOffer[];
}
export interface ProductFields {
  name?: string;
  priceKopecks?: number;
  oldPriceKopecks?: number | null;
  active?: boolean;
}
export interface OfferFields {
  priceKopecks?: number;
  oldPriceKopecks?: number | null;
  quantity?: number;
}
export interface PlannedUpdate {
  line: number;
  productId: number;
  article: string;
  before: ProductFields;
  after: ProductFields;
  offers: { offerId: number; line: number; size: string; before: OfferFields; after: OfferFields }[];
  newOffers: PlannedOffer[];
}
export interface RowError {
  line: number;
  error: string;
}
export interface CataloguePlan {
  creates: PlannedCreate[];
  updates: PlannedUpdate[];
  errors: RowError[];
  /** Rows read (the heading not counted). */
  rows: number;
  /** Rows that change nothing. */
  unchanged: number;
}

export interface PlanContext {
  /** The products the file names, by article in lower case. */
  current: ReadonlyMap<string, CurrentProduct>;
  sections: readonly { id: number; path: string }[];
  kinds: readonly { code: string; label: string }[];
  /** May this staff member change quantities (stock:adjust)? */
  canAdjustStock: boolean;
}

type Cells = Partial<Record<CsvColumn, string>>;

/** The heading's columns, or the error for line 1 (a required column missing). */
function columnsOf(heading: string[]): Map<CsvColumn, number> | RowError {
  const byName = new Map(heading.map((h, i) => [h.trim().toLowerCase(), i]));
  const map = new Map<CsvColumn, number>();
  for (const [key, title] of Object.entries(CSV_COLUMNS) as [CsvColumn, string][]) {
    const i = byName.get(title.toLowerCase()) ?? byName.get(title.replace(/, ₽$/, '').toLowerCase());
    if (i !== undefined) map.set(key, i);
  }
  const missing = REQUIRED.filter((k) => !map.has(k)).map((k) => `«${CSV_COLUMNS[k]}»`);
  if (missing.length)
    return {
      line: 1,
      error: `Строка 1: в заголовке нет ${missing.length > 1 ? 'столбцов' : 'столбца'} ${missing.join(', ')}. Выгрузите товары и правьте этот файл`,
    };
  return map;
}

const yesNo = (v: string): boolean | null | undefined => {
  const t = v.trim().toLowerCase();
  if (t === '') return undefined;
  if (['да', '1', 'true', 'yes', 'показан'].includes(t)) return true;
  if (['нет', '0', 'false', 'no', 'скрыт'].includes(t)) return false;
  return null;
};

/**
 * What a file would change: rows to create (new products, new sizes), rows to change (before and
 * after), and every row's errors with its line number, in Russian. Pure: the same file against the
 * same catalogue gives the same plan.
 */
export function planCatalogueImport(rows: readonly CsvRow[], ctx: PlanContext): CataloguePlan {
  const errors: RowError[] = [];
  const plan: CataloguePlan = { creates: [], updates: [], errors, rows: Math.max(0, rows.length - 1), unchanged: 0 };
  const [head, ...body] = rows;
  if (!head) {
    errors.push({ line: 1, error: 'Файл пуст: нужна строка заголовка и хотя бы одна строка товара' });
    return plan;
  }
  const columns = columnsOf(head.fields);
  if (!(columns instanceof Map)) {
    errors.push(columns);
    return plan;
  }
  if (body.length === 0) {
    errors.push({ line: 1, error: 'В файле нет ни одной строки товара' });
    return plan;
  }
  if (body.length > MAX_IMPORT_ROWS) {
    errors.push({ line: 1, error: `В файле ${body.length} строк: не больше ${MAX_IMPORT_ROWS} за раз` });
    return plan;
  }
  const sectionByKey = new Map<string, number>();
  for (const s of ctx.sections) {
    sectionByKey.set(String(s.id), s.id);
    sectionByKey.set(s.path.trim().toLowerCase(), s.id);
  }
  const kindByKey = new Map<string, string>();
  for (const k of ctx.kinds) {
    kindByKey.set(k.code.toLowerCase(), k.code);
    kindByKey.set(k.label.toLowerCase(), k.code);
  }

  // Rows grouped by article, in file order.
  const groups = new Map<string, { line: number; cells: Cells }[]>();
  for (const row of body) {
    const cells: Cells = {};
    for (const [key, i] of columns) cells[key] = (row.fields[i] ?? '').trim();
    const article = cells.article ?? '';
    if (!article) {
      errors.push({ line: row.line, error: `Строка ${row.line}: не указан артикул` });
      continue;
    }
    if (article.length > 100) {
      errors.push({ line: row.line, error: `Строка ${row.line}: артикул длиннее 100 знаков` });
      continue;
    }
    const key = article.toLowerCase();
    const list = groups.get(key) ?? [];
    list.push({ line: row.line, cells });
    groups.set(key, list);
  }

  for (const [key, list] of groups) {
    const first = list[0] as { line: number; cells: Cells };
    const current = ctx.current.get(key);
    const rowErrors: RowError[] = [];
    const err = (line: number, text: string) => rowErrors.push({ line, error: `Строка ${line}: ${text}` });

    // The product's own fields: the first row that fills each; another row saying otherwise is an error.
    const productField = (col: CsvColumn, what: string): string => {
      let value = '';
      let from = 0;
      for (const r of list) {
        const v = r.cells[col] ?? '';
        if (!v) continue;
        if (!value) {
          value = v;
          from = r.line;
        } else if (v.toLowerCase() !== value.toLowerCase())
          err(r.line, `${what} «${v}» расходится со строкой ${from} того же артикула («${value}»)`);
      }
      return value;
    };
    const name = productField('name', 'название');
    const sectionText = productField('section', 'раздел');
    const kindText = productField('kind', 'вид');
    const color = productField('color', 'цвет');
    const activeText = productField('active', 'показ');
    if (name.length > 200) err(first.line, 'название длиннее 200 знаков');
    const active = yesNo(activeText);
    if (active === null) err(first.line, `«${activeText}» в столбце «Показан»: напишите «да» или «нет»`);

    // Each row's size, prices and quantity.
    const seenSizes = new Map<string, number>();
    const parsed: {
      line: number;
      size: string;
      sizeType: SizeType | undefined;
      price: number;
      old: number | null;
      quantity: number | undefined;
    }[] = [];
    for (const r of list) {
      const size = (r.cells.size ?? '').toUpperCase();
      const typeText = (r.cells.sizeType ?? '').toLowerCase();
      const sizeType = typeText ? SIZE_TYPE_OF[typeText] : undefined;
      if (typeText && !sizeType)
        err(r.line, `тип размера «${r.cells.sizeType}»: напишите «одежда», «обувь» или «единый»`);
      if (size.length > 20) err(r.line, 'размер длиннее 20 знаков');
      const dup = seenSizes.get(size);
      if (dup !== undefined)
        err(r.line, size ? `размер ${size} уже есть в строке ${dup}` : `строка без размера повторяет строку ${dup}`);
      seenSizes.set(size, r.line);
      const priceText = r.cells.price ?? '';
      const price = parseRoublesToKopecks(priceText);
      if (!priceText) err(r.line, 'не указана цена');
      else if (price === null) err(r.line, `цена «${priceText}»: рубли числом, до двух знаков после запятой`);
      else if (price <= 0 || price > MAX_PRICE_KOPECKS) err(r.line, 'цена должна быть от 0,01 до 1 000 000 ₽');
      const oldText = r.cells.oldPrice ?? '';
      const old = oldText ? parseRoublesToKopecks(oldText) : null;
      if (oldText && old === null) err(r.line, `старая цена «${oldText}»: рубли числом, до двух знаков после запятой`);
      else if (old !== null && price !== null && old <= price) err(r.line, 'старая цена должна быть больше цены');
      const qText = (r.cells.quantity ?? '').replace(/[\s\u00a0]/g, '');
      let quantity: number | undefined;
      if (qText) {
        if (!/^\d{1,7}$/.test(qText) || Number(qText) > MAX_QUANTITY)
          err(r.line, `остаток «${r.cells.quantity}»: целое число от 0 до 1 000 000`);
        else quantity = Number(qText);
      }
      if (!size && quantity !== undefined && quantity > 0)
        err(r.line, 'остаток бывает только у размера: укажите размер');
      if (size && sizeType === 'shoes' && !/^\d{2}(?:[.,]5)?$/.test(size))
        err(r.line, `размер обуви «${size}»: число (37, 38,5)`);
      parsed.push({ line: r.line, size, sizeType, price: price ?? 0, old: old ?? null, quantity });
    }
    const sized = parsed.filter((p) => p.size);
    if (sized.length && parsed.some((p) => !p.size))
      err(parsed.find((p) => !p.size)?.line ?? first.line, 'строка без размера у товара с размерами: укажите размер');

    const head = parsed[0] as (typeof parsed)[number];
    if (!current) {
      // A new product: name, section and kind are needed; it is hidden unless the file says «да».
      if (!/^[A-Za-z0-9._-]{2,50}$/.test(first.cells.article ?? ''))
        err(first.line, 'артикул нового товара: 2–50 латинских букв, цифр, точек, дефисов, подчёркиваний');
      if (!name) err(first.line, `товара с артикулом ${first.cells.article} нет: для нового укажите название`);
      const sectionId = sectionText ? sectionByKey.get(sectionText.toLowerCase()) : undefined;
      if (!sectionText) err(first.line, 'для нового товара укажите раздел');
      else if (sectionId === undefined) err(first.line, `раздела «${sectionText}» нет: напишите его как в выгрузке`);
      const kind = kindText ? kindByKey.get(kindText.toLowerCase()) : undefined;
      if (!kindText) err(first.line, 'для нового товара укажите вид изделия');
      else if (kind === undefined) err(first.line, `вида изделия «${kindText}» нет в списке`);
      if (active === true && sized.length === 0) err(first.line, 'товар без размеров нельзя показать');
      if (!ctx.canAdjustStock && sized.some((p) => (p.quantity ?? 0) > 0))
        err(
          sized.find((p) => (p.quantity ?? 0) > 0)?.line ?? first.line,
          'остатки меняет склад: у вашей роли нет права менять остатки',
        );
      if (rowErrors.length) {
        errors.push(...rowErrors);
        continue;
      }
      plan.creates.push({
        line: first.line,
        article: first.cells.article as string,
        name,
        sectionId: sectionId as number,
        kind: kind as string,
        colorName: color,
        priceKopecks: head.price,
        oldPriceKopecks: head.old,
        active: active ?? false,
        offers: sized.map((p) => ({
          line: p.line,
          size: p.size,
          sizeType: p.sizeType ?? 'clothes',
          priceKopecks: p.price,
          oldPriceKopecks: p.old,
          quantity: p.quantity ?? 0,
        })),
      });
      continue;
    }

    // An existing product: name, show/hide, prices and quantities change; section, kind and colour stay.
    if (sectionText) {
      const id = sectionByKey.get(sectionText.toLowerCase());
      if (id !== current.sectionId)
        err(first.line, 'раздел меняется в карточке товара (новый адрес страницы), не через файл');
    }
    // A kind staff cannot choose (the seed's, 1C's) is exported as its code: the same code is no change.
    if (kindText && (kindByKey.get(kindText.toLowerCase()) ?? kindText) !== current.kind)
      err(first.line, 'вид изделия меняется в карточке товара, не через файл');
    if (color && color.toLowerCase() !== current.colorName.toLowerCase())
      err(first.line, 'цвет меняется в карточке товара, не через файл');
    const offerBySize = new Map(current.offers.map((o) => [o.size.toUpperCase(), o]));
    const before: ProductFields = {};
    const after: ProductFields = {};
    if (name && name !== current.name) {
      before.name = current.name;
      after.name = name;
    }
    if (head.price !== current.priceKopecks || head.old !== current.oldPriceKopecks) {
      before.priceKopecks = current.priceKopecks;
      before.oldPriceKopecks = current.oldPriceKopecks;
      after.priceKopecks = head.price;
      after.oldPriceKopecks = head.old;
    }
    const update: PlannedUpdate = {
      line: first.line,
      productId: current.id,
      article: current.article,
      before,
      after,
      offers: [],
      newOffers: [],
    };
    let changedRows = new Set<number>();
    if (Object.keys(after).length) changedRows.add(first.line);
    for (const p of sized) {
      const offer = offerBySize.get(p.size);
      if (!offer) {
        const sizeType = p.sizeType ?? current.offers[0]?.sizeType ?? 'clothes';
        if (sizeType === 'shoes' && !/^\d{2}(?:[.,]5)?$/.test(p.size))
          err(p.line, `размер обуви «${p.size}»: число (37, 38,5)`);
        if (!ctx.canAdjustStock && (p.quantity ?? 0) > 0)
          err(p.line, 'остатки меняет склад: у вашей роли нет права менять остатки');
        update.newOffers.push({
          line: p.line,
          size: p.size,
          sizeType,
          priceKopecks: p.price,
          oldPriceKopecks: p.old,
          quantity: p.quantity ?? 0,
        });
        changedRows.add(p.line);
        continue;
      }
      const ob: OfferFields = {};
      const oa: OfferFields = {};
      if (p.price !== offer.priceKopecks || p.old !== offer.oldPriceKopecks) {
        ob.priceKopecks = offer.priceKopecks;
        ob.oldPriceKopecks = offer.oldPriceKopecks;
        oa.priceKopecks = p.price;
        oa.oldPriceKopecks = p.old;
      }
      if (p.quantity !== undefined && p.quantity !== offer.quantity) {
        if (!ctx.canAdjustStock) err(p.line, 'остатки меняет склад: у вашей роли нет права менять остатки');
        ob.quantity = offer.quantity;
        oa.quantity = p.quantity;
      }
      if (Object.keys(oa).length) {
        update.offers.push({ offerId: offer.id, line: p.line, size: offer.size, before: ob, after: oa });
        changedRows.add(p.line);
      }
    }
    const willHaveSizes = current.offers.length + update.newOffers.length > 0;
    if (active !== undefined && active !== null && active !== current.active) {
      if (active && !willHaveSizes) err(first.line, 'товар без размеров нельзя показать');
      before.active = current.active;
      after.active = active;
      changedRows.add(first.line);
    }
    if (rowErrors.length) {
      errors.push(...rowErrors);
      continue;
    }
    plan.unchanged += list.length - changedRows.size;
    if (changedRows.size) plan.updates.push(update);
    changedRows = new Set();
  }
  errors.sort((a, b) => a.line - b.line);
  return plan;
}
