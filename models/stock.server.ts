import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { queryPrepared, queryRows, type Database } from '~/db/client.server';
import { offers, products, waitingList } from '~/db/schema';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import { sizeFilterId, sizeLabel, type SizeType } from '~/core/sizes';
import { backInStockText } from '~/core/waiting-list';
import {
  planStockMoves,
  STAFF_TOKEN_ACTOR,
  type ShortPolicy,
  type StockActor,
  type StockLine,
  type StockReason,
} from '~/core/stock-ledger';
import type { SmsGateway } from '~/integrations/sms/sms';
import { loadSections, productUrl } from './sections.server';

// The stock ledger: moveStock is the one function that changes an offer's quantity (orders
// taking and giving back stock, the fitting, staff, later the back office and the 1C exchange).
// In the caller's transaction and under the offers' row locks it sets the quantities and writes
// one stock_moves row per offer (delta, quantity after, reason, reference, who), so a quantity
// is always the sum of its offer's moves (verifyStockLedger; tests/unit/stock-writes.test.ts
// keeps every other quantity write out of the code). When an offer goes from none to some,
// everyone waiting for it is marked notified in the same transaction; sendBackInStock sends
// them one SMS after the caller commits. changeStockIn is a staff script's change of one offer.

/** Keeps products.sizes (the listing's size facet) in step with what can be ordered now. */
export async function refreshProductSizes({ db, productId }: { db: Database; productId: number }): Promise<void> {
  const rows = await db
    .select({ sizeType: offers.sizeType, size: offers.size, quantity: offers.quantity, preorder: offers.preorder })
    .from(offers)
    .where(eq(offers.productId, productId));
  const sizes = [
    ...new Set(
      rows.filter((o) => o.quantity > 0 || o.preorder).map((o) => sizeFilterId(o.sizeType as SizeType, o.size)),
    ),
  ];
  await db.update(products).set({ sizes }).where(eq(products.id, productId));
}

/**
 * refreshProductSizes for many products in two queries (a 1C stock package flips hundreds of
 * products a step: one query a product was most of its time, bench:1c).
 */
export async function refreshProductsSizes(db: Database, productIds: number[]): Promise<void> {
  if (productIds.length === 0) return;
  const rows = await queryRows<{ product_id: number; size_type: string; size: string }>(
    db,
    sql`select product_id, size_type, size from offers
        where product_id in (select jsonb_array_elements_text(${JSON.stringify(productIds)}::jsonb)::int)
          and (quantity > 0 or preorder)
        order by product_id, id`,
  );
  const sizes = new Map<number, Set<string>>(productIds.map((id) => [id, new Set()]));
  for (const o of rows) sizes.get(Number(o.product_id))?.add(sizeFilterId(o.size_type as SizeType, o.size));
  const values = [...sizes].sort(([a], [b]) => a - b).map(([id, s]) => ({ id, sizes: [...s] }));
  await db.execute(
    sql`update products set sizes = v.list
        from (select id, array(select jsonb_array_elements_text(sizes)) as list
              from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as x(id int, sizes jsonb)) as v
        where products.id = v.id and products.sizes is distinct from v.list`,
  );
}

export interface StockChange {
  offerId: number;
  previous: number;
  quantity: number;
  /** Waiting-list entries told that the size is back (SMS sent or attempted). */
  notified: number;
}

export interface Logger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Who is told, after the commit, that a size is back. */
export interface BackInStockNotice {
  offerId: number;
  size: string;
  product: { name: string; slug: string; sectionId: number } | undefined;
  /** The entries told now (id: the waiting-list row, the SMS's idempotency key). */
  waiting: { id: number; phone: string; name: string }[];
}

/** What a stock move belongs to (nullable typed references of stock_moves). */
export interface StockRef {
  orderId?: number | null;
  returnRequestId?: number | null;
  importId?: number | null;
}

export interface MoveStockInput {
  /** The offers and how each moves (several lines of one offer are summed). */
  lines: readonly StockLine[];
  reason: StockReason;
  actor: StockActor;
  ref?: StockRef;
  note?: string | null;
  /** A take larger than the stock: refuse the whole move (the default) or clamp at zero. */
  short?: ShortPolicy;
  /**
   * An offer whose quantity does not change: a move of zero is recorded (the default: a count
   * records what was counted), or `skip`ped: no ledger row; with only `setTo` lines such an offer
   * is not even locked (a 1C stock package names every offer, most of them unchanged), and an
   * unknown offer is skipped too, whatever `short` says.
   */
  unchanged?: 'record' | 'skip';
  now?: Date;
}

