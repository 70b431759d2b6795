import { useEffect, useState } from 'react';
import type { DeliveryMethod, OrderParamsResponse } from '~/shared/contract';
import { roublesToKopecks } from '~/core/pricing';
import type { BrowserApi } from '~/app/lib/browser-api';
import { datesText } from '~/core/dates';
import type { CostState } from './OrderSummary';
import { paramsKey, type CheckoutFailure, type CheckoutValues } from './checkout-state';

// The checkout form's state, one hook per question it asks: what the shopper typed (and what the
// server said of it), which delivery and payment methods the city and basket have, and what the
// delivery costs. CheckoutForm puts them together.

/** The cost is asked again this long after the last key in the address. */
const ADDRESS_COST_DEBOUNCE_MS = 500;
export const COST_TO_CONFIRM = 'стоимость уточнит менеджер';

/** The form's values and the server's (or the browser's) messages at its fields. */
export interface CheckoutFields {
  values: CheckoutValues;
  setValues: React.Dispatch<React.SetStateAction<CheckoutValues>>;
  errors: Record<string, string>;
  setErrors: React.Dispatch<React.SetStateAction<Record<string, string>>>;
  set<K extends keyof CheckoutValues>(name: K, value: CheckoutValues[K]): void;
  /** Drops the messages of these fields (a key press, a new choice). */
  clearError(...names: string[]): void;
}

export function useCheckoutFields(
  initialValues: () => CheckoutValues,
  initialErrors: Record<string, string>,
): CheckoutFields {
  const [values, setValues] = useState<CheckoutValues>(initialValues);
  const [errors, setErrors] = useState<Record<string, string>>(initialErrors);
  return {
    values,
    setValues,
    errors,
    setErrors,
    set(name, value) {
      setValues((v) => ({ ...v, [name]: value }));
    },
    clearError(...names) {
      setErrors((e) => {
        if (!names.some((n) => n in e)) return e;
        const next = { ...e };
        for (const n of names) delete next[n];
        return next;
      });
    },
  };
}

export interface OrderParamsState {
  /** The key of the question: the committed city and the basket. */
  ask: string;
  /** The methods to show: the answer for `ask`, or the previous one while it is on its way. */
  params: OrderParamsResponse | null;
  /** The answer shown is not for `ask` yet. */
  stale: boolean;
  failed: boolean;
  retry(): void;
}

/**
 * Delivery and payment methods for the committed city and this basket: the loader's answer when
 * it is for them, otherwise the browser's (the previous ones stay, dimmed, meanwhile).
 */
