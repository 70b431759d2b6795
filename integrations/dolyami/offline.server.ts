import fs from 'node:fs';
import path from 'node:path';
import {
  DolyamiError,
  toRoubles,
  type DolyamiClient,
  type DolyamiCreateRequest,
  type DolyamiItem,
  type DolyamiLogger,
  type DolyamiOrder,
} from './dolyami';

// The offline stand-in for Dolyami (INTEGRATIONS.md §6 "Stand-ins"): its page (served by the
// API, api/payments/instalments-offline.routes.server.ts) shows the schedule with 'Одобрить' and
// 'Отклонить'. Approval moves the order to wait_for_commit and posts the shop's callback as
// Dolyami would (JSON, no signature); once the shop commits it posts committed, then completed.
// Orders are remembered in DATA_DIR/outbox/dolyami.jsonl so info answers after a restart.

export const DOLYAMI_OUTBOX_FILE = 'dolyami.jsonl';

export interface OfflineDolyamiOrder extends DolyamiOrder {
  items: DolyamiItem[];
  successUrl: string;
  failUrl: string;
  notificationUrl: string;
  refundedKopecks: number;
  /** Keys of the refunds taken (the real client sends them as X-Correlation-ID). */
  refundKeys?: string[];
  /** Callback bodies sent, in order (tests replay them). */
  callbacks: string[];
}

/** Posts one callback body to the shop's notification URL; resolves with the HTTP status. */
export type CallbackDelivery = (notificationUrl: string, body: string) => Promise<{ status: number }>;

export interface OfflineDolyami extends DolyamiClient {
  readonly kind: 'offline';
  connect(deliver: CallbackDelivery): void;
  /** The shopper's answer on the stand-in page: where the browser goes next. */
  /** `notify: false` (tests): the answer is taken without calling the shop back, as a lost callback would leave it. */
  decide(id: string, approve: boolean, notify?: boolean): Promise<{ redirect: string }>;
  order(id: string): OfflineDolyamiOrder | undefined;
  /** Sends a callback body sent before once more. */
  replay(id: string, index?: number): Promise<{ status: number }>;
}

/** The 4 payments Dolyami shows: a quarter each, 14 days apart, the first today (remainder on the first). */
function schedule(amountKopecks: number, today = new Date()): DolyamiOrder['schedule'] {
  const share = Math.floor(amountKopecks / 4);
  return Array.from({ length: 4 }, (_, i) => {
    const d = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 14 * i);
    const date = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    return {
      amountKopecks: i === 0 ? amountKopecks - share * 3 : share,
      date,
      status: i === 0 ? 'scheduled' : 'scheduled',
    };
  });
}

