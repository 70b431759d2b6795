import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import {
  appState,
  exchangeImports,
  exchangeSaleExports,
  exchangeSessions,
  sections,
  type ProductProperty,
} from '~/db/schema';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import { rebuildSearchTerms } from '~/db/search-terms.server';
import { slugify } from '~/db/seed/catalog-data';
import {
  DEFAULT_EXCHANGE_SETTINGS,
  exportLineId,
  ordersPackage,
  pickPriceTypes,
  type ExchangeAnswer,
  type ExchangeSettings,
  type ExportOrder,
} from '~/core/commerceml';
import { normalizeStaffEmail } from '~/core/staff-auth';
import type { StockLine } from '~/core/stock-ledger';
import { ORDER_STATUS_LABELS, isOrderStatus } from '~/core/order-status';
import { DELIVERY_ID, PAYMENT_ID } from '~/shared/checkout-ids';
import { takeLoginTry } from './staff-login.server';
import { writeAudit, type AuditActor } from './audit.server';
import { findStaffByEmail } from './staff.server';
import { verifyPassword } from './staff-secrets.server';
import { moveStock, type BackInStockNotice } from './stock.server';
import {
  ExchangeInputError,
  readStep,
  splitExchangeFile,
  type GroupRecord,
  type IdRange,
  type OfferRecord,
  type OrderRecord,
  type ParsedMeta,
  type ProductRecord,
} from './exchange-xml.server';
import { applyOrderRecords } from './exchange-orders.server';
import { attachPictures, type PictureContext } from './exchange-pictures.server';
import { unpackArchive, ZipRefused, type UnzipLimits } from './exchange-zip.server';

// The 1C exchange's state (issue #31, docs/exchange-1c.md): sessions opened by checkauth, the
// import of each file in steps, and the order exports 1C confirms. All of it in the database
// (tables exchange_*) and DATA_DIR/exchange/<session id>/, so any process can answer any call.

/** A session lives this long after its last call. */
export const EXCHANGE_SESSION_IDLE_MS = 6 * 3_600_000;

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export type ExchangeLogin =
  | { ok: true; token: string; sessionId: number }
  | { ok: false; reason: 'wrong' }
  | { ok: false; reason: 'capped'; retryAfter: number };

/**
 * checkauth: HTTP Basic with a staff account of role 'exchange' (any other role, a disabled
 * account or a wrong password: 'wrong'), under the staff login caps. A new session and its token.
 */
export async function exchangeLogin({
  db,
  email,
  password,
  type,
  ip,
  now,
}: {
  db: Database;
  email: string;
  password: string;
  type: 'catalog' | 'sale';
  ip: string;
  now: Date;
}): Promise<ExchangeLogin> {
  const account = normalizeStaffEmail(email) ?? email.trim().toLowerCase().slice(0, 254);
  const tried = await takeLoginTry({ db, account, ip, now });
  if (!tried.ok) return { ok: false, reason: 'capped', retryAfter: tried.retryAfter };
  const row = await findStaffByEmail(db, account);
  const right = await verifyPassword(row?.passwordHash ?? null, password);
  if (!row || !right || row.disabled || row.role !== 'exchange') return { ok: false, reason: 'wrong' };
  await tried.giveBack();
  const token = crypto.randomBytes(32).toString('base64url');
  const [session] = await db
    .insert(exchangeSessions)
    .values({ tokenHash: sha256(token), staffId: row.id, type, ip, createdAt: now, lastSeenAt: now })
    .returning({ id: exchangeSessions.id });
  return { ok: true, token, sessionId: session!.id };
}

export interface ExchangeSession {
  id: number;
  staffId: number;
  /** The exchange account's e-mail (the audit log's actor). */
  email: string;
  type: 'catalog' | 'sale';
}

/** The session of a cookie's token, if it is live (its staff account still an enabled exchange account); touches it. */
export async function exchangeSession({
  db,
  token,
  now,
}: {
  db: Database;
  token: string;
  now: Date;
}): Promise<ExchangeSession | null> {
  const rows = await queryRows<{ id: number; staff_id: number; email: string; type: 'catalog' | 'sale' }>(
    db,
    sql`update exchange_sessions s set last_seen_at = ${now.toISOString()}::timestamptz
        from staff
        where s.token_hash = ${sha256(token)} and staff.id = s.staff_id and not staff.disabled and staff.role = 'exchange'
          and s.last_seen_at > ${new Date(now.getTime() - EXCHANGE_SESSION_IDLE_MS).toISOString()}::timestamptz
        returning s.id, s.staff_id, staff.email, s.type`,
  );
  const row = rows[0];
  return row ? { id: row.id, staffId: row.staff_id, email: row.email, type: row.type } : null;
}

/** The session's folder under DATA_DIR/exchange. */
export function sessionDir(exchangeRoot: string, sessionId: number): string {
  return path.join(exchangeRoot, String(sessionId));
}

/** mode=init: the session's folder, emptied (Bitrix does the same). */
export async function initExchangeDir(exchangeRoot: string, sessionId: number): Promise<void> {
  const dir = sessionDir(exchangeRoot, sessionId);
  await fs.promises.rm(dir, { recursive: true, force: true });
  await fs.promises.mkdir(dir, { recursive: true });
}

/**
 * Before an import: the archives 1C sent into the session's folder (zip=yes) are unpacked, one
 * per call, each logged as an import of kind 'zip'. Null when there is none left; 'progress' when
 * one was unpacked (1C calls again); 'failure' with the reason when one is refused (its files are
 * not kept; every later import of the session answers the same until a new init).
 */
