import { HttpError } from 'react-admin';
import type { AdminError } from '~/shared/admin-contract';

// The admin app's one way to the admin API (docs/back-office.md): JSON both ways, the session
// cookie (same origin), an Idempotency-Key on named POSTs. A refusal becomes react-admin's
// HttpError with the API's Russian message, so its notification shows what went wrong.

/** The API's base, as the server wrote it into the page (`<meta name="admin-api">`). */
export function adminApiBase(): string {
  const meta = document.querySelector('meta[name="admin-api"]')?.getAttribute('content');
  return meta && meta.startsWith('/') ? meta.replace(/\/+$/, '') : '/backend/admin';
}

/** A new Idempotency-Key: one per intended change (a dialog opened, a form shown), kept for its retries. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

export interface ApiCall {
  method?: 'GET' | 'POST' | 'PATCH';
  body?: unknown;
  /** Idempotency-Key; POSTs get a fresh one when none is given. */
  key?: string;
}

export async function adminApi<T>(path: string, { method = 'GET', body, key }: ApiCall = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers['content-type'] = 'application/json';
  if (method === 'POST') headers['idempotency-key'] = key ?? newIdempotencyKey();
  else if (key) headers['idempotency-key'] = key;
  let res: Response;
  try {
    res = await fetch(`${adminApiBase()}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      ...(method !== 'GET' ? { body: JSON.stringify(body ?? {}) } : {}),
    });
  } catch {
    throw new HttpError('Нет связи с сервером. Проверьте подключение и повторите', 0, null);
  }
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!res.ok) {
    const error = (json as AdminError | null)?.error ?? `Ошибка сервера (${res.status})`;
    throw new HttpError(error, res.status, json);
  }
  return json as T;
}

/** Files to the admin API (multipart/form-data: `files`, and `alt` per file), with the intent's Idempotency-Key. */
export async function adminUpload<T>(path: string, files: File[], alt: string[], key: string): Promise<T> {
  const form = new FormData();
  for (const f of files) form.append('files', f, f.name);
  for (const a of alt) form.append('alt', a);
  let res: Response;
  try {
    res = await fetch(`${adminApiBase()}${path}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'idempotency-key': key },
      credentials: 'same-origin',
      body: form,
    });
  } catch {
    throw new HttpError('Нет связи с сервером. Проверьте подключение и повторите', 0, null);
  }
  const json = (await res.json().catch(() => null)) as unknown;
  if (!res.ok)
    throw new HttpError((json as AdminError | null)?.error ?? `Ошибка сервера (${res.status})`, res.status, json);
  return json as T;
}

/** The query string of a list call: only values that are set. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
