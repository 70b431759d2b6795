import crypto from 'node:crypto';
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { catalogueImports, offers, productSections, products } from '~/db/schema';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import { keysetBatches } from '~/db/keyset.server';
import { termsOf, updateSearchTerms } from '~/db/search-terms.server';
import { parseCsv } from '~/core/csv';
import {
  kopecksToCsv,
  planCatalogueImport,
  salePrice,
  SIZE_TYPE_LABEL,
  type CataloguePlan,
  type CurrentProduct,
  type PlannedCreate,
  type PlannedUpdate,
} from '~/core/catalogue-csv';
import { slugify } from '~/core/slug';
import type { SizeType } from '~/core/sizes';
import type { AuditEntry } from './audit.server';
import { KIND_LABELS, STAFF_KINDS, sectionChoices, type Refusal } from './admin-catalogue.server';
import { loadSections } from './sections.server';
import { moveStock, type BackInStockNotice } from './stock.server';

// Bulk work on the catalogue (issue #30, docs/back-office.md "Products in a spreadsheet" and "Bulk
// actions"): the CSV export (one row per size, by keyset), the import's dry run (a plan kept in
// catalogue_imports, nothing else written) and its confirmation (the whole plan in the caller's
// one transaction, refused when the products changed since the dry run, applied at most once), and
// the list's bulk actions (show, hide, add to a section, a sale price by percent). Quantities move
// only through the stock ledger (moveStock, reason 'import'). Every change bumps the catalogue
// version in its transaction, as the single-product changes do.

const refuse = (status: number, field: string, error: string): Refusal => ({ ok: false, status, field, error });

// --- Export ----------------------------------------------------------------------------------------

/** The export's rows, `size` products at a time (keyset on products.id), each product's sizes in their order. */
export async function* catalogueExportBatches(
  db: Database,
  separator: ';' | ',',
  size = 500,
): AsyncGenerator<(string | number | null)[][]> {
  const sections = new Map((await sectionChoices(db)).map((s) => [s.id, s.path]));
  for await (const batch of keysetBatches(
    (cursor, n) =>
      db
        .select()
        .from(products)
        .where(cursor === null ? undefined : gt(products.id, cursor))
        .orderBy(asc(products.id))
        .limit(n),
    (p) => p.id,
    size,
  )) {
    const rows = await db
      .select()
      .from(offers)
      .where(
        inArray(
          offers.productId,
          batch.map((p) => p.id),
        ),
      )
      .orderBy(asc(offers.productId), asc(offers.sort), asc(offers.id));
    const byProduct = new Map<number, (typeof offers.$inferSelect)[]>();
    for (const o of rows) byProduct.set(o.productId, [...(byProduct.get(o.productId) ?? []), o]);
    const lines: (string | number | null)[][] = [];
    for (const p of batch) {
      const common = [
        p.article,
        p.name,
        sections.get(p.sectionId) ?? String(p.sectionId),
        KIND_LABELS[p.kind] ?? p.kind,
        p.colorName,
      ];
      const list = byProduct.get(p.id) ?? [];
      if (list.length === 0)
        lines.push([
          ...common,
          '',
          '',
          '',
          kopecksToCsv(p.priceKopecks, separator),
          kopecksToCsv(p.oldPriceKopecks, separator),
          '',
          p.active ? 'да' : 'нет',
        ]);
      for (const o of list)
        lines.push([
          ...common,
          o.size,
          SIZE_TYPE_LABEL[o.sizeType as SizeType],
          o.barcode,
          kopecksToCsv(o.priceKopecks, separator),
          kopecksToCsv(o.oldPriceKopecks, separator),
          o.quantity,
          p.active ? 'да' : 'нет',
        ]);
    }
    yield lines;
  }
}

// --- Import: the dry run --------------------------------------------------------------------------