export async function unpackSessionArchives({
  db,
  exchangeRoot,
  session,
  limits,
  now,
}: {
  db: Database;
  exchangeRoot: string;
  session: ExchangeSession;
  limits: UnzipLimits;
  now: Date;
}): Promise<ExchangeAnswer | null> {
  const dir = sessionDir(exchangeRoot, session.id);
  if (!(await fs.promises.readdir(dir).catch(() => [] as string[])).some((n) => /\.zip(\.refused)?$/i.test(n)))
    return null;
  // Two processes may both be asked: one unpacks, the other waits and then finds it unpacked.
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK}, hashtext(${`${session.id}/.zip`}))`);
    return unpackNext(tx, dir, session, limits, now);
  });
}

async function unpackNext(
  db: Database,
  dir: string,
  session: ExchangeSession,
  limits: UnzipLimits,
  now: Date,
): Promise<ExchangeAnswer | null> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const refused = names.find((n) => n.endsWith('.zip.refused'));
  if (refused) return { kind: 'failure', lines: [await fs.promises.readFile(path.join(dir, refused), 'utf8')] };
  const archive = names.sort().find((n) => /\.zip$/i.test(n));
  if (!archive) return null;
  const file = path.join(dir, archive);
  const [row] = await db
    .insert(exchangeImports)
    .values({ sessionId: session.id, filename: archive, kind: 'zip', status: 'applying', startedAt: now })
    .returning({ id: exchangeImports.id });
  try {
    const files = await unpackArchive({ zipFile: file, destDir: dir, limits });
    await fs.promises.rename(file, `${file}.unpacked`);
    await db
      .update(exchangeImports)
      .set({ status: 'done', counts: { files: files.length }, finishedAt: now, steps: 1, step: 1 })
      .where(eq(exchangeImports.id, row!.id));
    return { kind: 'progress', lines: [`Архив ${archive} распакован: файлов ${files.length}`] };
  } catch (error) {
    if (!(error instanceof ZipRefused)) throw error;
    const reason = `Архив не принят: ${error.message}`;
    await fs.promises.rm(file, { force: true });
    await fs.promises.writeFile(`${file}.refused`, reason);
    await db
      .update(exchangeImports)
      .set({ status: 'failed', error: reason.slice(0, 2000), finishedAt: now })
      .where(eq(exchangeImports.id, row!.id));
    return { kind: 'failure', lines: [reason] };
  }
}

export async function readExchangeSettings(db: Database): Promise<ExchangeSettings> {
  const [row] = await db.select({ value: appState.value }).from(appState).where(eq(appState.key, 'exchange_settings'));
  const v = (row?.value ?? {}) as Partial<ExchangeSettings>;
  return {
    ...DEFAULT_EXCHANGE_SETTINGS,
    ...v,
    owns: { ...DEFAULT_EXCHANGE_SETTINGS.owns, ...(v.owns ?? {}) },
  };
}

// ---------------------------------------------------------------------------------------------
// Import

type Counts = Record<string, number>;
const bump = (c: Counts, key: string, by = 1) => {
  if (by) c[key] = (c[key] ?? 0) + by;
};

interface StepContext {
  tx: Database;
  importId: number;
  staffId: number;
  meta: ParsedMeta;
  settings: ExchangeSettings;
  counts: Counts;
  warnings: string[];
  notices: BackInStockNotice[];
  /** The session's folder (1C's pictures under import_files/), the media root and the picture size cap. */
  exchangeDir: string;
  mediaRoot: string;
  maxPictureBytes: number;
}

export interface ImportDeps {
  db: Database;
  exchangeRoot: string;
  session: ExchangeSession;
  filename: string;
  stepItems: number;
  /** DATA_DIR/media, where 1C's pictures are written. */
  mediaRoot: string;
  maxPictureBytes: number;
  /** The call's address and request id, for the audit log. */
  ip: string;
  requestId: string;
  now: Date;
}

/** What a step did, for the caller: the answer, and the back-in-stock notices to send now that it committed. */
export interface ImportStepResult {
  answer: ExchangeAnswer;
  notices: BackInStockNotice[];
}

const stepsDirOf = (deps: ImportDeps, importId: number) =>
  path.join(sessionDir(deps.exchangeRoot, deps.session.id), '.steps', String(importId));

/**
 * One mode=import call: the file's first call reads and checks it whole and splits it into steps
 * (nothing written to the catalogue yet); each later call applies one step in one transaction
 * with the import's position. 'progress' while steps are left, then 'success'; 'failure' with
 * the reason when the file is refused or a step fails (that step is rolled back).
 */
export async function importStep(deps: ImportDeps): Promise<ImportStepResult> {
  const { db, session, filename } = deps;
  const file = path.join(sessionDir(deps.exchangeRoot, session.id), filename);
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat?.isFile()) return { answer: { kind: 'failure', lines: [`Файл ${filename} не получен`] }, notices: [] };

  // Two processes may get 1C's calls for one file at once: the file's import is found or made under
  // a lock of its own, so there is one import and each step is applied once (a step takes the
  // import row's lock).
  const picked = await db.transaction(async (txn): Promise<ImportStepResult | { apply: number } | { read: number }> => {
    const tx = txn as unknown as Database;
    await lockImport(tx, session.id, filename);
    const [last] = await tx
      .select()
      .from(exchangeImports)
      .where(and(eq(exchangeImports.sessionId, session.id), eq(exchangeImports.filename, filename)))
      .orderBy(desc(exchangeImports.id))
      .limit(1);
    const fresh = !last || (last.status !== 'applying' && last.finishedAt !== null && stat.mtime > last.finishedAt);
    if (last && !fresh) {
      if (last.status === 'done') return { answer: { kind: 'success', lines: summary(last.counts) }, notices: [] };
      if (last.status === 'failed')
        return { answer: { kind: 'failure', lines: [last.error ?? 'Ошибка'] }, notices: [] };
      if (last.steps > 0) return { apply: last.id };
      return { read: last.id };
    }
    const [created] = await tx
      .insert(exchangeImports)
      .values({ sessionId: session.id, filename, status: 'applying', startedAt: deps.now })
      .returning({ id: exchangeImports.id });
    return { read: created!.id };
  });
  if ('apply' in picked) return applyNextStep(deps, picked.apply);
  if ('read' in picked) return prepare(deps, picked.read, file);
  return picked;
}

/** pg_advisory_xact_lock on one file's import of one exchange session. */
async function lockImport(tx: Database, sessionId: number, filename: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${IMPORT_LOCK}, hashtext(${`${sessionId}/${filename}`}))`);
}

/** pg_advisory_xact_lock's first key for the exchange's locks (the second: a hash of session and file). */
const IMPORT_LOCK = 31_031;

async function fail(db: Database, importId: number, error: string, now: Date): Promise<ImportStepResult> {
  await db
    .update(exchangeImports)
    .set({ status: 'failed', error: error.slice(0, 2000), finishedAt: now })
    .where(eq(exchangeImports.id, importId));
  return { answer: { kind: 'failure', lines: [error] }, notices: [] };
}

/**
 * The file's first call: reads and checks it whole and writes its steps, outside any transaction
 * (reading 100 000 offers takes seconds, and on PGlite a transaction holds the one connection every
 * guest's query waits for). The steps go to a directory of this call's own; the first call to
 * finish installs them under the import's lock, so two processes reading the same file at once
 * (1C retrying a call that timed out) cost work, never a second set of steps; a call cut off by a
 * restart leaves the import unread, and the next call reads the file again.
 */
async function prepare(deps: ImportDeps, importId: number, file: string): Promise<ImportStepResult> {
  const { db } = deps;
  const stepsDir = stepsDirOf(deps, importId);
  const readDir = `${stepsDir}.${crypto.randomUUID()}`;
  try {
    let meta: ParsedMeta | null = null;
    let refused: string | null = null;
    try {
      const sale = deps.session.type === 'sale';
      meta = await splitExchangeFile({ file, stepsDir: readDir, stepItems: deps.stepItems, orders: sale });
      // The order exchange takes documents only; the catalogue exchange never takes them.
      if (sale && meta.kind !== 'orders')
        throw new ExchangeInputError('в обмене заказами (type=sale) ждут файл документов заказов, а пришёл каталог');
      if (!sale && meta.kind === 'orders')
        throw new ExchangeInputError('документы заказов загружают обменом заказами (type=sale), а не каталога');
      if (meta.kind !== 'import' && meta.kind !== 'orders') await checkOffersPackage(db, meta, readDir);
      await fs.promises.writeFile(path.join(readDir, 'meta.json'), JSON.stringify(meta));
    } catch (error) {
      if (!(error instanceof ExchangeInputError)) throw error;
      refused = `${deps.filename}: ${error.message}`;
    }
    return await db.transaction(async (txn): Promise<ImportStepResult> => {
      const tx = txn as unknown as Database;
      await lockImport(tx, deps.session.id, deps.filename);
      const [row] = await tx.select().from(exchangeImports).where(eq(exchangeImports.id, importId));
      // Another call read the file first: its steps stand, and 1C's next call applies them.
      if (!row || row.status !== 'applying' || row.steps > 0)
        return { answer: { kind: 'progress', lines: [`Файл ${deps.filename} прочитан`] }, notices: [] };
      if (refused !== null) return fail(tx, importId, refused, deps.now);
      await fs.promises.rm(stepsDir, { recursive: true, force: true });
      await fs.promises.rename(readDir, stepsDir);
      await tx
        .update(exchangeImports)
        .set({ kind: meta!.kind, onlyChanges: meta!.onlyChanges, steps: stepCount(meta!), step: 0 })
        .where(eq(exchangeImports.id, importId));
      return {
        answer: {
          kind: 'progress',
          lines: [`Файл ${deps.filename} прочитан: ${meta!.records} записей, шагов импорта: ${stepCount(meta!)}`],
        },
        notices: [],
      };
    });
  } finally {
    await fs.promises.rm(readDir, { recursive: true, force: true });
  }
}

