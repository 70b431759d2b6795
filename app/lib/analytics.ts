import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useRootData } from '~/app/lib/root-data';

// Yandex Metrika (SPEC §7 note, INTEGRATIONS §7). With the public PUBLIC_METRIKA_ID set, the
// counter's script (tag.js) loads once the page has hydrated and the browser is idle — never
// before the first paint — and goals go to `ym(ID, 'reachGoal', …)`. Without it nothing loads
// and goals go nowhere. Either way each goal is also kept in `window.__vitrinaGoals` (the last
// 100), the in-memory stand-in that browser tests read.

/** Goal names: identifiers of "JavaScript event" goals set up in the counter. */
export const GOAL = {
  addToCart: 'add_to_cart',
  fastOrder: 'fast_order',
  notifyWhenAvailable: 'notify_when_available',
  checkout: 'checkout',
  smsAuth: 'sms_auth',
} as const;
export type Goal = (typeof GOAL)[keyof typeof GOAL];

export interface RecordedGoal {
  goal: Goal;
  params?: Record<string, unknown>;
  /** Whether a counter was configured to receive it. */
  sent: boolean;
}

export interface EcommerceProduct {
  id: string;
  name: string;
  price: number;
  quantity: number;
  variant?: string;
}

type Ym = ((id: number, method: string, ...args: unknown[]) => void) & { a?: unknown[]; l?: number };

declare global {
  interface Window {
    ym?: Ym;
    dataLayer?: unknown[];
    __vitrinaGoals?: RecordedGoal[];
  }
}

const TAG_URL = 'https://mc.yandex.ru/metrika/tag.js';
const KEPT_GOALS = 100;
let counterId: number | null = null;

/** The counter id of the public env value: digits only, anything else (unset, '') is off. */
export function parseCounterId(value: string | undefined | null): number | null {
  const text = (value ?? '').trim();
  return /^\d{1,12}$/.test(text) && Number(text) > 0 ? Number(text) : null;
}

function record(entry: RecordedGoal): void {
  const goals = (window.__vitrinaGoals ??= []);
  goals.push(entry);
  if (goals.length > KEPT_GOALS) goals.splice(0, goals.length - KEPT_GOALS);
}

/** Sends a goal (a no-op without a counter, apart from the in-memory record). Browser only. */
export function reachGoal(goal: Goal, params?: Record<string, unknown>): void {
  if (typeof window === 'undefined') return;
  const sent = counterId !== null && typeof window.ym === 'function';
  record({ goal, params, sent });
  if (sent && counterId !== null) window.ym?.(counterId, 'reachGoal', goal, params);
}

/** SPEC §7: the add-to-cart goal carries the order price in roubles; the e-commerce 'add' event the product. */
export function trackAddToCart(product: EcommerceProduct): void {
  reachGoal(GOAL.addToCart, { order_price: product.price * product.quantity, currency: 'RUB' });
  if (counterId !== null)
    (window.dataLayer ??= []).push({ ecommerce: { currencyCode: 'RUB', add: { products: [product] } } });
}

/** Defines `ym` as Metrika's own snippet does (calls queue until tag.js arrives), inits the counter and loads tag.js when the browser is idle. */
export function startCounter(id: number): void {
  counterId = id;
  window.dataLayer ??= [];
  if (!window.ym) {
    const queue: Ym = (...args: unknown[]) => {
      (queue.a ??= []).push(args);
    };
    queue.l = Date.now();
    window.ym = queue;
  }
  window.ym(id, 'init', {
    clickmap: true,
    trackLinks: true,
    accurateTrackBounce: true,
    webvisor: false,
    ecommerce: 'dataLayer',
  });
  const load = () => {
    if (document.querySelector(`script[src="${TAG_URL}"]`)) return;
    const script = document.createElement('script');
    script.src = TAG_URL;
    script.async = true;
    document.head.appendChild(script);
  };
  // After hydration (an effect) and when the browser has nothing better to do.
  if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 3000 });
  else setTimeout(load, 1000);
}

/**
 * Mounted once in the root layout: starts the counter after hydration when PUBLIC_METRIKA_ID is
 * set, and reports client-side navigations as page views (the first one is counted by init).
 */
export function useMetrika(): void {
  const root = useRootData();
  const id = parseCounterId(root?.env?.PUBLIC_METRIKA_ID);
  const location = useLocation();
  const url = location.pathname + location.search;

  useEffect(() => {
    if (id !== null && counterId === null) startCounter(id);
  }, [id]);

  useEffect(() => {
    if (counterId === null) return;
    const href = window.location.href;
    // The first page was counted by init; later ones are client-side navigations.
    if (lastHref !== null && lastHref !== href)
      window.ym?.(counterId, 'hit', href, { referer: lastHref, title: document.title });
    lastHref = href;
  }, [url]);
}
let lastHref: string | null = null;