/** The products of these articles (lower case) as the planner sees them; with `lock`, their rows locked in id order. */
async function loadCurrent(db: Database, articles: readonly string[], lock = false) {
  const found: (typeof products.$inferSelect)[] = [];
  for (let i = 0; i < articles.length; i += 5000) {
    const q = db
      .select()
      .from(products)
      .where(inArray(sql`lower(${products.article})`, articles.slice(i, i + 5000)))
      .orderBy(asc(products.id));
    found.push(...(lock ? await q.for('update') : await q));
  }
  const ids = found.map((p) => p.id);
  const offerRows: (typeof offers.$inferSelect)[] = [];
  for (let i = 0; i < ids.length; i += 5000)
    offerRows.push(
      ...(await db
        .select()
        .from(offers)
        .where(inArray(offers.productId, ids.slice(i, i + 5000)))
        .orderBy(asc(offers.id))),
    );
  const byProduct = new Map<number, (typeof offers.$inferSelect)[]>();
  for (const o of offerRows) byProduct.set(o.productId, [...(byProduct.get(o.productId) ?? []), o]);
  const current = new Map<string, CurrentProduct>();
  for (const p of found)
    current.set(p.article.toLowerCase(), {
      id: p.id,
      article: p.article,
      name: p.name,
      sectionId: p.sectionId,
      kind: p.kind,
      colorName: p.colorName,
      priceKopecks: p.priceKopecks,
      oldPriceKopecks: p.oldPriceKopecks,
      active: p.active,
      offers: (byProduct.get(p.id) ?? []).map((o) => ({
        id: o.id,
        size: o.size,
        sizeType: o.sizeType as SizeType,
        priceKopecks: o.priceKopecks,
        oldPriceKopecks: o.oldPriceKopecks,
        quantity: o.quantity,
      })),
    });
  return current;
}

/** The state a plan was made against: the articles it names and every field of theirs it reads. */
function fingerprint(articles: readonly string[], current: ReadonlyMap<string, CurrentProduct>): string {
  const hash = crypto.createHash('sha256');
  for (const a of [...articles].sort()) hash.update(JSON.stringify([a, current.get(a) ?? null]));
  return hash.digest('base64url');
}

const articlesOf = (rows: { fields: string[] }[], column: number) => [
  ...new Set(
    rows
      .slice(1)
      .map((r) => (r.fields[column] ?? '').trim().toLowerCase())
      .filter(Boolean),
  ),
];

/** What the answer shows of a plan: counts, and the first rows of each kind (the full plan stays in the table). */
export interface ImportSummary {
  rows: number;
  unchanged: number;
  create_rows: number;
  change_rows: number;
  error_rows: number;
  creates: {
    line: number;
    article: string;
    size: string;
    name: string;
    price_kopecks: number;
    old_price_kopecks: number | null;
    quantity: number;
  }[];
  changes: {
    line: number;
    article: string;
    size: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
  }[];
  errors: { line: number; error: string }[];
}

const SHOWN = 500;

function summarise(plan: CataloguePlan): ImportSummary {
  const creates: ImportSummary['creates'] = [];
  for (const c of plan.creates) {
    if (c.offers.length === 0)
      creates.push({
        line: c.line,
        article: c.article,
        size: '',
        name: c.name,
        price_kopecks: c.priceKopecks,
        old_price_kopecks: c.oldPriceKopecks,
        quantity: 0,
      });
    for (const o of c.offers)
      creates.push({
        line: o.line,
        article: c.article,
        size: o.size,
        name: c.name,
        price_kopecks: o.priceKopecks,
        old_price_kopecks: o.oldPriceKopecks,
        quantity: o.quantity,
      });
  }
  const changes: ImportSummary['changes'] = [];
  for (const u of plan.updates) {
    const productRow = new Set(u.offers.map((o) => o.line)).has(u.line) ? null : u.line;
    if (Object.keys(u.after).length && productRow !== null)
      changes.push({ line: u.line, article: u.article, size: '', before: snake(u.before), after: snake(u.after) });
    for (const o of u.offers) {
      const product = o.line === u.line && Object.keys(u.after).length;
      changes.push({
        line: o.line,
        article: u.article,
        size: o.size,
        before: { ...(product ? snake(u.before) : {}), ...snake(o.before) },
        after: { ...(product ? snake(u.after) : {}), ...snake(o.after) },
      });
    }
    for (const o of u.newOffers)
      creates.push({
        line: o.line,
        article: u.article,
        size: o.size,
        name: '',
        price_kopecks: o.priceKopecks,
        old_price_kopecks: o.oldPriceKopecks,
        quantity: o.quantity,
      });
  }
  creates.sort((a, b) => a.line - b.line);
  changes.sort((a, b) => a.line - b.line);
  return {
    rows: plan.rows,
    unchanged: plan.unchanged,
    create_rows: creates.length,
    change_rows: changes.length,
    error_rows: new Set(plan.errors.map((e) => e.line)).size,
    creates: creates.slice(0, SHOWN),
    changes: changes.slice(0, SHOWN),
    errors: plan.errors.slice(0, SHOWN),
  };
}

