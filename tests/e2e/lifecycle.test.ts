import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CatalogSectionResponse } from '~/shared/contract';

// The real entry point (server/main.ts) as `npm run serve` starts it.
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function serve(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './server/production-env.ts', 'server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'info', NODE_ENV: 'production', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function waitHealthy(base: string, exited: Promise<unknown>): Promise<void> {
  let done = false;
  void exited.then(() => (done = true));
  for (let i = 0; i < 1200 && !done; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become healthy');
}

describe('start-up configuration', () => {
  it('refuses a bad value and names the variable', async () => {
    const { exited, output } = serve({ PORT: 'eighty', DATA_DIR: os.tmpdir() });
    expect(await exited).toBe(78);
    expect(output()).toMatch(/PORT/);
  });
  it('refuses a DATABASE_URL that is not a postgres URL', async () => {
    const { exited, output } = serve({ DATABASE_URL: 'mysql://x', DATA_DIR: os.tmpdir() });
    expect(await exited).toBe(78);
    expect(output()).toMatch(/DATABASE_URL/);
  });
});

describe('graceful shutdown', () => {
  it('finishes a request in flight after SIGTERM, then exits 0 and stops listening', { timeout: 180_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-life-'));
    dirs.push(dataDir);
    const port = 3940 + Math.floor(Math.random() * 50);
    const base = `http://127.0.0.1:${port}`;
    const { child, exited, output } = serve({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
    await waitHealthy(base, exited).catch((err: unknown) => {
      throw new Error(`${String(err)}\n${output().slice(-2000)}`);
    });
    expect(output()).toContain('Vitrina is ready');

    // A photo nobody has asked for yet: drawn and resized on this request, so it takes a while.
    const list = (await (await fetch(`${base}/backend/catalog/woman/shuby/`)).json()) as CatalogSectionResponse;
    const photo = list.ITEMS[0]?.PREVIEW_PICTURE?.replace('/media/', '/img/1536/');
    expect(photo).toBeTruthy();
    const inFlight = fetch(`${base}${photo}`, { headers: { accept: 'image/avif' } });
    await new Promise((r) => setTimeout(r, 30));
    child.kill('SIGTERM');

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const code = await exited;
    if (code !== 0) console.log(output().slice(-3000));
    expect(code).toBe(0);
    expect(output()).toContain('shutting down');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});