/**
 * Before anything of an offers package is written: every offer's product is known (price types
 * were checked while reading); in prices.xml and rests.xml every offer is one the shop has.
 */
async function checkOffersPackage(db: Database, meta: ParsedMeta, stepsDir: string): Promise<void> {
  if (meta.kind === 'prices' || meta.kind === 'rests') {
    const ids = await packageIds(stepsDir, meta);
    const unknown: string[] = [];
    for (let i = 0; i < ids.length; i += 5000) {
      const chunk = ids.slice(i, i + 5000);
      const known = await queryRows<{ external_id: string }>(
        db,
        sql`select external_id from offers where external_id in (select jsonb_array_elements_text(${JSON.stringify(chunk)}::jsonb))`,
      );
      const set = new Set(known.map((k) => k.external_id));
      for (const id of chunk) if (!set.has(id)) unknown.push(id);
    }
    if (unknown.length > 0)
      throw new ExchangeInputError(
        `Предложения, которых нет на сайте (${unknown.length}): ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? '…' : ''}. Выгрузите сначала предложения (offers.xml)`,
      );
    return;
  }
  const missing: string[] = [];
  for (let i = 0; i < meta.productIds.length; i += 5000) {
    const chunk = meta.productIds.slice(i, i + 5000);
    const known = await queryRows<{ external_id: string }>(
      db,
      sql`select external_id from products where external_id in (select jsonb_array_elements_text(${JSON.stringify(chunk)}::jsonb))`,
    );
    const set = new Set(known.map((k) => k.external_id));
    for (const id of chunk) if (!set.has(id)) missing.push(id);
  }
  if (missing.length > 0)
    throw new ExchangeInputError(
      `Предложения товаров, которых нет на сайте (${missing.length}): ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? '…' : ''}. Выгрузите сначала каталог (import.xml)`,
    );
}