export function createOfflineDolyami(options: {
  pagePath: string;
  outboxDir?: string | undefined;
  log?: DolyamiLogger | undefined;
}): OfflineDolyami {
  const orders = new Map<string, OfflineDolyamiOrder>();
  const file = options.outboxDir ? path.join(options.outboxDir, DOLYAMI_OUTBOX_FILE) : null;
  if (file && fs.existsSync(file)) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      try {
        if (line.trim()) {
          const o = JSON.parse(line) as OfflineDolyamiOrder;
          orders.set(o.id, o);
        }
      } catch {
        // a torn last line after a crash: the earlier state stands
      }
    }
  }
  const save = (o: OfflineDolyamiOrder) => {
    orders.set(o.id, o);
    if (!file) return;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.appendFileSync(file, `${JSON.stringify(o)}\n`);
  };
  let deliver: CallbackDelivery | null = null;
  const view = (o: OfflineDolyamiOrder): DolyamiOrder => ({
    id: o.id,
    status: o.status,
    amountKopecks: o.amountKopecks,
    residualAmountKopecks: o.residualAmountKopecks,
    link: o.link,
    schedule: o.schedule,
  });
  const get = (id: string) => {
    const o = orders.get(id);
    if (!o) throw new DolyamiError(`offline Dolyami: no order ${id}`, 404);
    return o;
  };

  async function callback(o: OfflineDolyamiOrder): Promise<{ status: number }> {
    if (!deliver) throw new DolyamiError('offline Dolyami: no callback handler connected');
    const body = JSON.stringify({
      id: o.id,
      status: o.status,
      amount: toRoubles(o.amountKopecks),
      residual_amount: toRoubles(o.residualAmountKopecks ?? 0),
      demo: true,
    });
    o.callbacks.push(body);
    save(o);
    const answer = await deliver(o.notificationUrl, body);
    if (answer.status !== 200)
      options.log?.warn({ id: o.id, status: answer.status }, 'offline Dolyami: the shop did not answer 200');
    return answer;
  }

  return {
    kind: 'offline',
    connect(d) {
      deliver = d;
    },
    async create(request: DolyamiCreateRequest) {
      if (orders.has(request.id)) throw new DolyamiError(`offline Dolyami: order ${request.id} exists`, 409);
      const link = `${options.pagePath}?id=${encodeURIComponent(request.id)}`;
      const o: OfflineDolyamiOrder = {
        id: request.id,
        status: 'new',
        amountKopecks: request.amountKopecks,
        residualAmountKopecks: request.amountKopecks,
        link,
        schedule: schedule(request.amountKopecks),
        items: request.items,
        successUrl: request.successUrl,
        failUrl: request.failUrl,
        notificationUrl: request.notificationUrl,
        refundedKopecks: 0,
        callbacks: [],
      };
      save(o);
      return { ...view(o), link };
    },
    async info(id) {
      const o = orders.get(id);
      return o ? view(o) : null;
    },
    async commit(id, amountKopecks) {
      const o = get(id);
      if (!['approved', 'wait_for_commit'].includes(o.status))
        throw new DolyamiError(`offline Dolyami: cannot commit an order in ${o.status}`, 400);
      if (amountKopecks !== o.amountKopecks) throw new DolyamiError('offline Dolyami: commit amount differs', 400);
      o.status = 'committed';
      o.residualAmountKopecks = o.amountKopecks - (o.schedule[0]?.amountKopecks ?? 0);
      save(o);
      return view(o);
    },
    async cancel(id) {
      const o = get(id);
      if (['committed', 'completed'].includes(o.status))
        throw new DolyamiError('offline Dolyami: a committed order is refunded, not cancelled', 400);
      o.status = 'canceled';
      save(o);
    },
    async refund(id, amountKopecks, _items, key) {
      const o = get(id);
      // As the real client's X-Correlation-ID would, if Dolyami honours it (unconfirmed, so assumed):
      // a refund repeated with its key (by default its amount) refunds nothing more.
      const once = key ?? `amount:${amountKopecks}`;
      if (o.refundKeys?.includes(once)) return { refundId: `refund-${id}-${once}` };
      if (!['committed', 'completed'].includes(o.status))
        throw new DolyamiError(`offline Dolyami: cannot refund an order in ${o.status}`, 400);
      if (amountKopecks <= 0 || o.refundedKopecks + amountKopecks > o.amountKopecks)
        throw new DolyamiError('offline Dolyami: refund above the order', 400);
      o.refundedKopecks += amountKopecks;
      o.refundKeys = [...(o.refundKeys ?? []), once];
      save(o);
      options.log?.info?.({ id, amountKopecks }, 'offline Dolyami: refunded');
      return { refundId: `refund-${id}-${o.refundedKopecks}` };
    },
    async decide(id, approve, notify = true) {
      const o = get(id);
      if (o.status !== 'new')
        return { redirect: ['rejected', 'canceled'].includes(o.status) ? o.failUrl : o.successUrl };
      if (!notify) {
        o.status = approve ? 'wait_for_commit' : 'rejected';
        save(o);
        return { redirect: approve ? o.successUrl : o.failUrl };
      }
      if (!approve) {
        o.status = 'rejected';
        await callback(o);
        return { redirect: o.failUrl };
      }
      o.status = 'wait_for_commit';
      await callback(o);
      // The shop committed while handling the callback: Dolyami tells it so, then completes.
      if (get(id).status === 'committed') {
        await callback(o);
        o.status = 'completed';
        await callback(o);
      }
      return { redirect: o.successUrl };
    },
    order(id) {
      return orders.get(id);
    },
    async replay(id, index) {
      const o = get(id);
      const body = o.callbacks[index ?? o.callbacks.length - 1];
      if (!body || !deliver) throw new DolyamiError(`offline Dolyami: nothing to replay for ${id}`);
      return deliver(o.notificationUrl, body);
    },
  };
}
