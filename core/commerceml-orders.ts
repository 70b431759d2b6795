import { isTrue } from './commerceml';
import type { OneCOrderLine } from './commerceml-order-lines';
import { ORDER_STATUS_LABELS, ORDER_STATUSES, type OrderStatus } from './order-status';

// Orders 1C sends back (type=sale&mode=file + mode=import; issue #31, docs/exchange-1c.md): what
// a <Документ> asks of the site's order. Pure: the model (models/exchange-orders.server.ts) reads
// the XML into an OrderDocument and applies the plan through the shop's order status functions.

/** One <Документ> of 1C's orders file, as read: its elements and its requisites (ЗначенияРеквизитов). */
export interface OrderDocument {
  id: string;
  number: string;
  date: string;
  time: string;
  deleted: boolean;
  /** ЗначениеРеквизита: Наименование → Значение (the last one wins). */
  requisites: Record<string, string>;
  /**
   * Товары/Товар as 1C has them now (core/commerceml-order-lines.ts); null or absent: the
   * document has no Товары (it says nothing of the goods; step files written before it too).
   */
  goods?: OneCOrderLine[] | null;
}

/** 1C's numbers and dates kept on the order (orders.exchange_1c). */
export interface OneCOrderInfo {
  number: string | null;
  date: string | null;
  posted: boolean | null;
  paymentNumber: string | null;
  paymentDate: string | null;
  shipmentNumber: string | null;
  shipmentDate: string | null;
}

export interface OrderPlan {
  /** The site's order id the document is about (null: the document names none). */
  orderId: number | null;
  /** The status 1C says the order has reached (cancelled included); null: 1C says nothing of it. */
  status: OrderStatus | null;
  /** 1C's status text when the site knows no such status (a warning, the rest still applies). */
  unknownStatus: string | null;
  paid: boolean;
  /** 1C's payment date as a time, when it reads as one (the order's paid_at). */
  paidAt: Date | null;
  info: OneCOrderInfo;
}

const norm = (s: string) => s.trim().toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ');

/** The way an order goes forward (core/order-status.ts), one step at a time. */
export const FORWARD: readonly OrderStatus[] = ['new', 'confirmed', 'assembling', 'shipped', 'delivered', 'received'];

// 1C's and Bitrix's status texts besides our own labels. Bitrix writes «[N] Принят», «[F] Выполнен».
const STATUS_WORDS: Record<string, OrderStatus> = {
  принят: 'new',
  новый: 'new',
  'в обработке': 'confirmed',
  подтвержден: 'confirmed',
  согласован: 'confirmed',
  'к выполнению': 'confirmed',
  собирается: 'assembling',
  комплектуется: 'assembling',
  'в сборке': 'assembling',
  'к отгрузке': 'assembling',
  отгружен: 'shipped',
  'передан в доставку': 'shipped',
  'в пути': 'shipped',
  доставлен: 'delivered',
  получен: 'received',
  выполнен: 'received',
  закрыт: 'received',
  отменен: 'cancelled',
  отменён: 'cancelled',
};
const BITRIX_CODES: Record<string, OrderStatus> = { N: 'new', P: 'confirmed', F: 'received' };
for (const s of ORDER_STATUSES) STATUS_WORDS[norm(ORDER_STATUS_LABELS[s])] = s;

/** A status text of 1C ('Отгружен', '[F] Выполнен', a site label, a code): the site's status, or null. */
export function statusOf(text: string): OrderStatus | null {
  const t = text.trim();
  if (!t) return null;
  if ((ORDER_STATUSES as readonly string[]).includes(t)) return t as OrderStatus;
  const coded = /^\[([A-Z])\]\s*(.*)$/.exec(t);
  const words = norm(coded ? coded[2]! : t);
  return STATUS_WORDS[words] ?? (coded ? (BITRIX_CODES[coded[1]!] ?? null) : null);
}