function summary(counts: Counts): string[] {
  const labels: Record<string, string> = {
    sections_created: 'разделов создано',
    sections_updated: 'разделов обновлено',
    products_created: 'товаров создано',
    products_updated: 'товаров обновлено',
    products_deactivated: 'товаров снято с продажи',
    offers_created: 'предложений создано',
    offers_updated: 'предложений обновлено',
    stock_changed: 'остатков изменено',
    pictures_processed: 'картинок обработано',
    pictures_unchanged: 'картинок без изменений',
    offers_zeroed: 'предложений обнулено',
    orders_updated: 'заказов изменено',
    orders_unchanged: 'заказов без изменений',
    orders_refused: 'документов не принято',
    order_lines_changed: 'составов заказов изменено',
    order_lines_refused: 'составов заказов не принято',
  };
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${labels[k] ?? k}: ${n}`);
  return parts.length ? [parts.join(', ')] : [];
}

async function applyNextStep(deps: ImportDeps, importId: number): Promise<ImportStepResult> {
  const { db } = deps;
  const stepsDir = stepsDirOf(deps, importId);
  const meta = JSON.parse(await fs.promises.readFile(path.join(stepsDir, 'meta.json'), 'utf8')) as ParsedMeta;
  const settings = await readExchangeSettings(db);
  const auditActor: AuditActor = {
    kind: 'staff',
    staffId: deps.session.staffId,
    label: `${deps.session.email} (обмен с 1С)`,
    sessionId: null,
    ip: deps.ip,
    requestId: deps.requestId,
  };
  let outcome: { done: boolean; counts: Counts; notices: BackInStockNotice[] } | null;
  try {
    outcome = await db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const [row] = await tx.select().from(exchangeImports).where(eq(exchangeImports.id, importId)).for('update');
      // Another process took this step meanwhile: nothing to do in this call.
      if (!row || row.status !== 'applying') return null;
      const ctx: StepContext = {
        tx,
        importId,
        staffId: deps.session.staffId,
        meta,
        settings,
        counts: { ...row.counts },
        warnings: [...row.warnings],
        notices: [],
        exchangeDir: sessionDir(deps.exchangeRoot, deps.session.id),
        mediaRoot: deps.mediaRoot,
        maxPictureBytes: deps.maxPictureBytes,
      };
      const last = row.step >= stepCount(meta) - 1;
      if (row.step >= meta.steps.length) {
        // Past the last range: the catalogue's typo index step.
        const range = idRangesOf(meta)[row.step - meta.steps.length];
        if (range) await finishPackage(ctx, stepsDir, range);
        // New and renamed products' words for search's typo correction (db/search-terms.server.ts):
        // a catalogue's last step of its own (an import read by an earlier version: with its last range).
        if (last && meta.kind === 'import') await rebuildSearchTerms(tx);
      } else {
        const records = await readStep(stepsDir, meta.steps[row.step]!);
        if (meta.kind === 'orders')
          await applyOrderRecords(
            {
              tx,
              staffId: ctx.staffId,
              audit: auditActor,
              counts: ctx.counts,
              warnings: ctx.warnings,
              notices: ctx.notices,
              now: deps.now,
              importId,
            },
            records as OrderRecord[],
          );
        else if (meta.kind === 'import') await applyCatalogRecords(ctx, records as (GroupRecord | ProductRecord)[]);
        else await applyOfferRecords(ctx, records as OfferRecord[]);
      }
      await bumpCatalogVersion(tx);
      // The audit log: one event a step, with what the step changed (not one a row).
      const changed = Object.fromEntries(
        Object.entries(ctx.counts)
          .map(([k, n]) => [k, n - (row.counts[k] ?? 0)] as const)
          .filter(([, n]) => n !== 0),
      );
      await writeAudit(tx, auditActor, {
        action: 'exchange.import',
        entityType: 'exchange_import',
        entityId: importId,
        after: {
          file: deps.filename,
          kind: meta.kind,
          step: row.step + 1,
          steps: stepCount(meta),
          counts: changed,
          last,
        },
      });
      await tx
        .update(exchangeImports)
        .set({
          step: row.step + 1,
          counts: ctx.counts,
          warnings: ctx.warnings.slice(0, 200),
          ...(last ? { status: 'done' as const, finishedAt: deps.now } : {}),
        })
        .where(eq(exchangeImports.id, importId));
      return { done: last, counts: ctx.counts, notices: ctx.notices };
    });
  } catch (error) {
    const message =
      error instanceof ExchangeInputError ? error.message : `ошибка базы данных: ${(error as Error).message}`;
    return fail(db, importId, `${deps.filename}: ${message}`.slice(0, 1000), deps.now);
  }
  if (!outcome) return { answer: { kind: 'progress', lines: ['Шаг импорта уже выполняется'] }, notices: [] };
  if (outcome.done) {
    await fs.promises.rm(stepsDir, { recursive: true, force: true });
    return { answer: { kind: 'success', lines: summary(outcome.counts) }, notices: outcome.notices };
  }
  return { answer: { kind: 'progress', lines: summary(outcome.counts) }, notices: outcome.notices };
}

/** The package's Ид files by range (an import read by an earlier version: its one file, unbounded). */
function idRangesOf(meta: ParsedMeta): IdRange[] {
  return meta.idRanges ?? [{ file: meta.idsFile ?? 'ids.json', from: null, to: null }];
}

/**
 * The steps of an import: its records' steps, then one a range of its Ид (the finishing steps),
 * then for a catalogue the typo index's rebuild (each of these about as long as a step of records).
 */
const stepCount = (meta: ParsedMeta) =>
  meta.steps.length + idRangesOf(meta).length + (meta.kind === 'import' && meta.idRanges ? 1 : 0);

/** Reads an Ид file of the package. */
async function readIds(stepsDir: string, range: IdRange): Promise<string[]> {
  return JSON.parse(await fs.promises.readFile(path.join(stepsDir, range.file), 'utf8')) as string[];
}

/** Every product or offer Ид of the package. */
async function packageIds(stepsDir: string, meta: ParsedMeta): Promise<string[]> {
  return (await Promise.all(idRangesOf(meta).map((r) => readIds(stepsDir, r)))).flat();
}

/**
 * The finishing steps, one a range of the package's Ид. A full catalogue package deactivates the
 * products 1C sent before and not now (never deletes: orders name them); a full offers package
 * sets the stock of 1C's offers it no longer lists to zero. A package of changes only leaves
 * everything it does not name alone. A step looks only at the shop's Ид in its range (compared
 * in byte order, as the ranges were cut), so no step holds the whole package's list: at 100 000
 * offers the one query over all of them held PGlite, and every guest, for 0.3 s.
 */
async function finishPackage(ctx: StepContext, stepsDir: string, range: IdRange): Promise<void> {
  // A prices package says nothing of stock: the offers it leaves out keep theirs.
  if (ctx.meta.onlyChanges || ctx.meta.kind === 'prices' || ctx.meta.kind === 'orders') return;
  const ids = JSON.stringify(await readIds(stepsDir, range));
  const inRange = sql`${range.from === null ? sql`true` : sql`external_id collate "C" >= ${range.from}`}
    and ${range.to === null ? sql`true` : sql`external_id collate "C" < ${range.to}`}`;
  if (ctx.meta.kind === 'import') {
    const gone = await queryRows<{ id: number }>(
      ctx.tx,
      sql`update products set active = false
          where external_id is not null and active and ${inRange}
            and external_id not in (select jsonb_array_elements_text(${ids}::jsonb))
          returning id`,
    );
    bump(ctx.counts, 'products_deactivated', gone.length);
    return;
  }
  const stale = await queryRows<{ id: number }>(
    ctx.tx,
    sql`select id from offers where external_id is not null and quantity > 0 and ${inRange}
          and external_id not in (select jsonb_array_elements_text(${ids}::jsonb)) order by id`,
  );
  if (stale.length === 0) return;
  const moved = await moveStock(ctx.tx, {
    lines: stale.map((o) => ({ offerId: o.id, setTo: 0 })),
    reason: 'import',
    actor: { kind: 'staff', id: ctx.staffId },
    ref: { importId: ctx.importId },
    note: 'Нет в полной выгрузке 1С',
    short: 'clamp',
  });
  if (moved.ok) {
    bump(ctx.counts, 'offers_zeroed', moved.changes.length);
    ctx.notices.push(...moved.notices);
  }
}

// --- catalogue (import.xml) --------------------------------------------------------------------

async function defaultSectionId(tx: Database): Promise<number> {
  const [found] = await tx.select({ id: sections.id }).from(sections).where(eq(sections.code, '1c-import'));
  if (found) return found.id;
  const [made] = await tx
    .insert(sections)
    .values({ code: '1c-import', name: 'Из 1С', url: '/catalog/1c-import/', sort: 900 })
    .onConflictDoNothing()
    .returning({ id: sections.id });
  if (made) return made.id;
  const [again] = await tx.select({ id: sections.id }).from(sections).where(eq(sections.code, '1c-import'));
  return again!.id;
}

interface SectionRow {
  id: number;
  name: string;
  url: string;
  parent_id: number | null;
}

/**
 * A step's groups (1C's groups, parents before children): the sections they name read in one
 * query, changed names and parents written in one statement; a new group adopts a site section
 * of the same code without a 1C id (one query for all), else is inserted (one statement each:
 * its children need its id and address, and new groups are few after the first exchange).
 */
async function applyGroups(ctx: StepContext, groups: GroupRecord[]): Promise<void> {
  if (groups.length === 0) return;
  const { tx } = ctx;
  const ids = [...new Set(groups.flatMap((g) => (g.parent ? [g.id, g.parent] : [g.id])))];
  const known = new Map(
    (
      await queryRows<SectionRow & { external_id: string }>(
        tx,
        sql`select id, name, url, parent_id, external_id from sections
            where external_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
      )
    ).map((r) => [r.external_id, { id: Number(r.id), name: r.name, url: r.url, parent_id: r.parent_id }]),
  );
  const newBases = [...new Set(groups.filter((g) => !known.has(g.id)).map((g) => slugify(g.name) || 'razdel'))];
  const adoptable = new Map(
    newBases.length
      ? (
          await queryRows<SectionRow & { code: string }>(
            tx,
            sql`select id, name, url, parent_id, code from sections where external_id is null
                and code in (select jsonb_array_elements_text(${JSON.stringify(newBases)}::jsonb))`,
          )
        ).map((r) => [r.code, { id: Number(r.id), name: r.name, url: r.url, parent_id: r.parent_id }])
      : [],
  );
  const updates = new Map<number, { id: number; name: string; parent_id: number | null; ext: string | null }>();
  for (const g of groups) {
    const parent = g.parent ? known.get(g.parent) : undefined;
    const parentId = parent?.id ?? null;
    const existing = known.get(g.id);
    if (existing) {
      const name = ctx.settings.owns.name ? g.name : existing.name;
      const parentOf = existing.parent_id === null ? null : Number(existing.parent_id);
      if (name !== existing.name || parentId !== parentOf) {
        updates.set(existing.id, {
          id: existing.id,
          name,
          parent_id: parentId,
          ext: updates.get(existing.id)?.ext ?? null,
        });
        known.set(g.id, { ...existing, name, parent_id: parentId });
        bump(ctx.counts, 'sections_updated');
      }
      continue;
    }
    const base = slugify(g.name) || 'razdel';
    // A section made on the site with this code and no 1C id is the same section: adopt it.
    const same = adoptable.get(base);
    if (same) {
      adoptable.delete(base);
      updates.set(same.id, { id: same.id, name: same.name, parent_id: same.parent_id, ext: g.id });
      known.set(g.id, same);
      ctx.warnings.push(`Группа ${g.id} «${g.name}» сопоставлена с разделом ${same.url} по коду`);
      bump(ctx.counts, 'sections_updated');
      continue;
    }
    const parentUrl = parent?.url ?? '/catalog/';
    let made: SectionRow | undefined;
    for (let n = 1; n < 50 && !made; n++) {
      const code = n === 1 ? base : `${base}-${n}`;
      [made] = await tx
        .insert(sections)
        .values({ code, name: g.name, url: `${parentUrl}${code}/`, parentId, externalId: g.id })
        .onConflictDoNothing()
        .returning({ id: sections.id, name: sections.name, url: sections.url, parent_id: sections.parentId });
    }
    if (!made) throw new ExchangeInputError(`Группа ${g.id}: не удалось подобрать адрес раздела`);
    known.set(g.id, made);
    bump(ctx.counts, 'sections_created');
  }
  if (updates.size > 0)
    await tx.execute(sql`
      update sections s set name = v.name, parent_id = v.parent_id, external_id = coalesce(v.ext, s.external_id)
      from jsonb_to_recordset(${JSON.stringify([...updates.values()])}::jsonb) as v(id int, name text, parent_id int, ext text)
      where s.id = v.id`);
}

