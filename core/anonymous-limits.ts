// Caps on what a shopper without an account may do (issue #27, 6): every anonymous action that
// takes stock, sends a message or calls a provider counts in rate_counters (fixed windows,
// models/rate-limit.server.ts) per IP, per phone and per offer where it fits. Each cap has a
// variable (docs/production.md); these are the defaults.

export interface AnonymousLimits {
  /** Fast orders from one IP in an hour. */
  fastOrdersPerIpHour: number;
  /** Fast orders for one phone in a day. */
  fastOrdersPerPhoneDay: number;
  /** Fast orders of one size (offer) from one IP in a day: the units one address takes of it. */
  fastOrdersPerOfferIpDay: number;
  /** How long a fast order staff have not confirmed holds its stock; then it is cancelled. */
  fastOrderHoldHours: number;
  /** Waiting-list entries from one IP in an hour. */
  waitingListPerIpHour: number;
  /** Phones one IP puts on one size's waiting list in a day (each is one SMS at restock). */
  waitingListPerOfferIpDay: number;
  /** Waiting lists one phone joins in a day. */
  waitingListPerPhoneDay: number;
  /** success_payment_order.php calls from one IP in a minute. */
  paymentChecksPerIpMinute: number;
  /** Times one order's payment provider is asked from success_payment_order.php in a minute. */
  paymentChecksPerOrderMinute: number;
  /** Calls that reach CDEK (pickup points, tariffs, getdeliverycost.php) from one IP in a minute. */
  cdekCallsPerIpMinute: number;
}

export const DEFAULT_ANONYMOUS_LIMITS: AnonymousLimits = {
  fastOrdersPerIpHour: 10,
  fastOrdersPerPhoneDay: 10,
  fastOrdersPerOfferIpDay: 3,
  fastOrderHoldHours: 72,
  waitingListPerIpHour: 20,
  waitingListPerOfferIpDay: 3,
  waitingListPerPhoneDay: 20,
  paymentChecksPerIpMinute: 30,
  paymentChecksPerOrderMinute: 6,
  cdekCallsPerIpMinute: 120,
};

/** What the shopper reads when a cap is hit. */
export const LIMIT_TEXT = {
  fastOrder: 'Слишком много заказов за короткое время. Попробуйте позже или позвоните нам.',
  waitingList: 'Слишком много заявок в список ожидания. Попробуйте позже.',
  paymentCheck: 'Слишком много проверок оплаты. Подождите минуту и обновите страницу.',
  cdek: 'Слишком много запросов доставки. Попробуйте через минуту.',
} as const;

/** One fixed-window counter: its key in rate_counters, the window and the hits it allows. */
export interface RateCounter {
  key: string;
  windowSeconds: number;
  limit: number;
}

const HOUR = 3600;
const DAY = 86_400;

/** The counters one fast order hits, in a fixed order (no two requests wait on each other's rows crosswise). */
export function fastOrderCounters(
  limits: AnonymousLimits,
  { ip, phone, offerId }: { ip: string; phone: string; offerId: number },
): RateCounter[] {
  return [
    { key: `fastorder:ip:h:${ip}`, windowSeconds: HOUR, limit: limits.fastOrdersPerIpHour },
    { key: `fastorder:phone:d:${phone}`, windowSeconds: DAY, limit: limits.fastOrdersPerPhoneDay },
    { key: `fastorder:offer-ip:d:${offerId}:${ip}`, windowSeconds: DAY, limit: limits.fastOrdersPerOfferIpDay },
  ];
}

/** The counters one waiting-list entry hits. */
export function waitingListCounters(
  limits: AnonymousLimits,
  { ip, phone, offerId }: { ip: string; phone: string; offerId: number },
): RateCounter[] {
  return [
    { key: `waitlist:ip:h:${ip}`, windowSeconds: HOUR, limit: limits.waitingListPerIpHour },
    { key: `waitlist:phone:d:${phone}`, windowSeconds: DAY, limit: limits.waitingListPerPhoneDay },
    { key: `waitlist:offer-ip:d:${offerId}:${ip}`, windowSeconds: DAY, limit: limits.waitingListPerOfferIpDay },
  ];
}

/** The counter of success_payment_order.php calls from one IP. */
export function paymentCheckIpCounter(limits: AnonymousLimits, ip: string): RateCounter {
  return { key: `paycheck:ip:m:${ip}`, windowSeconds: 60, limit: limits.paymentChecksPerIpMinute };
}

/** The counter of provider look-ups for one order. */
export function paymentCheckOrderCounter(limits: AnonymousLimits, orderId: number): RateCounter {
  return { key: `paycheck:order:m:${orderId}`, windowSeconds: 60, limit: limits.paymentChecksPerOrderMinute };
}

/** The counter of calls that reach CDEK from one IP. */
export function cdekIpCounter(limits: AnonymousLimits, ip: string): RateCounter {
  return { key: `cdek:ip:m:${ip}`, windowSeconds: 60, limit: limits.cdekCallsPerIpMinute };
}