const SNAKE: Record<string, string> = {
  name: 'name',
  priceKopecks: 'price_kopecks',
  oldPriceKopecks: 'old_price_kopecks',
  active: 'active',
  quantity: 'quantity',
};
const snake = (o: object) => Object.fromEntries(Object.entries(o).map(([k, v]) => [SNAKE[k] ?? k, v]));

async function planContext(db: Database, canAdjustStock: boolean) {
  return {
    sections: (await sectionChoices(db)).map((s) => ({ id: s.id, path: s.path })),
    kinds: STAFF_KINDS.map((code) => ({ code, label: KIND_LABELS[code] ?? code })),
    canAdjustStock,
  };
}

/**
 * The dry run: the file read and planned against the catalogue as it is, the plan kept (with the
 * state it was made against) for the confirmation. Nothing else is written.
 */
export async function checkCatalogueImport(
  db: Database,
  {
    csv,
    fileName,
    staffId,
    canAdjustStock,
    now,
  }: { csv: string; fileName: string; staffId: number; canAdjustStock: boolean; now: Date },
): Promise<{ ok: true; id: number; separator: ';' | ','; summary: ImportSummary }> {
  const parsed = parseCsv(csv);
  const articleColumn = (parsed.rows[0]?.fields ?? []).findIndex((h) => h.trim().toLowerCase() === 'артикул');
  const articles = articleColumn < 0 ? [] : articlesOf(parsed.rows, articleColumn);
  const current = await loadCurrent(db, articles);
  const plan = planCatalogueImport(parsed.rows, { current, ...(await planContext(db, canAdjustStock)) });
  const summary = summarise(plan);
  const [row] = await db
    .insert(catalogueImports)
    .values({
      staffId,
      fileName,
      separator: parsed.separator,
      fingerprint: fingerprint(articles, current),
      plan: { articles, creates: plan.creates, updates: plan.updates, errors: plan.errors.length },
      summary,
      createdAt: now,
    })
    .returning({ id: catalogueImports.id });
  if (!row) throw new Error('catalogue import insert returned nothing');
  return { ok: true, id: row.id, separator: parsed.separator, summary };
}

// --- Import: the confirmation ---------------------------------------------------------------------

const INTL: Record<string, string> = {
  '40': 'XXS',
  '42': 'XS',
  '44': 'S',
  '46': 'M',
  '48': 'L',
  '50': 'XL',
  '52': 'XXL',
};

interface StoredPlan {
  articles: string[];
  creates: PlannedCreate[];
  updates: PlannedUpdate[];
  errors: number;
}

export type ImportApplied =
  | {
      ok: true;
      id: number;
      created: number;
      changed: number;
      moved: number;
      audit: AuditEntry[];
      notices: BackInStockNotice[];
    }
  | Refusal;

/** `update <table> set … from (values …)` for many rows at once, 1 000 per statement. */
async function updateMany(
  db: Database,
  rows: readonly ReturnType<typeof sql>[],
  statement: (values: ReturnType<typeof sql>) => ReturnType<typeof sql>,
) {
  for (let i = 0; i < rows.length; i += 1000) await db.execute(statement(sql.join(rows.slice(i, i + 1000), sql`, `)));
}

