import { useState } from 'react';
import { useFetcher } from 'react-router';

// The /personal/ route action's answer, shared by the account's forms: one action switching on
// `intent` (app/routes/personal.tsx), each form posting through a fetcher of its own.

export const ACCOUNT_INTENTS = [
  'profile',
  'address-save',
  'address-remove',
  'subscribe',
  'return',
  'birthday',
] as const;
export type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

export type AccountActionResult =
  | { intent: AccountIntent; ok: true; message: string }
  | { intent: AccountIntent | 'unknown'; ok: false; error: string; field?: string | undefined };

/** SPEC §8: what a failed call shows when the server gave no message of its own. */
export const SERVER_ERROR = 'Произошла ошибка на сервере. Пожалуйста, попробуйте позже.';

/**
 * A fetcher for one account form, with its last answer and the field it flagged until the next
 * key press (SPEC §4). With a `key` the answer outlives the form (a form remounted after its save
 * still shows it); without one a form opened again starts blank.
 */
export function useAccountFetcher(key?: string) {
  const fetcher = useFetcher<AccountActionResult>(key ? { key } : undefined);
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  // The answer whose flag a key press cleared: a new answer flags again.
  const [cleared, setCleared] = useState<AccountActionResult | null>(null);
  const flagged = result && !result.ok && result !== cleared ? (result.field ?? null) : null;
  return { fetcher, result, busy: fetcher.state !== 'idle', flagged, clearFlag: () => setCleared(result ?? null) };
}