function productProperties(ctx: StepContext, p: ProductRecord): { props: ProductProperty[]; color: string | null } {
  const defs = new Map(ctx.meta.properties.map((d) => [d.id, d]));
  const props: ProductProperty[] = [];
  let color: string | null = null;
  for (const v of p.props) {
    const def = defs.get(v.id);
    const name = def?.name ?? v.id;
    const value = def?.values[v.value] ?? v.value;
    if (!value) continue;
    if (name.toLowerCase() === ctx.settings.colorProperty.toLowerCase()) color = value;
    props.push({ code: (slugify(name) || 'prop').toUpperCase().replace(/-/g, '_'), name, value });
  }
  return { props, color };
}

const pictureContext = (ctx: StepContext): PictureContext => ({
  tx: ctx.tx,
  exchangeDir: ctx.exchangeDir,
  mediaRoot: ctx.mediaRoot,
  maxBytes: ctx.maxPictureBytes,
  warnings: ctx.warnings,
  counts: ctx.counts,
});

/** A step's records split where an Ид comes again: each part is applied whole, and a later part sees what an earlier one wrote. */
function rounds<T extends { id: string }>(records: T[]): T[][] {
  const out: T[][] = [[]];
  let seen = new Set<string>();
  for (const r of records) {
    if (seen.has(r.id)) {
      out.push([]);
      seen = new Set();
    }
    seen.add(r.id);
    out.at(-1)!.push(r);
  }
  return out.filter((r) => r.length > 0);
}

interface ProductLookupRow {
  id: number;
  external_id: string | null;
  article: string;
  price_kopecks: number;
}

/**
 * A step's products in a few statements, not one a product (bench:1c): the sections and the
 * products of the step by 1C id in two queries, the site's products without a 1C id matched by
 * article (a lost mapping) in one, then one update of the known products (rows that would not
 * change are not written) and one insert of the new ones (again for those whose address is taken,
 * with -2, -3…). Pictures after that, product by product (each goes through the image pipeline).
 * An Ид twice in one step: the step is applied in parts, so the second sees what the first wrote.
 */
async function applyProducts(ctx: StepContext, records: ProductRecord[]): Promise<void> {
  let fallback: number | null = null;
  const fallbackSection = async () => (fallback ??= await defaultSectionId(ctx.tx));
  for (const part of rounds(records)) await applyProductRound(ctx, part, fallbackSection);
}

async function applyProductRound(
  ctx: StepContext,
  records: ProductRecord[],
  fallbackSection: () => Promise<number>,
): Promise<void> {
  const { tx } = ctx;
  const list = (values: unknown[]) => JSON.stringify(values);
  const groupIds = [...new Set(records.flatMap((p) => p.groups))];
  const sectionByExt = new Map(
    groupIds.length
      ? (
          await queryRows<{ id: number; external_id: string }>(
            tx,
            sql`select id, external_id from sections where external_id in (select jsonb_array_elements_text(${list(groupIds)}::jsonb))`,
          )
        ).map((r) => [r.external_id, Number(r.id)])
      : [],
  );
  const productByExt = new Map(
    (
      await queryRows<ProductLookupRow>(
        tx,
        sql`select id, external_id, article, price_kopecks from products
            where external_id in (select jsonb_array_elements_text(${list(records.map((p) => p.id))}::jsonb))`,
      )
    ).map((r) => [r.external_id!, r]),
  );
  // A lost mapping: the same article on a product without a 1C id is that product (never a duplicate).
  const articles = [
    ...new Set(records.filter((p) => !productByExt.has(p.id) && p.article).map((p) => p.article.toLowerCase())),
  ];
  const byArticle = new Map<string, ProductLookupRow[]>();
  if (articles.length)
    for (const r of await queryRows<ProductLookupRow>(
      tx,
      // The products without a 1C id first (a fence): given the equality on lower(article) directly, the
      // planner, with statistics an import has made stale, probed the trigram index once an article
      // (each probe rechecking thousands of rows: 2 s a step at 10 000 products on PostgreSQL).
      sql`with unmapped as materialized (
            select id, external_id, article, price_kopecks from products where external_id is null)
          select * from unmapped
          where lower(article) in (select jsonb_array_elements_text(${list(articles)}::jsonb))
          order by id`,
    )) {
      const key = r.article.toLowerCase();
      byArticle.set(key, [...(byArticle.get(key) ?? []), r]);
    }

  const owns = ctx.settings.owns;
  const updates: Record<string, unknown>[] = [];
  const inserts: { i: number; p: ProductRecord; row: Record<string, unknown> }[] = [];
  const ids = new Map<string, number>();
  for (const [i, p] of records.entries()) {
    let sectionId: number | null = null;
    for (const g of p.groups) {
      const s = sectionByExt.get(g);
      if (s !== undefined) {
        sectionId = s;
        break;
      }
    }
    if (p.groups.length > 0 && sectionId === null)
      ctx.warnings.push(`Товар ${p.id}: группа ${p.groups[0]} не найдена, товар в разделе «Из 1С»`);
    const { props, color } = productProperties(ctx, p);
    let row = productByExt.get(p.id);
    if (!row && p.article) {
      row = byArticle.get(p.article.toLowerCase())?.shift();
      if (row) ctx.warnings.push(`Товар ${p.id} сопоставлен с товаром сайта ${row.id} по артикулу ${p.article}`);
    }
    if (row) {
      const id = Number(row.id);
      ids.set(p.id, id);
      updates.push({
        id,
        ext: p.id,
        // null: the field stays as it is (1C does not own it, or sent nothing for it).
        name: owns.name ? p.name : null,
        description: owns.description && p.description ? p.description : null,
        article: p.article || null,
        section_id: sectionId,
        properties: props.length ? props : null,
        color_name: color,
        color_code: color ? slugify(color) || 'color' : null,
        active: !p.deleted && Number(row.price_kopecks) > 0,
      });
      bump(ctx.counts, p.deleted ? 'products_deactivated' : 'products_updated');
      continue;
    }
    inserts.push({
      i,
      p,
      row: {
        i,
        name: p.name,
        description: p.description,
        section_id: sectionId ?? (await fallbackSection()),
        color_name: color ?? '',
        color_code: color ? slugify(color) || 'color' : '',
        article: p.article,
        properties: props,
        ext: p.id,
      },
    });
  }
  if (updates.length > 0)
    await tx.execute(sql`
      update products p set external_id = v.ext, name = coalesce(v.name, p.name),
        description = coalesce(v.description, p.description), article = coalesce(v.article, p.article),
        section_id = coalesce(v.section_id, p.section_id), properties = coalesce(v.properties, p.properties),
        color_name = coalesce(v.color_name, p.color_name), color_code = coalesce(v.color_code, p.color_code),
        active = v.active
      from jsonb_to_recordset(${list(updates)}::jsonb) as v(id int, ext text, name text, description text, article text,
        section_id int, properties jsonb, color_name text, color_code text, active boolean)
      where p.id = v.id
        and (p.external_id, p.name, p.description, p.article, p.section_id, p.properties, p.color_name, p.color_code, p.active)
          is distinct from (v.ext, coalesce(v.name, p.name), coalesce(v.description, p.description),
            coalesce(v.article, p.article), coalesce(v.section_id, p.section_id), coalesce(v.properties, p.properties),
            coalesce(v.color_name, p.color_name), coalesce(v.color_code, p.color_code), v.active)`);

  // New products, without a price until offers.xml gives one (offers.xml puts them on sale).
  // Their address from name and article; one taken (by the site or by another of this step) tries -2, -3…
  let pending = inserts;
  for (let n = 1; n < 50 && pending.length > 0; n++) {
    const rows = pending.map(({ p, row }) => {
      const base = slugify([p.name, p.article].filter(Boolean).join(' ')) || 'tovar';
      return { ...row, slug: n === 1 ? base : `${base}-${n}` };
    });
    const made = await queryRows<{ id: number; external_id: string }>(
      tx,
      sql`insert into products (slug, name, description, section_id, kind, color_name, color_code, color_hex, group_key,
            price_kopecks, article, properties, active, external_id)
          select v.slug, v.name, v.description, v.section_id, 'other', v.color_name, v.color_code, '#cccccc', v.slug,
            0, v.article, v.properties, false, v.ext
          from jsonb_to_recordset(${list(rows)}::jsonb) as v(i int, slug text, name text, description text, section_id int,
            color_name text, color_code text, article text, properties jsonb, ext text)
          order by v.i
          on conflict do nothing
          returning id, external_id`,
    );
    for (const m of made) ids.set(m.external_id, Number(m.id));
    bump(ctx.counts, 'products_created', made.length);
    pending = pending.filter(({ p }) => !ids.has(p.id));
  }
  if (pending.length > 0) throw new ExchangeInputError(`Товар ${pending[0]!.p.id}: не удалось подобрать адрес товара`);

  for (const p of records)
    if (p.pictures.length > 0)
      await attachPictures(pictureContext(ctx), { id: ids.get(p.id)!, externalId: p.id, name: p.name }, p.pictures);
}