export function useOrderParams({
  api,
  initialParams,
  city,
  ids,
  preorderIds,
}: {
  api: BrowserApi;
  initialParams: { key: string; params: OrderParamsResponse | null };
  city: string;
  ids: string;
  preorderIds: string;
}): OrderParamsState {
  const [fetched, setFetched] = useState<{ key: string; value: OrderParamsResponse } | null>(null);
  const [failedKey, setFailedKey] = useState<string | null>(null);
  const [retries, setRetries] = useState(0);
  const ask = paramsKey(city, ids, preorderIds);
  const noCity = city.trim() === '';
  const exact = noCity
    ? null
    : initialParams.key === ask
      ? initialParams.params
      : fetched?.key === ask
        ? fetched.value
        : undefined;
  const stale = exact === undefined;

  useEffect(() => {
    if (!stale || noCity) return;
    let live = true;
    api.getOrderParams({ city: city.trim(), ids, preorderIds }).then(
      (value) => {
        if (live) setFetched({ key: ask, value });
      },
      (err: unknown) => {
        console.error('checkout: order params failed', err);
        if (live) setFailedKey(ask);
      },
    );
    return () => {
      live = false;
    };
    // One request per question (`ask` names it), and again on 'Повторить'.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ask, stale, retries]);

  return {
    ask,
    params: exact === undefined ? (fetched?.value ?? initialParams.params) : exact,
    stale,
    failed: failedKey === ask,
    retry() {
      setFailedKey(null);
      setRetries((n) => n + 1);
    },
  };
}

export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

interface CostAnswer {
  key: string;
  kopecks: number | null;
  text: string;
  from: string | null;
  to: string | null;
  preorderFrom?: string | null | undefined;
  preorderTo?: string | null | undefined;
}

export interface DeliveryCostState {
  cost: CostState;
  /** Kopecks; null while unknown. */
  costKopecks: number | null;
  /** When the order (the goods in stock) is expected, and the pre-orders of a mixed basket. */
  dates: string | null;
  preorderDates: string | null;
  /** The cost the server answered when it refused the order (it changed): shown for the shopper to confirm. */
  confirm(kopecks: number | null): void;
}

/**
 * The delivery cost for the method, point and address (SPEC §7 getdeliverycost.php); until it
 * answers, the method's own price stands. A failure is logged only (SPEC §8).
 */
export function useDeliveryCost({
  api,
  ask,
  stale,
  method,
  pointCode,
  address,
  city,
  ids,
  preorderIds,
  basketCost,
}: {
  api: BrowserApi;
  ask: string;
  stale: boolean;
  method: DeliveryMethod | undefined;
  pointCode: string | undefined;
  /** Street and house when the method needs an address. */
  address: string;
  city: string;
  ids: string;
  preorderIds: string;
  /** Roubles: the basket after the promo (the carrier's insurance). */
  basketCost: number;
}): DeliveryCostState {
  const [costAnswer, setCostAnswer] = useState<CostAnswer | null>(null);
  const addressForCost = useDebounced(address, ADDRESS_COST_DEBOUNCE_MS);
  const costKey = `${ask}|${method?.ID ?? ''}|${pointCode ?? ''}|${addressForCost}`;
  useEffect(() => {
    if (stale || !method || method.MODE === 'contact') return;
    let live = true;
    api
      .getDeliveryCost({
        city: city.trim(),
        deliveryId: method.ID,
        pickupPoint: pointCode,
        address: addressForCost || undefined,
        ids,
        preorderIds,
        basketCost,
      })
      .then(
        (res) => {
          if (live)
            setCostAnswer({
              key: costKey,
              kopecks: res.deliverycost === null ? null : roublesToKopecks(res.deliverycost),
              text: res.text,
              from: res.DATE_FROM,
              to: res.DATE_TO,
              preorderFrom: res.PREORDER_DATE_FROM,
              preorderTo: res.PREORDER_DATE_TO,
            });
        },
        (err: unknown) => {
          console.error('checkout: delivery cost failed', err);
          if (live)
            setCostAnswer({
              key: costKey,
              kopecks: null,
              text: COST_TO_CONFIRM,
              from: method.DATE_FROM,
              to: method.DATE_TO,
            });
        },
      );
    return () => {
      live = false;
    };
    // One request per cost question (costKey names it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [costKey, stale]);

  const answered = costAnswer?.key === costKey ? costAnswer : null;
  const cost: CostState = !method
    ? { kind: 'none' }
    : answered
      ? { kind: 'known', kopecks: answered.kopecks, text: answered.text }
      : {
          kind: 'known',
          kopecks: method.PRICE === null ? null : roublesToKopecks(method.PRICE),
          text: method.PRICE_TEXT,
        };
  return {
    cost,
    costKopecks: cost.kind === 'known' ? cost.kopecks : null,
    dates: method
      ? answered
        ? datesText(answered.from, answered.to)
        : datesText(method.DATE_FROM, method.DATE_TO)
      : null,
    // A basket mixing goods in stock and pre-orders: the pre-orders come later (issue #26).
    preorderDates: method
      ? answered
        ? datesText(answered.preorderFrom, answered.preorderTo)
        : datesText(method.PREORDER_DATE_FROM, method.PREORDER_DATE_TO)
      : null,
    confirm(kopecks) {
      setCostAnswer({
        key: costKey,
        kopecks,
        text: COST_TO_CONFIRM,
        from: costAnswer?.from ?? method?.DATE_FROM ?? null,
        to: costAnswer?.to ?? method?.DATE_TO ?? null,
      });
    },
  };
}

/**
 * The /basket/ action's answer, taken once when it arrives: `onAnswer` runs during the render
 * that first sees it (errors at their fields, a changed delivery cost), `afterAnswer` once it is
 * on screen (the focus moves to the first error).
 */
export function useActionAnswer(
  result: CheckoutFailure | undefined,
  onAnswer: (answer: CheckoutFailure) => void,
  afterAnswer: (answer: CheckoutFailure) => void,
): void {
  const [taken, setTaken] = useState(result);
  if (result !== taken) {
    setTaken(result);
    if (result) onAnswer(result);
  }
  useEffect(() => {
    if (result) afterAnswer(result);
    // Only a new answer moves the focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
}