export type MoveStockResult =
  /** `notices`: the back-in-stock SMS due once the caller commits (sendBackInStock). */
  | { ok: true; changes: StockChange[]; notices: BackInStockNotice[] }
  /** Nothing was written. `short`: offers without enough stock; `missing`: unknown offers. */
  | { ok: false; short: number[]; missing: number[] };

interface LockedOffer {
  id: number;
  quantity: number;
  product_id: number;
}

/**
 * The offers of `lines` locked in offer-id order (one statement, so two changes never deadlock on
 * offers) with their quantities. Under `unchanged: 'skip'` with only `setTo` lines, only the offers
 * whose quantity differs from the one set (PostgreSQL re-checks that on a row another transaction
 * just changed, before it locks it).
 */
async function lockOffers(
  tx: Database,
  input: MoveStockInput,
  offerIds: number[],
  sets: boolean,
): Promise<LockedOffer[]> {
  if (sets) {
    const targets = new Map<number, number>();
    for (const l of input.lines)
      if ('setTo' in l) {
        // Checked here as the plan checks it: a bad target must not vanish by not being locked.
        if (!Number.isInteger(l.setTo) || l.setTo < 0)
          throw new Error(`stock: bad quantity ${l.setTo} for offer ${l.offerId}`);
        if (targets.has(l.offerId)) throw new Error(`stock: offer ${l.offerId} both set and moved in one change`);
        targets.set(l.offerId, l.setTo);
      }
    return queryPrepared<LockedOffer>(
      tx,
      sql`select o.id, o.quantity, o.product_id from offers o
          join jsonb_to_recordset(${JSON.stringify([...targets].map(([id, q]) => ({ id, q })))}::jsonb) as v(id int, q int)
            on v.id = o.id
          where o.quantity <> v.q
          order by o.id for no key update of o`,
    );
  }
  return queryPrepared<LockedOffer>(
    tx,
    sql`select id, quantity, product_id from offers
        where id in (select jsonb_array_elements_text(${JSON.stringify(offerIds)}::jsonb)::int)
        order by id for no key update`,
  );
}

/**
 * The one stock change, inside the caller's transaction (`tx`): the offers locked in offer-id
 * order (one statement, so two changes never deadlock on offers), the moves planned from the
 * locked quantities (core/stock-ledger.ts), the quantities set and the ledger rows written. Then,
 * once every offer is locked, the waiting lists of offers back from zero are marked notified,
 * and the listing's size facet of products whose availability changed is refreshed (product
 * rows and the catalogue version after all offer rows, in every caller). Call it once per
 * transaction and reason with all the lines; the caller sends the notices after it commits,
 * never before (a rollback must not have told anyone). Each statement takes its rows as one
 * JSON parameter, whatever their number (a 1C package moves 100 000 offers).
 *
 * The lock is `for no key update`, what the quantity's own update takes: it orders every stock
 * change of an offer, yet does not wait for the key-share locks that rows referencing the offer
 * hold (an order's items, written before its stock is taken so the offer is locked last). With
 * `for update`, two orders of one size, each holding its items' key-share lock, would deadlock.
 */
