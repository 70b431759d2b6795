import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers, products, waitingList } from '~/db/schema';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import { sizeFilterId, sizeLabel, type SizeType } from '~/core/sizes';
import { backInStockText } from '~/core/waiting-list';
import type { SmsGateway } from '~/integrations/sms/sms';
import { loadSections, productUrl } from './sections.server';

// The one function that changes stock outside orders (staff, later the back office and the 1C
// exchange, cancelled orders and refused items coming back). When an offer goes from none to
// some, everyone waiting for it is marked notified in the same transaction and gets one SMS
// after the commit. changeStock runs in a transaction of its own; changeStockInTransaction is the
// same change inside a caller's transaction, with sendBackInStock after the caller commits.

/** Keeps products.sizes (the listing's size facet) in step with what can be ordered now. */
export async function refreshProductSizes({ db, productId }: { db: Database; productId: number }): Promise<void> {
  const rows = await db
    .select({ sizeType: offers.sizeType, size: offers.size, quantity: offers.quantity, preorder: offers.preorder })
    .from(offers)
    .where(eq(offers.productId, productId));
  const sizes = [...new Set(rows.filter((o) => o.quantity > 0 || o.preorder).map((o) => sizeFilterId(o.sizeType as SizeType, o.size)))];
  await db.update(products).set({ sizes }).where(eq(products.id, productId));
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

/** A stock change made inside a transaction: the change, and the SMS due once that commits. */
export interface PendingStockChange {
  change: StockChange;
  notice: BackInStockNotice | null;
}

/**
 * The stock change itself, inside the caller's transaction (`tx`), so a caller can make it part
 * of a larger all-or-nothing change (an order cancelled, items refused at a fitting). Locks the
 * offer row; call it for several offers in offer-id order. The caller sends the notice with
 * sendBackInStock after its commit, never before (a rollback must not have told anyone).
 */
export async function changeStockInTransaction({
  tx,
  offerId,
  set,
  delta,
}: {
  tx: Database;
  offerId: number;
  set?: number;
  delta?: number;
}): Promise<PendingStockChange | null> {
  const [offer] = await tx
    .select({
      id: offers.id,
      quantity: offers.quantity,
      productId: offers.productId,
      sizeType: offers.sizeType,
      size: offers.size,
      intlSize: offers.intlSize,
    })
    .from(offers)
    .where(eq(offers.id, offerId))
    .for('update')
    .limit(1);
  if (!offer) return null;
  const next = Math.max(0, set ?? offer.quantity + (delta ?? 0));
  await tx.update(offers).set({ quantity: next }).where(eq(offers.id, offerId));
  let waiting: { id: number; phone: string; name: string }[] = [];
  if (offer.quantity <= 0 && next > 0) {
    waiting = await tx
      .update(waitingList)
      .set({ notifiedAt: sql`now()` })
      .where(and(eq(waitingList.offerId, offerId), isNull(waitingList.notifiedAt)))
      .returning({ id: waitingList.id, phone: waitingList.phone, name: waitingList.name });
  }
  if (offer.quantity > 0 !== next > 0) {
    await refreshProductSizes({ db: tx, productId: offer.productId });
    await bumpCatalogVersion(tx);
  }
  const change: StockChange = { offerId, previous: offer.quantity, quantity: next, notified: waiting.length };
  if (!waiting.length) return { change, notice: null };
  const [product] = await tx
    .select({ name: products.name, slug: products.slug, sectionId: products.sectionId })
    .from(products)
    .where(eq(products.id, offer.productId));
  return { change, notice: { offerId, waiting, product, size: sizeLabel(offer.sizeType as SizeType, offer.size, offer.intlSize) } };
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
 * Sets an offer's stock (`set`) or moves it (`delta`, never below zero), in a transaction of its
 * own. Returns null for an unknown offer. SMS failures are logged, not thrown: the stock change
 * stands, and an entry is never notified twice.
 */
export async function changeStock({
  db,
  sms,
  log,
  siteUrl,
  offerId,
  set,
  delta,
}: {
  db: Database;
  sms: SmsGateway;
  log: Logger;
  siteUrl: string;
  offerId: number;
  set?: number;
  delta?: number;
}): Promise<StockChange | null> {
  const pending = await db.transaction(async (txn) => changeStockInTransaction({ tx: txn as unknown as Database, offerId, set, delta }));
  if (!pending) return null;
  await sendBackInStock({ db, sms, log, siteUrl, notices: [pending.notice] });
  return pending.change;
}
