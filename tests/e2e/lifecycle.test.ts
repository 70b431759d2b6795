import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getJson } from '~/tests/support/api';
import { CatalogSectionResponse } from '~/shared/contract';
import { serveNodeArgs } from '~/server/serve-command';

// The real entry point as `npm run serve` starts it (the built server, build/node/main.js: run
// `npm run build` first), on a port the system picks (PORT=0); what the test waits for is what
// the process says in its log.
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A pino log line of the server; other output (a config error) is kept as text. */
type LogLine = Record<string, unknown> & { msg?: string };

interface Served {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** The first log line (from now on or already printed) that `match` accepts; fails if the process exits first or after `timeoutMs`. */
  waitForLog(match: (line: LogLine) => boolean, what: string, timeoutMs?: number): Promise<LogLine>;
}

function serve(env: Record<string, string>): Served {
  let out = '';
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  const child = spawn(process.execPath, serveNodeArgs(), {
    // A demo's payments (offline stand-ins), as `npm start` allows them; the refusal is tested below.
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
      DATABASE_URL: '',
      ALLOW_OFFLINE_PAYMENTS: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let pending = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
    pending += d.toString();
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const text of complete) {
      try {
        lines.push(JSON.parse(text) as LogLine);
      } catch {
        // not a log line
      }
    }
    for (const wake of waiters) wake();
  });
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
    for (const wake of waiters) wake();
  });

  function waitForLog(match: (line: LogLine) => boolean, what: string, timeoutMs = 120_000): Promise<LogLine> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (found) return done(() => resolve(found));
        if (hasExited) return done(() => reject(new Error(`the server exited before ${what}:\n${out.slice(-2000)}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`no ${what} within ${timeoutMs} ms:\n${out.slice(-2000)}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });
  }

  return { child, output: () => out, exited, waitForLog };
}

describe('start-up configuration', () => {
  it('refuses a bad value and names the variable', async () => {
    const { exited, output } = serve({ PORT: 'eighty', DATA_DIR: os.tmpdir() });
    expect(await exited).toBe(78);
    expect(output()).toMatch(/PORT/);
  });
  it('refuses production with a payment provider on its offline stand-in, naming the variables to set', async () => {
    const { exited, output } = serve({ ALLOW_OFFLINE_PAYMENTS: 'false', DATA_DIR: os.tmpdir() });
    expect(await exited).toBe(78);
    expect(output()).toMatch(/CLOUDPAYMENTS_PROVIDER: is offline/);
    expect(output()).toMatch(/DOLYAMI_PROVIDER: is offline/);
    expect(output()).toMatch(/YANDEX_SPLIT_PROVIDER: is offline/);
    expect(output()).toMatch(/ALLOW_OFFLINE_PAYMENTS=true/);
  });
  it('refuses a DATABASE_URL that is not a postgres URL', async () => {
    const { exited, output } = serve({ DATABASE_URL: 'mysql://x', DATA_DIR: os.tmpdir() });
    expect(await exited).toBe(78);
    expect(output()).toMatch(/DATABASE_URL/);
  });
});

/** A server on a fresh data folder and a port of its own, once it says it is ready; its address. */
async function serveReady(env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-life-'));
  dirs.push(dataDir);
  const server = serve({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...env });
  // server/main.ts logs 'Vitrina is ready' with the address it listens on once it does.
  const ready = await server.waitForLog((l) => l.msg === 'Vitrina is ready', "the 'Vitrina is ready' line");
  const { hostname, port } = new URL(String(ready.address));
  return { server, base: String(ready.address), hostname, port, dataDir };
}

/** A raw connection to the server, its errors ignored, and a promise of its closing. */
async function rawConnection(hostname: string, port: string) {
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed: new Promise<void>((resolve) => socket.once('close', () => resolve())) };
}

