// Logins per second: a code sent (send_sms.php: captcha, limits, code hashed and stored, the SMS
// written to the offline outbox) and then used (auth_phone.php: the try counted, the code
// compared, the customer made, a session stored and its token signed), on PGlite and (with
// BENCH_DATABASE_URL, an admin URL) on PostgreSQL.
//   npm run bench:logins -- [--db pglite,postgres] [--seconds 10] [--workers 16]
// Requests run in process through Fastify's inject, each login from its own client address (the
// per-IP caps of a real shop would otherwise stop a bench from one address after 20 codes).
// Prints figures; asserts nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEnv } from '~/server/env.server';
import { seedDatabase } from '~/db/seed/seed.server';
import { buildServer } from '~/server/app.server';
import { SMS_OUTBOX_FILE } from '~/integrations/sms/offline.server';
import { openBenchDatabase, pct } from './support';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
};
const DBS = arg('db', process.env.BENCH_DATABASE_URL ? 'pglite,postgres' : 'pglite').split(',');
const SECONDS = Number(arg('seconds', '10'));
const WORKERS = Number(arg('workers', '16'));

async function main() {
  const results: string[] = [];
  for (const kind of DBS) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-bench-'));
    const { handle, drop } = await openBenchDatabase(kind, dataDir, 10);
    try {
      await handle.migrate();
      await seedDatabase(handle.db, { products: 180 });
      const env = loadEnv({
        NODE_ENV: 'production',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        SEED_ON_START: 'false',
        PORT: '0',
      });
      const app = await buildServer({ env, database: { ...handle, close: async () => {} }, build: null });
      await app.ready();
      const outbox = path.join(dataDir, 'outbox', SMS_OUTBOX_FILE);
      /** The code of the newest SMS to this phone: the outbox is read from where the last look stopped. */
      let offset = 0;
      const codes = new Map<string, string>();
      const codeFor = (phone: string): string => {
        const text = fs.existsSync(outbox) ? fs.readFileSync(outbox, 'utf8').slice(offset) : '';
        offset += text.length;
        for (const line of text.split('\n')) {
          const m = /"phone":"(\d+)".*?(\d{6})/.exec(line);
          if (m?.[1] && m[2]) codes.set(m[1], m[2]);
        }
        const code = codes.get(phone);
        if (!code) throw new Error(`no code for ${phone}`);
        return code;
      };

      const post = (url: string, fields: Record<string, string>, ip: string) =>
        app.inject({
          method: 'POST',
          url: `/backend${url}`,
          remoteAddress: ip,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(fields).toString(),
        });

      let n = 0;
      let failed = 0;
      const sendMs: number[] = [];
      const verifyMs: number[] = [];
      const until = performance.now() + SECONDS * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: WORKERS }, async () => {
          while (performance.now() < until) {
            n += 1;
            // Each login a phone of its own in a number range of its own, from an address of its own.
            const phone = `79${String(n % 100_000).padStart(5, '0')}1234`;
            const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
            const t0 = performance.now();
            const sent = await post('/api/personal/send_sms.php', { phone, recaptcha_token: 'bench' }, ip);
            const t1 = performance.now();
            if (!(sent.json() as { success: boolean }).success) {
              failed += 1;
              continue;
            }
            const res = await post('/api/personal/auth_phone.php', { phone, code: codeFor(phone) }, ip);
            const t2 = performance.now();
            if (!('user' in (res.json() as object))) failed += 1;
            sendMs.push(t1 - t0);
            verifyMs.push(t2 - t1);
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      sendMs.sort((a, b) => a - b);
      verifyMs.sort((a, b) => a - b);
      const line = `${kind.padEnd(8)} ${(verifyMs.length / elapsed).toFixed(0)} logins/s with ${WORKERS} at once (${verifyMs.length} in ${elapsed.toFixed(1)} s, ${failed} failed) | send p50 ${pct(sendMs, 50).toFixed(1)} p95 ${pct(sendMs, 95).toFixed(1)} ms | verify p50 ${pct(verifyMs, 50).toFixed(1)} p95 ${pct(verifyMs, 95).toFixed(1)} ms`;
      console.log(line);
      results.push(line);
      await app.close();
    } finally {
      await handle.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  console.log(
    `\nVitrina logins bench (${os.cpus().length} cores, ${SECONDS} s a database, ${WORKERS} logins at once, in process)`,
  );
  for (const r of results) console.log(r);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
