import { useCallback, useRef, useState } from 'react';
import { flushSync } from 'react-dom';

/** A module the shell loads only when a shopper first uses what it does (shared by every user of it). */
export interface OnDemand<T> {
  /** The module once loaded. */
  readonly current: T | undefined;
  load(): Promise<T>;
}

export function onDemand<T>(load: () => Promise<T>): OnDemand<T> {
  let current: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    get current() {
      return current;
    },
    load() {
      loading ??= load().then(
        (module) => (current = module),
        (error: unknown) => {
          loading = undefined; // a dropped connection: the next use asks again
          throw error;
        },
      );
      return loading;
    },
  };
}

/**
 * For a light stand-in that renders the same markup as the real component until it is used:
 * `ask(take)` loads the module, and the component re-renders with it together with what the
 * last `take` asked for reads from the stand-in (the text typed so far, the focus, a submit), in
 * the same task, so no key press can fall between the reading and the swap. A stand-in mounted
 * once the module is in (a menu opened later) starts with the real one.
 */
export function useOnDemand<T, S>(
  part: OnDemand<T>,
): { loaded: { module: T; from: S | null } | null; ask: (take: () => S) => void } {
  const [loaded, setLoaded] = useState<{ module: T; from: S | null } | null>(() =>
    part.current ? { module: part.current, from: null } : null,
  );
  const latest = useRef<(() => S) | null>(null);
  const ask = useCallback(
    (take: () => S) => {
      const asked = latest.current !== null;
      latest.current = take;
      if (asked) return;
      part.load().then(
        (module) => flushSync(() => setLoaded({ module, from: latest.current?.() ?? null })),
        (error: unknown) => {
          latest.current = null;
          console.warn('module not loaded', error);
        },
      );
    },
    [part],
  );
  return { loaded, ask };
}