describe('graceful shutdown', () => {
  it('finishes a request in flight after SIGTERM, then exits 0 and stops listening', { timeout: 180_000 }, async () => {
    const { server, base } = await serveReady();
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(base).port).not.toBe('0');
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'pglite' });

    // A photo nobody has asked for yet: drawn and resized on this request, so it takes a while.
    const list = await getJson(base, '/backend/catalog/woman/shuby/', CatalogSectionResponse);
    const photo = list.ITEMS[0]?.PREVIEW_PICTURE?.replace('/media/', '/img/1536/');
    if (!photo) throw new Error('no photo in the section');
    const inFlight = fetch(`${base}${photo}`, { headers: { accept: 'image/avif' } });
    // Fastify logs each request as it comes in: from then on it is in flight.
    const incoming = await server.waitForLog(
      (l) => l.msg === 'incoming request' && (l.req as { url?: string } | undefined)?.url === photo,
      'the photo request',
    );
    server.child.kill('SIGTERM');

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/avif');
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const code = await server.exited;
    expect(code, server.output().slice(-3000)).toBe(0);
    // The request was still being answered when the shutdown began.
    const lines = server.output().split('\n');
    const shutdownAt = lines.findIndex((l) => l.includes('shutting down'));
    const completedAt = lines.findIndex(
      (l) => l.includes('"request completed"') && l.includes(`"reqId":"${String(incoming.reqId)}"`),
    );
    expect(shutdownAt).toBeGreaterThanOrEqual(0);
    expect(completedAt).toBeGreaterThan(shutdownAt);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it(
    'closes a connection that never sent a byte (a spare or preconnected one) instead of waiting for it',
    { timeout: 180_000 },
    async () => {
      const { server, hostname, port } = await serveReady({ SHUTDOWN_TIMEOUT_MS: '8000' });
      // Connected, silent: Node counts such a connection as busy until its headers time out.
      const silent = await rawConnection(hostname, port);
      const began = performance.now();
      server.child.kill('SIGTERM');
      const code = await server.exited;
      expect(code, server.output().slice(-3000)).toBe(0);
      // Well inside SHUTDOWN_TIMEOUT_MS: it did not wait for the silent client.
      expect(performance.now() - began).toBeLessThan(5000);
      await silent.closed;
      expect(server.output()).not.toContain('requests still open');
    },
  );

  it(
    'after SHUTDOWN_TIMEOUT_MS names the request that could not finish, closes it, still closes the database and exits 1',
    { timeout: 180_000 },
    async () => {
      const { server, base, hostname, port } = await serveReady({ SHUTDOWN_TIMEOUT_MS: '1500' });

      // A client that announces a body and never sends it: its request stays in flight.
      const { socket, closed: closedByServer } = await rawConnection(hostname, port);
      socket.write(
        `POST /basket/ HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nten bytes.`,
      );
      await server.waitForLog(
        (l) => l.msg === 'incoming request' && (l.req as { url?: string } | undefined)?.url === '/basket/',
        'the stalled request',
      );
      const clientPort = socket.localPort;
      // An idle keep-alive connection is closed at once and is not named.
      const idle = await fetch(`${base}/healthz`);
      expect(idle.status).toBe(200);
      const began = performance.now();
      server.child.kill('SIGTERM');

      const code = await server.exited;
      expect(code, server.output().slice(-3000)).toBe(1);
      expect(performance.now() - began).toBeGreaterThanOrEqual(1400);
      await closedByServer;
      // The stalled request is named, with its client's connection.
      const held = await server.waitForLog(
        (l) => l.msg === 'shutdown: requests still open after SHUTDOWN_TIMEOUT_MS, closing their connections',
        'the held line',
        1000,
      );
      const connections = held.held as Array<{
        client: string;
        bytesRead: number;
        request: { method: string; url: string; finished: boolean } | null;
      }>;
      expect(connections).toHaveLength(1);
      expect(connections[0]?.request).toMatchObject({ method: 'POST', url: '/basket/', finished: false });
      expect(connections[0]?.client).toBe(`127.0.0.1:${clientPort}`);
      // Then the close hooks (jobs, database) ran to the end: no second time-out.
      const done = await server.waitForLog((l) => l.msg === 'shut down', "the 'shut down' line", 1000);
      expect(done.cutRequests).toBe(true);
      expect(server.output()).not.toContain('shutdown timed out, exiting');
    },
  );
});