export async function moveStock(tx: Database, input: MoveStockInput): Promise<MoveStockResult> {
  const offerIds = [...new Set(input.lines.map((l) => l.offerId))];
  if (offerIds.length === 0) return { ok: true, changes: [], notices: [] };
  const skip = input.unchanged === 'skip';
  // Only quantities set, unchanged ones skipped: only the offers that change are locked and planned.
  const sets = skip && input.lines.every((l) => 'setTo' in l);
  const locked = (await lockOffers(tx, input, offerIds, sets)).map((o) => ({
    id: Number(o.id),
    quantity: Number(o.quantity),
    productId: Number(o.product_id),
  }));
  const lockedIds = new Set(locked.map((o) => o.id));
  const plan = planStockMoves(
    new Map(locked.map((o) => [o.id, o.quantity])),
    sets ? input.lines.filter((l) => lockedIds.has(l.offerId)) : input.lines,
    input.short ?? 'refuse',
  );
  if (!plan.ok) return plan;
  const moves = skip ? plan.moves.filter((m) => m.delta !== 0) : plan.moves;
  if (moves.length === 0) return { ok: true, changes: [], notices: [] };

  // The quantities set and the ledger rows written in one statement, the moves as one JSON
  // parameter (a 1C package moves 100 000 offers: no limit on parameters to mind).
  const ref = input.ref ?? {};
  await queryPrepared(
    tx,
    sql`with v as (
          select * from jsonb_to_recordset(${JSON.stringify(moves.map((m) => ({ o: m.offerId, d: m.delta, a: m.quantityAfter })))}::jsonb)
            as v(o int, d int, a int)
        ), changed as (
          update offers set quantity = v.a from v where offers.id = v.o and v.d <> 0
        )
        insert into stock_moves (offer_id, delta, quantity_after, reason, order_id, return_request_id, import_id,
                                 actor_kind, actor_id, note, created_at)
        select v.o, v.d, v.a, ${input.reason}::text, ${ref.orderId ?? null}::int, ${ref.returnRequestId ?? null}::int,
               ${ref.importId ?? null}::int, ${input.actor.kind}::text, ${input.actor.kind === 'system' ? null : input.actor.id}::int,
               ${input.note ?? null}::text, coalesce(${input.now?.toISOString() ?? null}::timestamptz, now())
        from v order by v.o`,
  );

  const back = moves.filter((m) => m.previous <= 0 && m.quantityAfter > 0).map((m) => m.offerId);
  const waiting = back.length
    ? await tx
        .update(waitingList)
        .set({ notifiedAt: sql`now()` })
        .where(
          and(
            sql`${waitingList.offerId} in (select jsonb_array_elements_text(${JSON.stringify(back)}::jsonb)::int)`,
            isNull(waitingList.notifiedAt),
          ),
        )
        .returning({
          id: waitingList.id,
          offerId: waitingList.offerId,
          phone: waitingList.phone,
          name: waitingList.name,
        })
    : [];

  const productOf = new Map(locked.map((o) => [o.id, o.productId]));
  const flipped = [
    ...new Set(
      moves.filter((m) => m.previous > 0 !== m.quantityAfter > 0).map((m) => productOf.get(m.offerId) as number),
    ),
  ];
  if (flipped.length > 0) {
    // A size that sold out leaves the listing's size facet; one back in stock returns to it.
    await refreshProductsSizes(tx, flipped);
    await bumpCatalogVersion(tx);
  }

  const waitingOf = new Map<number, number>();
  for (const w of waiting) waitingOf.set(w.offerId, (waitingOf.get(w.offerId) ?? 0) + 1);
  const changes = moves.map((m) => ({
    offerId: m.offerId,
    previous: m.previous,
    quantity: m.quantityAfter,
    notified: waitingOf.get(m.offerId) ?? 0,
  }));
  return { ok: true, changes, notices: await backInStockNotices(tx, waiting) };
}

/** The notices for the waiting-list entries just marked notified, one per offer. */
async function backInStockNotices(
  tx: Database,
  waiting: { id: number; offerId: number; phone: string; name: string }[],
): Promise<BackInStockNotice[]> {
  if (waiting.length === 0) return [];
  const offerIds = [...new Set(waiting.map((w) => w.offerId))].sort((a, b) => a - b);
  const rows = await tx
    .select({
      offerId: offers.id,
      sizeType: offers.sizeType,
      size: offers.size,
      intlSize: offers.intlSize,
      name: products.name,
      slug: products.slug,
      sectionId: products.sectionId,
    })
    .from(offers)
    .innerJoin(products, eq(products.id, offers.productId))
    .where(inArray(offers.id, offerIds));
  const byOffer = new Map(rows.map((r) => [r.offerId, r]));
  return offerIds.map((offerId) => {
    const row = byOffer.get(offerId);
    return {
      offerId,
      size: row ? sizeLabel(row.sizeType as SizeType, row.size, row.intlSize) : '',
      product: row ? { name: row.name, slug: row.slug, sectionId: row.sectionId } : undefined,
      waiting: waiting.filter((w) => w.offerId === offerId).map(({ id, phone, name }) => ({ id, phone, name })),
    };
  });
}