/**
 * Applies a dry run's plan, whole, in the caller's transaction: the import row locked (so a second
 * confirmation waits and then finds it applied), the products it names locked in id order and
 * compared with the state the dry run saw (any change since: refused, nothing written), then the
 * new products and sizes inserted, prices and names updated, quantities set through the stock
 * ledger (one moveStock, reason 'import'), the typo index and the catalogue version updated.
 */
export async function applyCatalogueImport(
  db: Database,
  { id, staffId, now }: { id: number; staffId: number; now: Date },
): Promise<ImportApplied> {
  const [imp] = await db
    .select()
    .from(catalogueImports)
    .where(and(eq(catalogueImports.id, id), eq(catalogueImports.staffId, staffId)))
    .for('update');
  if (!imp) return refuse(404, 'id', 'Проверка файла не найдена: загрузите файл снова');
  if (imp.appliedAt) return refuse(409, 'id', 'Этот файл уже загружен: изменения применены один раз');
  const plan = imp.plan as StoredPlan;
  if (plan.errors > 0) return refuse(409, 'id', 'В файле есть ошибки: исправьте их и загрузите файл снова');
  if (plan.creates.length === 0 && plan.updates.length === 0)
    return refuse(409, 'id', 'Ничего не изменилось: файл совпадает с каталогом');
  const current = await loadCurrent(db, plan.articles, true);
  if (fingerprint(plan.articles, current) !== imp.fingerprint)
    return refuse(
      409,
      'id',
      'Товары из файла изменились после проверки (другой сотрудник, заказ или обмен с 1С): загрузите файл снова, чтобы увидеть изменения',
    );

  const audit: AuditEntry[] = [];
  const reason = `Файл товаров №${id}${imp.fileName ? ` (${imp.fileName})` : ''}`;
  const stock: { offerId: number; setTo: number }[] = [];
  const termsBefore: string[] = [];
  const termsAfter: string[] = [];

  // New products: a free address from the name and colour (or with the article added).
  if (plan.creates.length) {
    const bases = plan.creates.map((c) => slugify(`${c.name} ${c.colorName}`) || slugify(c.article) || 'tovar');
    const candidates = plan.creates.flatMap((c, i) => [bases[i] as string, `${bases[i]}-${slugify(c.article)}`]);
    const taken = new Set<string>();
    for (let i = 0; i < candidates.length; i += 5000)
      for (const r of await db
        .select({ slug: products.slug })
        .from(products)
        .where(inArray(products.slug, candidates.slice(i, i + 5000))))
        taken.add(r.slug);
    const values = plan.creates.map((c, i) => {
      let slug = bases[i] as string;
      if (taken.has(slug)) slug = `${slug}-${slugify(c.article)}`;
      for (let n = 2; taken.has(slug); n++) slug = `${bases[i]}-${slugify(c.article)}-${n}`;
      taken.add(slug);
      return {
        slug,
        name: c.name,
        description: '',
        sectionId: c.sectionId,
        kind: c.kind,
        colorName: c.colorName,
        colorCode: slugify(c.colorName) || 'cvet',
        colorHex: '#000000',
        groupKey: slugify(c.name) || slug,
        isNew: false,
        priceKopecks: c.priceKopecks,
        oldPriceKopecks: c.oldPriceKopecks,
        article: c.article,
        properties: [],
        active: c.active,
        createdAt: now,
      };
    });
    const idOf = new Map<string, number>();
    for (let i = 0; i < values.length; i += 1000)
      for (const r of await db
        .insert(products)
        .values(values.slice(i, i + 1000))
        .returning({ id: products.id, article: products.article }))
        idOf.set(r.article, r.id);
    const offerValues = plan.creates.flatMap((c) =>
      c.offers.map((o, i) => ({ productId: idOf.get(c.article) as number, o, sort: i })),
    );
    const newOfferIds = await insertOffers(db, offerValues);
    offerValues.forEach((v, i) => {
      if (v.o.quantity > 0) stock.push({ offerId: newOfferIds[i] as number, setTo: v.o.quantity });
    });
    for (const c of plan.creates) {
      termsAfter.push(...termsOf(c.name, c.colorName));
      audit.push({
        action: 'product.import',
        entityType: 'product',
        entityId: idOf.get(c.article) as number,
        before: null,
        after: {
          article: c.article,
          name: c.name,
          section_id: c.sectionId,
          kind: c.kind,
          color_name: c.colorName,
          price_kopecks: c.priceKopecks,
          old_price_kopecks: c.oldPriceKopecks,
          active: c.active,
          sizes: Object.fromEntries(
            c.offers.map((o) => [
              o.size,
              { price_kopecks: o.priceKopecks, old_price_kopecks: o.oldPriceKopecks, quantity: o.quantity },
            ]),
          ),
        },
        reason,
      });
    }
  }

  // Changed products: name, price and old price, shown or hidden.
  const byId = new Map([...current.values()].map((p) => [p.id, p]));
  const productRows = plan.updates
    .filter((u) => Object.keys(u.after).length)
    .map((u) => {
      const p = byId.get(u.productId) as CurrentProduct;
      const a = u.after;
      if (a.name !== undefined) {
        termsBefore.push(...termsOf(p.name, p.colorName));
        termsAfter.push(...termsOf(a.name, p.colorName));
      }
      return sql`(${u.productId}::int, ${a.name ?? p.name}::text, ${a.priceKopecks ?? p.priceKopecks}::int, ${
        a.oldPriceKopecks !== undefined ? a.oldPriceKopecks : p.oldPriceKopecks
      }::int, ${a.active ?? p.active}::boolean)`;
    });
  await updateMany(
    db,
    productRows,
    (
      values,
    ) => sql`update products set name = v.name, price_kopecks = v.price, old_price_kopecks = v.old, active = v.active
      from (values ${values}) as v(id, name, price, old, active) where products.id = v.id`,
  );
  const offerRows: ReturnType<typeof sql>[] = [];
  const newOffers: { productId: number; o: PlannedCreate['offers'][number]; sort: number }[] = [];
  for (const u of plan.updates) {
    const p = byId.get(u.productId) as CurrentProduct;
    for (const o of u.offers) {
      const was = p.offers.find((x) => x.id === o.offerId);
      if (o.after.priceKopecks !== undefined && was)
        offerRows.push(sql`(${o.offerId}::int, ${o.after.priceKopecks}::int, ${o.after.oldPriceKopecks ?? null}::int)`);
      if (o.after.quantity !== undefined) stock.push({ offerId: o.offerId, setTo: o.after.quantity });
    }
    u.newOffers.forEach((o, i) => newOffers.push({ productId: u.productId, o, sort: p.offers.length + i }));
    audit.push({
      action: 'product.import',
      entityType: 'product',
      entityId: u.productId,
      before: {
        ...snake(u.before),
        ...(u.offers.length ? { sizes: Object.fromEntries(u.offers.map((o) => [o.size, snake(o.before)])) } : {}),
      },
      after: {
        ...snake(u.after),
        ...(u.offers.length || u.newOffers.length
          ? {
              sizes: Object.fromEntries([
                ...u.offers.map((o) => [o.size, snake(o.after)]),
                ...u.newOffers.map((o) => [
                  o.size,
                  {
                    new: true,
                    price_kopecks: o.priceKopecks,
                    old_price_kopecks: o.oldPriceKopecks,
                    quantity: o.quantity,
                  },
                ]),
              ]),
            }
          : {}),
      },
      reason,
    });
  }
  await updateMany(
    db,
    offerRows,
    (values) => sql`update offers set price_kopecks = v.price, old_price_kopecks = v.old
      from (values ${values}) as v(id, price, old) where offers.id = v.id`,
  );
  const addedIds = await insertOffers(db, newOffers);
  newOffers.forEach((v, i) => {
    if (v.o.quantity > 0) stock.push({ offerId: addedIds[i] as number, setTo: v.o.quantity });
  });

  // Quantities: the ledger's one function, every line at once.
  let notices: BackInStockNotice[] = [];
  if (stock.length) {
    const moved = await moveStock(db, {
      lines: stock,
      reason: 'import',
      actor: { kind: 'staff', id: staffId },
      note: reason,
      short: 'clamp',
      now,
    });
    if (!moved.ok) throw new Error(`import stock move failed: ${moved.missing.join(',')}`);
    notices = moved.notices;
  }
  if (termsBefore.length || termsAfter.length)
    await updateSearchTerms(db, [...new Set(termsBefore)], [...new Set(termsAfter)]);
  await db.update(catalogueImports).set({ appliedAt: now }).where(eq(catalogueImports.id, id));
  await bumpCatalogVersion(db);
  const created = plan.creates.length;
  const changed = plan.updates.length;
  audit.push({
    action: 'catalogue.import',
    entityType: 'catalogue_import',
    entityId: id,
    before: null,
    after: { file: imp.fileName, created, changed, stock_moves: stock.length },
    reason,
  });
  return { ok: true, id, created, changed, moved: stock.length, audit, notices };
}