/** 1C's date ('2026-11-20', '2026-11-20T12:30:00', '20.11.2026 12:30:00') as a time in Moscow; null if it is none. */
export function oneCDate(text: string): Date | null {
  const t = text.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  let parts: string[] | null = m ? [m[1]!, m[2]!, m[3]!, m[4] ?? '00', m[5] ?? '00', m[6] ?? '00'] : null;
  if (!parts) {
    m = /^(\d{2})\.(\d{2})\.(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
    if (m) parts = [m[3]!, m[2]!, m[1]!, (m[4] ?? '00').padStart(2, '0'), m[5] ?? '00', m[6] ?? '00'];
  }
  if (!parts) return null;
  const d = new Date(`${parts[0]}-${parts[1]}-${parts[2]}T${parts[3]}:${parts[4]}:${parts[5]}+03:00`);
  return Number.isNaN(d.getTime()) || d.getUTCFullYear() < 2000 ? null : d;
}

const SITE_NUMBER_REQUISITES = ['Номер заказа на сайте', 'Номер по сайту', 'Номер на сайте', 'Номер заказа сайта'];

/** What the document asks: which order, which status, whether it is paid, and 1C's numbers and dates. */
export function planOf(doc: OrderDocument): OrderPlan {
  const r = (name: string) => {
    const wanted = norm(name);
    for (const [k, v] of Object.entries(doc.requisites)) if (norm(k) === wanted) return v.trim();
    return '';
  };
  const asId = (s: string) => (/^\d{1,9}$/.test(s.trim()) ? Number(s.trim()) : null);
  const siteNumber = SITE_NUMBER_REQUISITES.map(r).find(Boolean) ?? '';
  const orderId = asId(siteNumber) ?? asId(doc.id) ?? asId(doc.number);

  const statusText = r('Статус заказа') || r('Статус');
  const said = statusOf(statusText);
  const cancelled =
    doc.deleted || isTrue(r('Отменен')) || isTrue(r('Отменён')) || isTrue(r('ПометкаУдаления')) || said === 'cancelled';
  const shipmentNumber = r('Номер отгрузки по 1С') || null;
  const shipmentDate = r('Дата отгрузки по 1С') || null;
  const shipped = Boolean(shipmentNumber || shipmentDate) || isTrue(r('Отгружен'));
  let status: OrderStatus | null = cancelled ? 'cancelled' : said;
  // A shipment 1C recorded puts the order at least in 'shipped'.
  if (!cancelled && shipped && (status === null || FORWARD.indexOf(status) < FORWARD.indexOf('shipped')))
    status = 'shipped';
  const paymentNumber = r('Номер оплаты по 1С') || null;
  const paymentDate = r('Дата оплаты по 1С') || null;
  const oneCNumber = r('Номер по 1С') || (doc.number && asId(doc.number) !== orderId ? doc.number : '');
  const oneCDateText = r('Дата по 1С') || (doc.date ? `${doc.date}${doc.time ? `T${doc.time}` : ''}` : '');
  const posted = r('Проведен');
  return {
    orderId,
    status,
    unknownStatus: statusText && !said ? statusText : null,
    paid: Boolean(paymentNumber || paymentDate) || isTrue(r('Заказ оплачен')) || isTrue(r('Оплачен')),
    paidAt: paymentDate ? oneCDate(paymentDate) : null,
    info: {
      number: oneCNumber || null,
      date: oneCDateText || null,
      posted: posted ? isTrue(posted) : null,
      paymentNumber,
      paymentDate,
      shipmentNumber,
      shipmentDate,
    },
  };
}

/**
 * The moves that take an order from `from` to 1C's `to`, one allowed step at a time: [] when it is
 * there or further along (1C's news is older than the site's), `[to]` alone when the way forward
 * does not lead there (a cancel; or a move the status rules refuse, so its refusal is reported).
 */
export function statusMoves(from: string, to: OrderStatus): OrderStatus[] {
  if (from === to) return [];
  if (to === 'cancelled') return ['cancelled'];
  const i = FORWARD.indexOf(from as OrderStatus);
  const j = FORWARD.indexOf(to);
  if (i < 0) return [to];
  if (j <= i) return [];
  return FORWARD.slice(i + 1, j + 1);
}

/** Whether 1C's info differs from what the order keeps (a second import of the same file changes nothing). */
export function sameInfo(a: OneCOrderInfo | null, b: OneCOrderInfo): boolean {
  if (!a) return false;
  return (Object.keys(b) as (keyof OneCOrderInfo)[]).every((k) => (a[k] ?? null) === (b[k] ?? null));
}

/** Merges what 1C says now into what the order keeps: a field 1C leaves out keeps its value. */
export function mergeInfo(kept: OneCOrderInfo | null, now: OneCOrderInfo): OneCOrderInfo {
  const out = { ...now };
  if (kept)
    for (const k of Object.keys(now) as (keyof OneCOrderInfo)[])
      if (now[k] === null && kept[k] !== null && kept[k] !== undefined) (out as Record<string, unknown>)[k] = kept[k];
  return out;
}