async function applyCatalogRecords(ctx: StepContext, records: (GroupRecord | ProductRecord)[]): Promise<void> {
  // A step holds groups or products (the file's groups come first, in steps of their own).
  await applyGroups(
    ctx,
    records.filter((r): r is GroupRecord => r.t === 'group'),
  );
  const goods = records.filter((r): r is ProductRecord => r.t === 'product');
  if (goods.length > 0) await applyProducts(ctx, goods);
}

// --- offers (offers.xml) -------------------------------------------------------------------------

function sizeOf(ctx: StepContext, o: OfferRecord): { size: string; sizeType: 'clothes' | 'shoes' | 'none' } {
  const entries = Object.entries(o.chars);
  if (entries.length === 0) return { size: 'Единый', sizeType: 'none' };
  const wanted = ctx.settings.sizeCharacteristic.toLowerCase();
  const size = entries.find(([k]) => k.toLowerCase() === wanted)?.[1] ?? entries.map(([, v]) => v).join(' / ');
  return { size: size || 'Единый', sizeType: size ? 'clothes' : 'none' };
}

/**
 * Units of each offer in site orders 1C has not acknowledged yet (orders since the exchange began,
 * not cancelled, not in a confirmed export): 1C's quantity does not count them out yet.
 */
async function unacknowledgedUnits(tx: Database, offerIds: number[]): Promise<Map<number, number>> {
  if (offerIds.length === 0) return new Map();
  const rows = await queryRows<{ offer_id: number; units: number }>(
    tx,
    sql`select i.offer_id, sum(i.quantity - coalesce(i.refused_quantity, 0) - i.returned_quantity)::int as units
        from order_items i join orders o on o.id = i.order_id
        where i.offer_id in (select jsonb_array_elements_text(${JSON.stringify(offerIds)}::jsonb)::int)
          and not i.is_preorder and o.status <> 'cancelled' and o.exchange_confirmed_at is null
          and o.created_at >= (select coalesce(min(created_at), now()) from exchange_sessions)
        group by i.offer_id`,
  );
  return new Map(rows.map((r) => [r.offer_id, Math.max(0, r.units)]));
}

/**
 * offers.xml: a step's offers in a few queries, not a few per offer (bench:1c): the products and
 * the offers of the step by 1C id at once, the site's offers without a 1C id of those products
 * (a lost mapping: matched by size), then one update (of the rows that change) and one insert for
 * all; the stock of the whole step in one move of the ledger. An Ид twice in one step: the step is
 * applied in parts, so the second sees what the first wrote (its price and quantity win).
 */
async function applyOfferRecords(ctx: StepContext, records: OfferRecord[]): Promise<void> {
  if (ctx.meta.kind === 'prices' || ctx.meta.kind === 'rests') return applyPartialOffers(ctx, records);
  const touchedProducts = new Set<number>();
  const quantities = new Map<number, number>();
  for (const part of rounds(records)) await applyOfferRound(ctx, part, touchedProducts, quantities);
  await setStockAndPrices(ctx, quantities, touchedProducts);
}

async function applyOfferRound(
  ctx: StepContext,
  records: OfferRecord[],
  touchedProducts: Set<number>,
  quantities: Map<number, number>,
): Promise<void> {
  const { tx } = ctx;
  const types = pickPriceTypes(ctx.meta.priceTypes, ctx.settings);
  const list = (values: unknown[]) => JSON.stringify(values);
  const productRows = await queryRows<{ id: number; external_id: string }>(
    tx,
    sql`select id, external_id from products
        where external_id in (select jsonb_array_elements_text(${list([...new Set(records.map((o) => o.productId))])}::jsonb))`,
  );
  const productByExt = new Map(productRows.map((r) => [r.external_id, Number(r.id)]));
  const offerRows = await queryRows<{ id: number; external_id: string; product_id: number }>(
    tx,
    sql`select id, external_id, product_id from offers
        where external_id in (select jsonb_array_elements_text(${list(records.map((o) => o.id))}::jsonb))`,
  );
  const offerByExt = new Map(offerRows.map((r) => [r.external_id, Number(r.id)]));
  const productOfOffer = new Map(offerRows.map((r) => [Number(r.id), Number(r.product_id)]));
  const unmatched = records.filter((o) => !offerByExt.has(o.id));
  const siteOffers = unmatched.length
    ? await queryRows<{ id: number; product_id: number; size: string }>(
        tx,
        sql`select id, product_id, size from offers where external_id is null
            and product_id in (select jsonb_array_elements_text(${list([
              ...new Set(unmatched.map((o) => productByExt.get(o.productId)).filter((id) => id !== undefined)),
            ])}::jsonb)::int)
            order by id`,
      )
    : [];
  const siteByKey = new Map<string, number>();
  for (const r of siteOffers) {
    const key = `${r.product_id}\u0000${r.size}`;
    if (!siteByKey.has(key)) siteByKey.set(key, Number(r.id));
  }

  const updates: {
    id: number;
    product_id: number;
    ext: string;
    price: number | null;
    old: number | null;
    set_price: boolean;
  }[] = [];
  const inserts: {
    i: number;
    product_id: number;
    size_type: string;
    size: string;
    price: number;
    old: number | null;
    ext: string;
  }[] = [];
  for (const o of records) {
    const productId = productByExt.get(o.productId);
    if (productId === undefined) throw new ExchangeInputError(`Предложение ${o.id}: товар ${o.productId} не найден`);
    const { size, sizeType } = sizeOf(ctx, o);
    const sale = types.sale ? o.prices[types.sale] : undefined;
    const oldRaw = types.old ? o.prices[types.old] : undefined;
    const old = sale !== undefined && oldRaw !== undefined && oldRaw > sale ? oldRaw : null;
    let id = offerByExt.get(o.id);
    if (id === undefined) {
      const key = `${productId}\u0000${size}`;
      id = siteByKey.get(key);
      if (id !== undefined) {
        siteByKey.delete(key);
        offerByExt.set(o.id, id);
        ctx.warnings.push(`Предложение ${o.id} сопоставлено с размером ${size} товара сайта ${productId}`);
      }
    }
    if (id !== undefined) {
      const setPrice = ctx.settings.owns.prices && sale !== undefined;
      // A stock-only offer already in place needs no row write here (its stock goes through the ledger).
      if (setPrice || productOfOffer.get(id) !== productId)
        updates.push({ id, product_id: productId, ext: o.id, price: sale ?? null, old, set_price: setPrice });
      bump(ctx.counts, 'offers_updated');
    } else
      inserts.push({
        i: inserts.length,
        product_id: productId,
        size_type: sizeType,
        size,
        price: sale ?? 0,
        old,
        ext: o.id,
      });
    // The product's price is recomputed only where a price came (or an offer was made): not for stock alone.
    if (sale !== undefined || id === undefined) touchedProducts.add(productId);
  }
  // Rows that would not change are not written (a full package sends every price again).
  if (updates.length > 0)
    await tx.execute(sql`
      update offers set external_id = v.ext, product_id = v.product_id,
        price_kopecks = case when v.set_price then v.price else offers.price_kopecks end,
        old_price_kopecks = case when v.set_price then v.old else offers.old_price_kopecks end
      from jsonb_to_recordset(${list(updates)}::jsonb)
        as v(id int, product_id int, ext text, price int, old int, set_price boolean)
      where offers.id = v.id
        and (offers.external_id, offers.product_id, offers.price_kopecks, offers.old_price_kopecks) is distinct from
          (v.ext, v.product_id, case when v.set_price then v.price else offers.price_kopecks end,
            case when v.set_price then v.old else offers.old_price_kopecks end)`);
  if (inserts.length > 0) {
    const made = await queryRows<{ id: number; external_id: string }>(
      tx,
      sql`insert into offers (product_id, size_type, size, price_kopecks, old_price_kopecks, external_id)
          select v.product_id, v.size_type, v.size, v.price, v.old, v.ext
          from jsonb_to_recordset(${list(inserts)}::jsonb)
            as v(i int, product_id int, size_type text, size text, price int, old int, ext text)
          order by v.i
          on conflict do nothing
          returning id, external_id`,
    );
    for (const m of made) offerByExt.set(m.external_id, Number(m.id));
    const lost = inserts.find((i) => !offerByExt.has(i.ext));
    if (lost) {
      const productExt = records.find((o) => o.id === lost.ext)!.productId;
      throw new ExchangeInputError(`Предложение ${lost.ext}: у товара ${productExt} уже есть размер ${lost.size}`);
    }
    bump(ctx.counts, 'offers_created', made.length);
  }
  for (const o of records) if (o.quantity !== null) quantities.set(offerByExt.get(o.id)!, o.quantity);
}