/** Sends the back-in-stock SMS of committed stock changes. Failures are logged, not thrown. */
export async function sendBackInStock({
  db,
  sms,
  log,
  siteUrl,
  notices,
}: {
  db: Database;
  sms: SmsGateway;
  log: Logger;
  siteUrl: string;
  notices: readonly (BackInStockNotice | null)[];
}): Promise<void> {
  for (const notice of notices) {
    if (!notice) continue;
    const { offerId, product, size, waiting } = notice;
    const url = `${siteUrl}${product ? productUrl(product, await loadSections(db)) : '/catalog/'}?offer=${offerId}`;
    for (const entry of waiting) {
      try {
        // Its own key per waiting-list entry: one release or stock change may tell one phone of several sizes.
        await sms.send({
          phone: entry.phone,
          text: backInStockText({ size, productName: product?.name ?? '', url }),
          tag: 'back-in-stock',
          idempotencyKey: `back-in-stock:waiting=${entry.id}`,
        });
      } catch (err) {
        log.error({ err, offerId }, 'back-in-stock SMS failed');
      }
    }
    log.info({ offerId, notified: waiting.length }, 'waiting list notified');
  }
}

/**
 * A staff script's change of one offer (`npm run stock`), in the caller's transaction (which
 * also writes its audit row: api/staff/script-audit.server.ts): `set` it to a counted quantity
 * (reason 'count'), or move it by `delta` (reason 'staff_adjustment', never below zero). Returns
 * null for an unknown offer; otherwise the change and the back-in-stock notices the caller sends
 * after its commit (sendBackInStock).
 */
export async function changeStockIn(
  tx: Database,
  {
    offerId,
    set,
    delta,
    actor = STAFF_TOKEN_ACTOR,
    note = null,
  }: { offerId: number; set?: number; delta?: number; actor?: StockActor; note?: string | null },
): Promise<{ change: StockChange; notices: BackInStockNotice[] } | null> {
  const line: StockLine = set !== undefined ? { offerId, setTo: set } : { offerId, delta: delta ?? 0 };
  const moved = await moveStock(tx, {
    lines: [line],
    reason: set !== undefined ? 'count' : 'staff_adjustment',
    actor,
    note,
    short: 'clamp',
  });
  const change = moved.ok ? moved.changes[0] : undefined;
  if (!moved.ok || !change) return null;
  return { change, notices: moved.notices };
}

export interface StockLedgerMismatch {
  offerId: number;
  quantity: number;
  /** The sum of the offer's moves (its opening 'seed' move included). */
  movesSum: number;
  /** The first move whose quantity_after is not the one before it plus its delta (null: the chain holds). */
  brokenMoveId: number | null;
}

export interface StockLedgerCheck {
  offers: number;
  moves: number;
  /** Offers whose quantity the ledger does not explain (at most 100, by offer id). */
  mismatches: StockLedgerMismatch[];
}

/**
 * The ledger check (`npm run stock -- --verify`, and every API test file's shop at its end): for
 * every offer, the sum of its moves equals its quantity, and each move's quantity_after is the
 * previous one plus its delta. One statement, so it reads one snapshot while orders go on.
 */
export async function verifyStockLedger({ db }: { db: Database }): Promise<StockLedgerCheck> {
  const rows = await queryRows<{
    id: number | null;
    quantity: number;
    moved: number;
    broken: number | null;
    offers: number;
    moves: number;
  }>(
    db,
    sql`with chain as (
          select offer_id, id, delta,
                 quantity_after <> coalesce(lag(quantity_after) over (partition by offer_id order by id), 0) + delta as broken
          from stock_moves
        ),
        per_offer as (
          select offer_id, sum(delta)::int as moved, count(*)::int as moves, min(id) filter (where broken) as broken
          from chain group by offer_id
        ),
        checked as (
          select o.id, o.quantity, coalesce(p.moved, 0) as moved, p.broken, coalesce(p.moves, 0) as moves
          from offers o left join per_offer p on p.offer_id = o.id
        ),
        totals as (select count(*)::int as offers, sum(moves)::int as moves from checked),
        bad as (select * from checked where quantity <> moved or broken is not null order by id limit 100)
        select bad.id, bad.quantity, bad.moved, bad.broken, totals.offers, coalesce(totals.moves, 0) as moves
        from totals left join bad on true
        order by bad.id`,
  );
  const first = rows[0];
  return {
    offers: Number(first?.offers ?? 0),
    moves: Number(first?.moves ?? 0),
    mismatches: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        offerId: Number(r.id),
        quantity: Number(r.quantity),
        movesSum: Number(r.moved),
        brokenMoveId: r.broken === null ? null : Number(r.broken),
      })),
  };
}
