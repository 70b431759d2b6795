import { expect } from 'vitest';
import { z } from 'zod';

// Contract tests: every JSON answer an API test reads is checked against the zod schema of
// shared/contract.ts it claims to follow, so the contract and the answers cannot drift apart.

/**
 * Parses `body` with `Schema` and returns it typed. zod drops keys a schema does not declare,
 * so the parsed value equals the body only when the body has no fields beyond the contract.
 */
export function expectContract<S extends z.ZodType>(Schema: S, body: unknown, what = 'body'): z.infer<S> {
  const result = Schema.safeParse(body);
  if (!result.success) throw new Error(`${what} does not follow the contract:\n${z.prettifyError(result.error)}`);
  expect(result.data, `${what} has fields the contract does not declare`).toEqual(body);
  return result.data;
}

export interface JsonRequest {
  /** The status the answer must have (default 200). */
  status?: number;
  init?: RequestInit;
}

/** Requests `baseUrl + path`, checks the status and that the JSON body follows `Schema`. */
export async function fetchJson<S extends z.ZodType>(
  baseUrl: string,
  path: string,
  Schema: S,
  { status = 200, init }: JsonRequest = {},
): Promise<{ response: Response; body: z.infer<S> }> {
  const what = `${init?.method ?? 'GET'} ${path}`;
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  expect(response.status, `${what}: ${text.slice(0, 300)}`).toBe(status);
  expect(response.headers.get('content-type'), what).toMatch(/^application\/json(;|$)/);
  return { response, body: expectContract(Schema, JSON.parse(text), what) };
}

/** `fetchJson` for when only the body matters. */
export async function getJson<S extends z.ZodType>(
  baseUrl: string,
  path: string,
  Schema: S,
  request: JsonRequest = {},
): Promise<z.infer<S>> {
  return (await fetchJson(baseUrl, path, Schema, request)).body;
}

/** A POST with a form-encoded body, as SPEC §7's calls send them (`a[b]` keys written as they are). */
export function postForm(fields: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  };
}

/**
 * What `read` gives once it gives anything (not null, undefined or false), polled every 100 ms:
 * for what the shop does after answering (its job worker, outboxes). Fails after `ms`, naming `what`.
 */
export async function eventually<T>(
  read: () => Promise<T | null | undefined | false>,
  what: string,
  ms = 20_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