/**
 * prices.xml / rests.xml: each offer is one the shop has (checked before the first step); its
 * prices (prices.xml) or its stock (rests.xml) are set, nothing else of it changes. The step's
 * offers read in one query, the prices written in one statement, the stock in one move.
 */
async function applyPartialOffers(ctx: StepContext, records: OfferRecord[]): Promise<void> {
  const { tx } = ctx;
  const types = pickPriceTypes(ctx.meta.priceTypes, ctx.settings);
  const found = await queryRows<{ id: number; external_id: string; product_id: number }>(
    tx,
    sql`select id, external_id, product_id from offers
        where external_id in (select jsonb_array_elements_text(${JSON.stringify(records.map((o) => o.id))}::jsonb))`,
  );
  const byExt = new Map(found.map((r) => [r.external_id, { id: Number(r.id), productId: Number(r.product_id) }]));
  const touchedProducts = new Set<number>();
  const quantities = new Map<number, number>();
  // By offer: the same offer twice in a step, the later price wins (as applied one after the other).
  const prices = new Map<number, { id: number; price: number; old: number | null }>();
  for (const o of records) {
    const offer = byExt.get(o.id);
    if (!offer) throw new ExchangeInputError(`Предложение ${o.id} не найдено на сайте`);
    const sale = types.sale ? o.prices[types.sale] : undefined;
    if (ctx.meta.kind === 'prices' && sale !== undefined && ctx.settings.owns.prices) {
      const oldRaw = types.old ? o.prices[types.old] : undefined;
      const old = oldRaw !== undefined && oldRaw > sale ? oldRaw : null;
      prices.set(offer.id, { id: offer.id, price: sale, old });
      bump(ctx.counts, 'offers_updated');
      touchedProducts.add(offer.productId);
    }
    if (ctx.meta.kind === 'rests' && o.quantity !== null) quantities.set(offer.id, o.quantity);
  }
  if (prices.size > 0)
    await tx.execute(sql`
      update offers set price_kopecks = v.price, old_price_kopecks = v.old
      from jsonb_to_recordset(${JSON.stringify([...prices.values()])}::jsonb) as v(id int, price int, old int)
      where offers.id = v.id and (offers.price_kopecks, offers.old_price_kopecks) is distinct from (v.price, v.old)`);
  await setStockAndPrices(ctx, quantities, touchedProducts);
}

/**
 * Stock set to 1C's quantities (offer id → quantity) less unacknowledged order units, in one move
 * of the ledger that writes only the offers whose quantity changes; then the touched products' prices.
 */
async function setStockAndPrices(
  ctx: StepContext,
  quantities: Map<number, number>,
  touchedProducts: Set<number>,
): Promise<void> {
  const { tx } = ctx;
  if (quantities.size > 0) {
    const held = await unacknowledgedUnits(tx, [...quantities.keys()]);
    const lines: StockLine[] = [...quantities].map(([offerId, quantity]) => ({
      offerId,
      setTo: Math.max(0, quantity - (held.get(offerId) ?? 0)),
    }));
    const moved = await moveStock(tx, {
      lines,
      reason: 'import',
      actor: { kind: 'staff', id: ctx.staffId },
      ref: { importId: ctx.importId },
      short: 'clamp',
      // 1C sends every quantity again; an unchanged one is no move (and its offer is not locked).
      unchanged: 'skip',
    });
    if (!moved.ok) throw new ExchangeInputError(`остатки не записаны: предложения ${moved.missing.join(', ')}`);
    bump(ctx.counts, 'stock_changed', moved.changes.filter((c) => c.previous !== c.quantity).length);
    ctx.notices.push(...moved.notices);
  }

  // The product's price is its cheapest priced offer's (and that offer's old price); a priced product is on sale.
  if (touchedProducts.size > 0)
    await tx.execute(sql`
      update products p set price_kopecks = c.price, old_price_kopecks = c.old, active = true
      from (
        select distinct on (product_id) product_id, price_kopecks as price,
          case when old_price_kopecks > price_kopecks then old_price_kopecks end as old
        from offers
        where product_id in (select jsonb_array_elements_text(${JSON.stringify([...touchedProducts])}::jsonb)::int)
          and price_kopecks > 0
        order by product_id, price_kopecks, id
      ) c
      where p.id = c.product_id
        and (p.price_kopecks, p.old_price_kopecks, p.active) is distinct from (c.price, c.old, true)`);
}

// ---------------------------------------------------------------------------------------------
// Orders (type=sale)

function moscowParts(d: Date): { date: string; time: string } {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Moscow',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(d);
  const get = (t: string) => f.find((p) => p.type === t)?.value ?? '00';
  return {
    date: `${get('year')}-${get('month')}-${get('day')}`,
    time: `${get('hour')}:${get('minute')}:${get('second')}`,
  };
}

