import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import { DolyamiError, readOrder, toRoubles, wireItems, type DolyamiClient, type DolyamiLogger } from './dolyami';

// Dolyami's partner API (INTEGRATIONS.md §6): https://partner.dolyame.ru/v1/, JSON, HTTP Basic
// login:password over mutual TLS with T-Bank's client certificate, an X-Correlation-ID (UUID)
// on every call. Refunds reuse one correlation id per order and amount so a retried job does
// not refund twice, if Dolyami honours it (unconfirmed; the job records its refund once anyway).

export const DOLYAMI_DEFAULT_BASE_URL = 'https://partner.dolyame.ru/v1/';
export const DOLYAMI_DEFAULT_TIMEOUT_MS = 15_000;

export interface DolyamiClientOptions {
  login: string;
  password: string;
  baseUrl?: string;
  /** The client certificate and its key (PEM); none: plain HTTPS (the local fake in tests). */
  tls?: { cert: string | Buffer; key: string | Buffer; ca?: string | Buffer } | undefined;
  timeoutMs?: number;
  log?: DolyamiLogger;
  /** Injected for tests; used when there is no client certificate. */
  fetch?: typeof fetch;
}

/** Reads the certificate files named by the configuration (DOLYAMI_CERT_PATH, DOLYAMI_KEY_PATH, DOLYAMI_CA_PATH). */
export function readTlsFiles(paths: { cert?: string | undefined; key?: string | undefined; ca?: string | undefined }) {
  if (!paths.cert || !paths.key) return undefined;
  return {
    cert: fs.readFileSync(paths.cert),
    key: fs.readFileSync(paths.key),
    ...(paths.ca ? { ca: fs.readFileSync(paths.ca) } : {}),
  };
}

interface Answer {
  status: number;
  text: string;
}

export function createDolyamiClient(options: DolyamiClientOptions): DolyamiClient {
  const baseUrl = (options.baseUrl ?? DOLYAMI_DEFAULT_BASE_URL).replace(/\/*$/, '/');
  const timeoutMs = options.timeoutMs ?? DOLYAMI_DEFAULT_TIMEOUT_MS;
  const auth = `Basic ${Buffer.from(`${options.login}:${options.password}`).toString('base64')}`;
  const agent = options.tls ? new https.Agent({ ...options.tls, keepAlive: true }) : null;

  function viaAgent(
    url: URL,
    init: { method: string; headers: Record<string, string>; body?: string },
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        url,
        { method: init.method, headers: init.headers, agent: agent ?? undefined, timeout: timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      if (init.body) req.write(init.body);
      req.end();
    });
  }

  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    correlationId?: string,
  ): Promise<{ status: number; json: unknown }> {
    const url = new URL(path, baseUrl);
    const headers: Record<string, string> = {
      authorization: auth,
      accept: 'application/json',
      'x-correlation-id': correlationId ?? crypto.randomUUID(),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    let answer: Answer;
    try {
      if (agent) answer = await viaAgent(url, { method, headers, ...(payload ? { body: payload } : {}) });
      else {
        const res = await (options.fetch ?? fetch)(url, {
          method,
          headers,
          ...(payload ? { body: payload } : {}),
          signal: AbortSignal.timeout(timeoutMs),
        });
        answer = { status: res.status, text: await res.text().catch(() => '') };
      }
    } catch (err) {
      throw new DolyamiError(`Dolyami ${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    let json: unknown = null;
    try {
      json = answer.text ? JSON.parse(answer.text) : null;
    } catch {
      json = null;
    }
    return { status: answer.status, json };
  }

  const ok = (path: string, r: { status: number; json: unknown }) => {
    if (r.status < 200 || r.status >= 300) {
      const message =
        (r.json as { message?: unknown; description?: unknown } | null)?.message ??
        (r.json as { description?: unknown } | null)?.description;
      throw new DolyamiError(
        `Dolyami ${path}: HTTP ${r.status}${typeof message === 'string' ? ` ${message}` : ''}`,
        r.status,
      );
    }
    return r.json;
  };
  const orderPath = (id: string, action: string) => `orders/${encodeURIComponent(id)}/${action}`;

  return {
    kind: 'dolyami',
    async create(request) {
      const body = {
        order: {
          id: request.id,
          amount: toRoubles(request.amountKopecks),
          prepaid_amount: 0,
          items: wireItems(request.items),
        },
        client_info: {
          first_name: request.client.firstName,
          last_name: request.client.lastName,
          phone: `+${request.client.phone.replace(/\D/g, '')}`,
          email: request.client.email,
        },
        notification_url: request.notificationUrl,
        success_url: request.successUrl,
        fail_url: request.failUrl,
      };
      const order = readOrder(request.id, ok('orders/create', await call('POST', 'orders/create', body)));
      if (!order.link) throw new DolyamiError('Dolyami orders/create: no link');
      options.log?.info?.({ id: request.id, status: order.status }, 'Dolyami: order created');
      return { ...order, link: order.link };
    },
    async info(id) {
      const r = await call('GET', orderPath(id, 'info'));
      if (r.status === 404) return null;
      return readOrder(id, ok('info', r));
    },
    async commit(id, amountKopecks, items) {
      const r = await call(
        'POST',
        orderPath(id, 'commit'),
        { amount: toRoubles(amountKopecks), items: wireItems(items) },
        `commit-${id}`,
      );
      return readOrder(id, ok('commit', r));
    },
    async cancel(id) {
      ok('cancel', await call('POST', orderPath(id, 'cancel'), {}, `cancel-${id}`));
    },
    async refund(id, amountKopecks, items, key) {
      const r = await call(
        'POST',
        orderPath(id, 'refund'),
        { amount: toRoubles(amountKopecks), returned_items: wireItems(items) },
        crypto
          .createHash('sha256')
          .update(key ? `refund:${id}:key:${key}` : `refund:${id}:${amountKopecks}`)
          .digest('hex')
          .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5'),
      );
      const refundId = (ok('refund', r) as { refund_id?: unknown } | null)?.refund_id;
      if (refundId === undefined || refundId === null) throw new DolyamiError('Dolyami refund: no refund_id');
      options.log?.info?.({ id, amountKopecks }, 'Dolyami: refunded');
      return { refundId: String(refundId) };
    },
  };
}
