// The stock ledger's rules (models/stock.server.ts writes it, table stock_moves): why a quantity
// moved, who moved it, and how a set of requested moves becomes new quantities. An offer's
// quantity is always the sum of its moves, its opening `seed` move included.

/** Why an offer's quantity moved. */
export const STOCK_REASONS = [
  /** The opening quantity: written by the seed for the offers it creates, and by migration 0020 for offers that existed before the ledger. */
  'seed',
  /** Taken by an order (at placing, or again when a late payment restores a released order). */
  'order',
  /** Given back by a cancelled order (staff, or a fast order nobody confirmed in time). */
  'order_cancelled',
  /** Given back by an online order whose time to pay ran out. */
  'payment_expired',
  /** Items refused at the fitting at the door, back on the shelf. */
  'fitting_returned',
  /** Returned items received back (the back office). */
  'return_received',
  /** Staff add or take away a number of items. */
  'staff_adjustment',
  /** Staff counted the shelf: the quantity is set to what was counted. */
  'count',
  /** The 1C exchange or a CSV file of the back office set the quantity (the move's note names the file). */
  'import',
] as const;
export type StockReason = (typeof STOCK_REASONS)[number];

/** Russian names of the reasons, for staff (the back office's ledger). */
export const STOCK_REASON_LABEL: Readonly<Record<StockReason, string>> = {
  seed: 'Начальный остаток',
  order: 'Заказ',
  order_cancelled: 'Отмена заказа',
  payment_expired: 'Заказ не оплачен вовремя',
  fitting_returned: 'Отказ при примерке',
  return_received: 'Возврат от покупателя',
  staff_adjustment: 'Корректировка',
  count: 'Инвентаризация',
  import: 'Загрузка: обмен с 1С или файл CSV',
};

export const STOCK_ACTOR_KINDS = ['customer', 'staff', 'system'] as const;

/** Who moved the stock: a customer (null id: a guest's fast order), a staff member (null id until staff accounts exist: the staff token), or the shop itself (jobs, payments). */
export type StockActor =
  { kind: 'customer'; id: number | null } | { kind: 'staff'; id: number | null } | { kind: 'system' };

export const SYSTEM_ACTOR: StockActor = { kind: 'system' };
/** Staff acting through the staff token (scripts, the staff API) before staff accounts exist. */
export const STAFF_TOKEN_ACTOR: StockActor = { kind: 'staff', id: null };

/** One requested move of one offer: by `delta` (+ gives back, − takes), or to `setTo` (a count, an import). */
export type StockLine = { offerId: number; delta: number } | { offerId: number; setTo: number };

/**
 * What to do with a take larger than the stock: `refuse` the whole move (orders: never sell what
 * is not there) or `clamp` the quantity at zero (staff taking away more than the system shows).
 */
export type ShortPolicy = 'refuse' | 'clamp';

export interface PlannedMove {
  offerId: number;
  previous: number;
  delta: number;
  quantityAfter: number;
}

export type StockPlan =
  | { ok: true; moves: PlannedMove[] }
  /** `short`: offers without enough stock (refuse only); `missing`: offers that do not exist. */
  | { ok: false; short: number[]; missing: number[] };

/**
 * The moves `lines` make from the `current` quantities (of the locked rows), in offer-id order,
 * several lines of one offer summed. An unknown offer refuses the move under `refuse` and is
 * skipped under `clamp`; a quantity never goes below zero.
 */
export function planStockMoves(
  current: ReadonlyMap<number, number>,
  lines: readonly StockLine[],
  short: ShortPolicy,
): StockPlan {
  const wanted = new Map<number, { delta: number; setTo: number | null }>();
  for (const line of lines) {
    const w = wanted.get(line.offerId) ?? { delta: 0, setTo: null };
    if ('setTo' in line) {
      if (!Number.isInteger(line.setTo) || line.setTo < 0)
        throw new Error(`stock: bad quantity ${line.setTo} for offer ${line.offerId}`);
      if (w.setTo !== null || w.delta !== 0)
        throw new Error(`stock: offer ${line.offerId} both set and moved in one change`);
      w.setTo = line.setTo;
    } else {
      if (!Number.isInteger(line.delta)) throw new Error(`stock: bad delta ${line.delta} for offer ${line.offerId}`);
      if (w.setTo !== null) throw new Error(`stock: offer ${line.offerId} both set and moved in one change`);
      w.delta += line.delta;
    }
    wanted.set(line.offerId, w);
  }
  const shortIds: number[] = [];
  const missing: number[] = [];
  const moves: PlannedMove[] = [];
  for (const [offerId, w] of [...wanted].sort(([a], [b]) => a - b)) {
    const previous = current.get(offerId);
    if (previous === undefined) {
      missing.push(offerId);
      continue;
    }
    const target = w.setTo ?? previous + w.delta;
    if (target < 0 && short === 'refuse') {
      shortIds.push(offerId);
      continue;
    }
    const quantityAfter = Math.max(0, target);
    moves.push({ offerId, previous, delta: quantityAfter - previous, quantityAfter });
  }
  if (shortIds.length > 0 || (missing.length > 0 && short === 'refuse')) return { ok: false, short: shortIds, missing };
  return { ok: true, moves };
}