const DELIVERY_NAMES: Record<string, string> = {
  [DELIVERY_ID.moscowCourier]: 'Доставка курьером по Москве',
  [DELIVERY_ID.cdekPickup]: 'Доставка СДЭК до пункта выдачи',
  [DELIVERY_ID.cdekDoor]: 'Доставка СДЭК курьером',
  [DELIVERY_ID.world]: 'Доставка по договорённости',
  [DELIVERY_ID.email]: 'Доставка по электронной почте',
};
const PAYMENT_NAMES: Record<string, string> = {
  [PAYMENT_ID.onReceipt]: 'Оплата при получении',
  [PAYMENT_ID.cardOnline]: 'Банковская карта онлайн',
  [PAYMENT_ID.dolyami]: 'Долями',
  [PAYMENT_ID.yandexSplit]: 'Яндекс Сплит',
};

interface OrderRow {
  id: number;
  status: string;
  phone: string;
  customer_name: string;
  customer_id: number | null;
  first_name: string | null;
  last_name: string | null;
  email: string;
  fields: Record<string, string>;
  total_kopecks: number;
  paid_kopecks: number | null;
  delivery_cost_kopecks: number;
  delivery_id: string | null;
  delivery_city: string;
  delivery_address: string;
  payment_id: string;
  paid_at: string | null;
  certificate_kopecks: number;
  bonus_kopecks: number;
  created_at: string;
}

interface ItemRow {
  order_id: number;
  offer_id: number;
  title: string;
  size: string;
  price_kopecks: number;
  quantity: number;
  kept_quantity: number | null;
  discount_kopecks: number;
  bonus_kopecks: number;
  offer_external_id: string | null;
  product_external_id: string | null;
}

/** The orders of one export as CommerceML's documents (kept lines after a fitting; delivery as its own line). */
async function exportOrders(db: Database, ids: number[]): Promise<ExportOrder[]> {
  if (ids.length === 0) return [];
  const idList = JSON.stringify(ids);
  const rows = await queryRows<OrderRow>(
    db,
    sql`select o.id, o.status, o.phone, o.customer_name, o.customer_id, c.first_name, c.last_name, o.email, o.fields,
          o.total_kopecks, o.paid_kopecks, o.delivery_cost_kopecks, o.delivery_id, o.delivery_city, o.delivery_address,
          o.payment_id, o.paid_at, o.certificate_kopecks, o.bonus_kopecks, o.created_at
        from orders o left join customers c on c.id = o.customer_id
        where o.id in (select jsonb_array_elements_text(${idList}::jsonb)::int) order by o.id`,
  );
  const items = await queryRows<ItemRow>(
    db,
    sql`select i.order_id, i.offer_id, i.title, i.size, i.price_kopecks, i.quantity, i.kept_quantity, i.discount_kopecks,
          i.bonus_kopecks, f.external_id as offer_external_id, p.external_id as product_external_id
        from order_items i join offers f on f.id = i.offer_id join products p on p.id = f.product_id
        where i.order_id in (select jsonb_array_elements_text(${idList}::jsonb)::int) order by i.order_id, i.offer_id`,
  );
  return rows.map((o) => {
    const lines = items
      .filter((i) => i.order_id === o.id)
      .map((i) => {
        const quantity = i.kept_quantity ?? i.quantity;
        const share = (k: number) => Math.round((k * quantity) / i.quantity);
        const discount = share(i.discount_kopecks) + share(i.bonus_kopecks);
        return {
          externalId: exportLineId(i.offer_external_id, i.product_external_id, i.offer_id),
          name: `${i.title}${i.size ? `, ${i.size}` : ''}`,
          priceKopecks: i.price_kopecks,
          quantity,
          sumKopecks: i.price_kopecks * quantity - discount,
          discountKopecks: discount,
        };
      })
      .filter((l) => l.quantity > 0);
    const fitted = items.some((i) => i.order_id === o.id && i.kept_quantity !== null);
    const { date, time } = moscowParts(new Date(o.created_at));
    const [first, ...rest] = o.customer_name.trim().split(/\s+/);
    return {
      id: o.id,
      number: String(o.id),
      date,
      time,
      totalKopecks: fitted && o.paid_kopecks !== null ? o.paid_kopecks : o.total_kopecks,
      comment: o.fields.comment ?? '',
      status: isOrderStatus(o.status) ? ORDER_STATUS_LABELS[o.status] : o.status,
      paymentMethod: PAYMENT_NAMES[o.payment_id] ?? o.payment_id,
      paid: o.paid_at !== null,
      paidAt: o.paid_at ? new Date(o.paid_at).toISOString() : null,
      cancelled: o.status === 'cancelled',
      final: o.status === 'cancelled' || o.status === 'received',
      deliveryName: o.delivery_id ? (DELIVERY_NAMES[o.delivery_id] ?? `Доставка (${o.delivery_id})`) : '',
      deliveryKopecks: o.delivery_cost_kopecks,
      deliveryAddress: o.delivery_address.startsWith(o.delivery_city)
        ? o.delivery_address
        : [o.delivery_city, o.delivery_address].filter(Boolean).join(', '),
      certificateKopecks: o.certificate_kopecks,
      bonusKopecks: o.bonus_kopecks,
      customer: {
        id: o.customer_id !== null ? `site-customer-${o.customer_id}` : `site-phone-${o.phone}`,
        firstName: o.first_name || first || '',
        lastName: o.last_name || rest.join(' '),
        phone: o.phone ? `+${o.phone}` : '',
        email: o.email,
      },
      lines,
    };
  });
}

/**
 * mode=query: the orders created or changed (status, payment) since the last confirmed export,
 * up to now less a few seconds (an order still committing is left for the next export), as one
 * CommerceML package. The export is recorded; only mode=success confirms it.
 */
export async function saleQuery({ db, session }: { db: Database; session: ExchangeSession }): Promise<string> {
  const [mark] = await queryRows<{ since: string | null; until: string; start: string }>(
    db,
    sql`select (select max(until) from exchange_sale_exports where confirmed_at is not null and reset_at is null) as since,
               now() - interval '3 seconds' as until,
               (select min(created_at) from exchange_sessions) as start`,
  );
  const since = mark!.since ?? mark!.start;
  const ids = await queryRows<{ id: number }>(
    db,
    sql`select o.id from orders o
        where o.created_at >= ${mark!.start}::timestamptz
          and greatest(o.created_at, coalesce(o.paid_at, o.created_at),
                coalesce((select max(h.created_at) from order_status_history h where h.order_id = o.id), o.created_at))
              between ${since}::timestamptz and ${mark!.until}::timestamptz
        order by o.id`,
  );
  const orderIds = ids.map((r) => r.id);
  await db.insert(exchangeSaleExports).values({
    sessionId: session.id,
    since: new Date(since),
    until: new Date(mark!.until),
    orderIds,
  });
  return ordersPackage(await exportOrders(db, orderIds), new Date(mark!.until).toISOString().slice(0, 19));
}

/** mode=success: 1C got the session's last export; its orders are acknowledged and the mark moves. */
export async function saleSuccess({ db, session }: { db: Database; session: ExchangeSession }): Promise<number> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    const [last] = await tx
      .select()
      .from(exchangeSaleExports)
      .where(and(eq(exchangeSaleExports.sessionId, session.id), isNull(exchangeSaleExports.confirmedAt)))
      .orderBy(desc(exchangeSaleExports.id))
      .limit(1)
      .for('update');
    if (!last) return 0;
    await tx
      .update(exchangeSaleExports)
      .set({ confirmedAt: sql`now()` })
      .where(eq(exchangeSaleExports.id, last.id));
    if (last.orderIds.length > 0)
      await tx.execute(
        sql`update orders set exchange_confirmed_at = now()
            where exchange_confirmed_at is null and id in (select jsonb_array_elements_text(${JSON.stringify(last.orderIds)}::jsonb)::int)`,
      );
    return last.orderIds.length;
  });
}
