import type { PaymentWidgetParams } from '~/shared/contract';

// The CloudPayments widget in the browser (INTEGRATIONS.md §1, legacy API): its script comes
// from the provider's host (or the offline stand-in's), never from our bundle, and is added to
// the page once. SPEC §8: when the script or `window.cp` is missing, the caller logs it and
// nothing else happens (the page keeps its button so the shopper can try again).

/** What the widget's legacy `pay()` hands to its callbacks (only what the shop reads). */
export interface WidgetSuccess {
  transactionId: string | null;
}
export interface WidgetFailure {
  reason: string | null;
  /** The shopper closed the widget (the legacy API fails with 'User has cancelled'). */
  cancelled: boolean;
}

const CANCELLED = 'User has cancelled';

interface LegacyWidget {
  pay(
    scheme: 'charge' | 'auth',
    params: PaymentWidgetParams['params'],
    callbacks: {
      onSuccess?: (options: unknown) => void;
      onFail?: (reason: unknown, options: unknown) => void;
      onComplete?: (result: unknown, options: unknown) => void;
    },
  ): void;
}

declare global {
  interface Window {
    cp?: { CloudPayments?: new (options: PaymentWidgetParams['options']) => LegacyWidget };
  }
}

const loading = new Map<string, Promise<void>>();

/**
 * Adds the widget script once per URL and resolves when it has run. A failed load forgets its
 * tag, so the next call tries again (a flaky network, the shopper pressing the button again).
 */
export function loadWidgetScript(url: string): Promise<void> {
  const known = loading.get(url);
  if (known) return known;
  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.dataset.paymentWidget = 'cloudpayments';
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener(
      'error',
      () => {
        script.remove();
        loading.delete(url);
        reject(new Error(`payment widget script failed to load: ${url}`));
      },
      { once: true },
    );
    document.head.append(script);
  });
  loading.set(url, promise);
  return promise;
}

/** The transaction id the widget reports on success (`options.transactionId`, sometimes nested), or null. */
function transactionIdOf(options: unknown): string | null {
  if (!options || typeof options !== 'object') return null;
  const o = options as Record<string, unknown>;
  const nested = o.data && typeof o.data === 'object' ? (o.data as Record<string, unknown>) : {};
  for (const value of [o.transactionId, o.TransactionId, nested.transactionId, nested.TransactionId]) {
    if (typeof value === 'number' || (typeof value === 'string' && value !== '')) return String(value);
  }
  return null;
}

/**
 * Opens the widget for one order: `new cp.CloudPayments(options).pay('charge', params, …)`.
 * False when `window.cp` is missing (the script did not define it).
 */
export function openWidget(
  payment: PaymentWidgetParams,
  on: { success(result: WidgetSuccess): void; fail(result: WidgetFailure): void },
): boolean {
  const Widget = window.cp?.CloudPayments;
  if (typeof Widget !== 'function') return false;
  new Widget(payment.options).pay('charge', payment.params, {
    onSuccess: (options) => on.success({ transactionId: transactionIdOf(options) }),
    onFail: (reason) => {
      const text = typeof reason === 'string' && reason.trim() ? reason.trim().slice(0, 200) : null;
      on.fail(text === CANCELLED ? { reason: null, cancelled: true } : { reason: text, cancelled: false });
    },
  });
  return true;
}