async function insertOffers(
  db: Database,
  list: readonly { productId: number; o: PlannedCreate['offers'][number]; sort: number }[],
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < list.length; i += 1000) {
    const rows = await db
      .insert(offers)
      .values(
        list.slice(i, i + 1000).map(({ productId, o, sort }) => {
          const numeric = Number(o.size.replace(',', '.'));
          return {
            productId,
            sizeType: o.sizeType,
            size: o.size,
            intlSize: o.sizeType === 'clothes' ? (INTL[o.size] ?? null) : null,
            sort: Number.isFinite(numeric) && numeric > 0 ? Math.round(numeric * 10) : (sort + 1) * 10,
            priceKopecks: o.priceKopecks,
            oldPriceKopecks: o.oldPriceKopecks,
            quantity: 0,
            preorder: false,
            barcode: null,
          };
        }),
      )
      .returning({ id: offers.id });
    ids.push(...rows.map((r) => r.id));
  }
  return ids;
}

// --- Bulk actions of the products list -------------------------------------------------------------

export type BulkAction =
  | { action: 'activate' }
  | { action: 'deactivate' }
  | { action: 'add_section'; section_id: number }
  | { action: 'sale'; percent: number };

export type BulkResult =
  { ok: true; changed: number[]; skipped: { id: number; error: string }[]; audit: AuditEntry[] } | Refusal;