describe('a demo in production', () => {
  it(
    'starts with ALLOW_OFFLINE_PAYMENTS=true, says payments are simulated, and lists the stand-ins in the health details for staff',
    { timeout: 180_000 },
    async () => {
      const { server, base, dataDir } = await serveReady();
      const health = await fetch(`${base}/healthz`);
      // The public answer tells nothing more.
      expect(await health.json()).toEqual({ status: 'ok', database: 'pglite' });
      // A demo (ALLOW_OFFLINE_PAYMENTS=true): said loudly at start, and in the health details for staff.
      await server.waitForLog(
        (l) => l.level === 40 && /^PAYMENTS ARE SIMULATED/.test(l.msg ?? ''),
        'the simulated payments warning',
      );
      const services = await server.waitForLog(
        (l) => l.level === 40 && /^outside services on offline stand-ins/.test(l.msg ?? ''),
        'the offline services warning',
      );
      expect(services.offline).toEqual([
        'SMS_PROVIDER',
        'MAIL_PROVIDER',
        'CAPTCHA_PROVIDER',
        'CDEK_PROVIDER',
        'DADATA_PROVIDER',
      ]);
      const staffToken = fs.readFileSync(path.join(dataDir, 'staff-token'), 'utf8').trim();
      const detailed = await fetch(`${base}/healthz`, { headers: { authorization: `Bearer ${staffToken}` } });
      expect(await detailed.json()).toMatchObject({
        status: 'ok',
        details: {
          paymentsSimulated: true,
          offline: [
            'CLOUDPAYMENTS_PROVIDER',
            'DOLYAMI_PROVIDER',
            'YANDEX_SPLIT_PROVIDER',
            'SMS_PROVIDER',
            'MAIL_PROVIDER',
            'CAPTCHA_PROVIDER',
            'CDEK_PROVIDER',
            'DADATA_PROVIDER',
          ],
        },
      });
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    },
  );
});

/** A built script (`npm run seed`, `npm run stock`, …: build/node/<name>.js) to its end. */
function runBuilt(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [`build/node/${script}.js`, ...args],
      { env: { ...process.env, DATABASE_URL: '', ...env }, timeout: 180_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the built server and scripts (build/node/, no TypeScript at run time)', () => {
  it(
    'starts a new embedded data folder from the demo database of the build: copied, nothing seeded, pages answer',
    {
      timeout: 180_000,
    },
    async () => {
      const { server, base, dataDir } = await serveReady();
      const copied = await server.waitForLog(
        (l) => l.msg === 'database created from the demo database of the build',
        'the demo database line',
      );
      expect(copied.from).toBe('build/pglite-demo');
      expect(fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
      expect(server.output()).not.toContain('database seeded');
      const list = await getJson(base, '/backend/catalog/all/', CatalogSectionResponse);
      expect(list.ITEMS.length).toBeGreaterThan(0);
      expect((await fetch(`${base}/`)).status).toBe(200);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);

      // Started again: the folder holds a database now, nothing is copied.
      const again = serve({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
      await again.waitForLog((l) => l.msg === 'Vitrina is ready', "the 'Vitrina is ready' line");
      expect(again.output()).not.toContain('demo database');
      again.child.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    },
  );

  it(
    'seeds with the built seed script, starts on that database without seeding, answers /healthz and pages, and a built staff script reaches it',
    { timeout: 300_000 },
    async () => {
      expect(serveNodeArgs().join(' ')).not.toMatch(/tsx/);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-built-'));
      dirs.push(dataDir);
      const seed = await runBuilt('seed', [], { DATA_DIR: dataDir });
      expect(seed.code, seed.stderr).toBe(0);
      expect(seed.stdout).toMatch(/seed: done \(180 products\)/);

      const server = serve({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir });
      const ready = await server.waitForLog((l) => l.msg === 'Vitrina is ready', "the 'Vitrina is ready' line");
      const base = String(ready.address);
      // The start's steps, each when it ended (ms since the process started).
      expect(Object.keys(ready.phases as object)).toEqual([
        'modules',
        'storefront',
        'database',
        'migrate',
        'app',
        'seed',
        'listen',
      ]);
      // The database was seeded already: nothing seeded at this start.
      expect(server.output()).not.toContain('database seeded');

      const health = await fetch(`${base}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok', database: 'pglite' });
      const home = await fetch(`${base}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await home.text()).toContain('<html lang="ru">');
      const list = await getJson(base, '/backend/catalog/woman/', CatalogSectionResponse);
      const product = list.ITEMS[0];
      if (!product) throw new Error('no product in the section');
      const page = await fetch(`${base}${product.DETAIL_PAGE_URL}`);
      expect(page.status).toBe(200);
      const escaped = product.NAME.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
      expect(await page.text()).toContain(escaped);

      // `npm run stock -- --verify`: the built staff script, through the running shop.
      const verify = await runBuilt('stock', ['--verify'], { DATA_DIR: dataDir, SHOP_URL: base });
      expect(verify.code, verify.stderr).toBe(0);
      expect(verify.stdout).toMatch(/^stock ledger balanced: \d+ offers, \d+ moves/);

      server.child.kill('SIGTERM');
      expect(await server.exited, server.output().slice(-3000)).toBe(0);
    },
  );
});