/**
 * One action on the selected products, each locked (id order) and changed only when it is not
 * already so: showing a shown product, adding a section it has, or the same sale again (the sale
 * price is counted from the old price when there is one, so a second −20 % gives the same price)
 * changes nothing. One audit row per product changed; none changed at all is a 409.
 */
export async function bulkProducts(db: Database, ids: readonly number[], input: BulkAction): Promise<BulkResult> {
  const rows = await db
    .select()
    .from(products)
    .where(inArray(products.id, [...ids]))
    .orderBy(asc(products.id))
    .for('update');
  if (rows.length !== new Set(ids).size) {
    const found = new Set(rows.map((r) => r.id));
    return refuse(404, 'ids', `Товар №${ids.find((id) => !found.has(id))} не найден`);
  }
  const changed: number[] = [];
  const skipped: { id: number; error: string }[] = [];
  const audit: AuditEntry[] = [];
  const productIds = rows.map((r) => r.id);

  if (input.action === 'activate' || input.action === 'deactivate') {
    const active = input.action === 'activate';
    const sized = new Set(
      (await db.selectDistinct({ id: offers.productId }).from(offers).where(inArray(offers.productId, productIds))).map(
        (r) => r.id,
      ),
    );
    for (const p of rows) {
      if (p.active === active) skipped.push({ id: p.id, error: active ? 'уже показан' : 'уже скрыт' });
      else if (active && !sized.has(p.id)) skipped.push({ id: p.id, error: 'нет ни одного размера' });
      else {
        changed.push(p.id);
        audit.push({
          action: `product.${input.action}`,
          entityType: 'product',
          entityId: p.id,
          before: { active: p.active },
          after: { active },
          reason: 'Действие над списком',
        });
      }
    }
    if (changed.length) await db.update(products).set({ active }).where(inArray(products.id, changed));
  } else if (input.action === 'add_section') {
    const index = await loadSections(db, { fresh: true });
    const section = index.byId.get(input.section_id);
    if (!section || section.kind !== 'category') return refuse(400, 'section_id', 'Выберите раздел каталога из списка');
    const has = new Set(
      (
        await db
          .select({ id: productSections.productId })
          .from(productSections)
          .where(and(inArray(productSections.productId, productIds), eq(productSections.sectionId, input.section_id)))
      ).map((r) => r.id),
    );
    for (const p of rows) {
      if (p.sectionId === input.section_id || has.has(p.id)) skipped.push({ id: p.id, error: 'уже в этом разделе' });
      else {
        changed.push(p.id);
        audit.push({
          action: 'product.add_section',
          entityType: 'product',
          entityId: p.id,
          before: null,
          after: { section_id: input.section_id, section: section.name },
          reason: 'Действие над списком',
        });
      }
    }
    if (changed.length)
      await db
        .insert(productSections)
        .values(changed.map((productId) => ({ productId, sectionId: input.section_id })))
        .onConflictDoNothing();
  } else {
    const offerRows = await db
      .select()
      .from(offers)
      .where(inArray(offers.productId, productIds))
      .orderBy(asc(offers.id));
    const productValues: ReturnType<typeof sql>[] = [];
    const offerValues: ReturnType<typeof sql>[] = [];
    for (const p of rows) {
      const base = p.oldPriceKopecks ?? p.priceKopecks;
      const price = salePrice(base, input.percent);
      if (price >= base) {
        skipped.push({ id: p.id, error: 'цена слишком мала для скидки' });
        continue;
      }
      if (price === p.priceKopecks && base === p.oldPriceKopecks) {
        skipped.push({ id: p.id, error: 'эта скидка уже стоит' });
        continue;
      }
      changed.push(p.id);
      productValues.push(sql`(${p.id}::int, ${price}::int, ${base}::int)`);
      const sizes: Record<string, unknown> = {};
      for (const o of offerRows.filter((x) => x.productId === p.id)) {
        const ob = o.oldPriceKopecks ?? o.priceKopecks;
        const op = salePrice(ob, input.percent);
        if (op < ob && (op !== o.priceKopecks || ob !== o.oldPriceKopecks)) {
          offerValues.push(sql`(${o.id}::int, ${op}::int, ${ob}::int)`);
          sizes[o.size] = { price_kopecks: op, old_price_kopecks: ob };
        }
      }
      audit.push({
        action: 'product.sale',
        entityType: 'product',
        entityId: p.id,
        before: { price_kopecks: p.priceKopecks, old_price_kopecks: p.oldPriceKopecks },
        after: { price_kopecks: price, old_price_kopecks: base, percent: input.percent, sizes },
        reason: `Скидка ${input.percent} %`,
      });
    }
    await updateMany(
      db,
      productValues,
      (values) => sql`update products set price_kopecks = v.price, old_price_kopecks = v.old
        from (values ${values}) as v(id, price, old) where products.id = v.id`,
    );
    await updateMany(
      db,
      offerValues,
      (values) => sql`update offers set price_kopecks = v.price, old_price_kopecks = v.old
        from (values ${values}) as v(id, price, old) where offers.id = v.id`,
    );
  }
  if (changed.length === 0)
    return refuse(409, 'ids', `Ничего не изменилось: ${skipped[0]?.error ?? 'товары уже такие'}`);
  await bumpCatalogVersion(db);
  return { ok: true, changed, skipped, audit };
}
