import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, sentMessages } from '~/db/schema';
import { CheckoutOrderResponse } from '~/shared/contract';
import { StaffJobsResponse } from '~/api/staff/routes.server';
import { createOfflineSms, readSmsOutbox } from '~/integrations/sms/offline.server';
import { readMailOutbox } from '~/integrations/mail/offline.server';
import type { MailSender } from '~/integrations/mail/mail';
import { runDueJobs } from '~/models/jobs.server';
import { recordedMail, recordedSms } from '~/models/sent-messages.server';
import { sendBackInStock } from '~/models/stock.server';
import { STAFF_TOKEN_FILE } from '~/server/secrets.server';
import { eventually, fetchJson, getJson, postForm } from '~/tests/support/api';
import { courierForm, offerPicker } from '~/tests/support/checkout';
import { customerMaker } from '~/tests/support/session';
import { setUpTestShop } from '~/tests/support/server';

// Issue #27, 7: every message a job sends is recorded under an idempotency key (order, kind,
// recipient) with the send, so a job run again after a crash (its lease ran out) or after a
// half-failed run sends nothing twice. Over HTTP on PGlite or (TEST_DATABASE_URL) PostgreSQL.

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const outbox = () => path.join(shop.dataDir, 'outbox');
const customer = customerMaker(shop, '7997');
const freshOffer = offerPicker(shop);
const silent = { info() {}, warn() {}, error() {} };

async function placeOrder(email: string): Promise<number> {
  const { token } = await customer();
  const offer = await freshOffer();
  const answer = await getJson(api(), '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(courierForm(token, `${offer.id}:1`, { email })),
  });
  if (!answer.success) throw new Error(answer.data.error);
  return answer.order_id;
}

const placedSms = async (orderId: number) =>
  (await readSmsOutbox(outbox())).filter((m) => m.tag === 'order-placed' && m.text.includes(`№${orderId}`));
const placedMail = async (orderId: number) =>
  (await readMailOutbox(outbox())).filter((m) => m.subject.includes(`№${orderId}`));

async function runJobsNow(): Promise<void> {
  const token = fs.readFileSync(path.join(shop.dataDir, STAFF_TOKEN_FILE), 'utf8').trim();
  await fetchJson(api(), '/staff/jobs/', StaffJobsResponse, {
    init: {
      ...postForm({ action: 'run' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` },
    },
  });
}

describe('order notices sent once', () => {
  it('a job run again after a crash (its lease ran out before it was marked done) sends no SMS or letter twice', async () => {
    const orderId = await placeOrder('crash@example.com');
    await eventually(
      async () => (await placedSms(orderId)).length === 1 && (await placedMail(orderId)).length === 1,
      'the order notices',
    );
    await eventually(
      async () =>
        (
          await db()
            .select()
            .from(jobs)
            .where(and(eq(jobs.kind, 'order.placed'), sql`${jobs.payload}->>'orderId' = ${String(orderId)}`))
        )[0]?.doneAt,
      'the job done',
    );
    // kill -9 after the messages went, before the job was marked done: its lease runs out and
    // another run (this process's worker, or another process) claims it again.
    await db()
      .update(jobs)
      .set({ doneAt: null, runAt: sql`now() - interval '1 second'` })
      .where(and(eq(jobs.kind, 'order.placed'), sql`${jobs.payload}->>'orderId' = ${String(orderId)}`));
    await runJobsNow();
    await eventually(
      async () =>
        (
          await db()
            .select()
            .from(jobs)
            .where(and(eq(jobs.kind, 'order.placed'), sql`${jobs.payload}->>'orderId' = ${String(orderId)}`))
        )[0]?.doneAt,
      'the rerun done',
    );
    expect(await placedSms(orderId)).toHaveLength(1);
    expect(await placedMail(orderId)).toHaveLength(1);
    // Recorded with the send, one key per order, kind, channel and recipient.
    const sent = await db()
      .select({ key: sentMessages.key, channel: sentMessages.channel, sentAt: sentMessages.sentAt })
      .from(sentMessages)
      .where(sql`${sentMessages.key} like ${`order.placed:orderId=${orderId}|%`}`);
    expect(sent.map((s) => s.key).sort()).toEqual([
      `order.placed:orderId=${orderId}|mail|order-placed|crash@example.com`,
      `order.placed:orderId=${orderId}|sms|order-placed|79161234567`,
    ]);
    expect(sent.every((s) => s.sentAt !== null)).toBe(true);
    const [sms] = await placedSms(orderId);
    expect(sms?.key).toBe(`order.placed:orderId=${orderId}|sms|order-placed|79161234567`);
  });

  it('a retry after the letter failed sends the letter, not the SMS again; two runs of the same notice at once send one', async () => {
    const dir = fs.mkdtempSync(path.join(shop.dataDir, 'retry-'));
    const sms = recordedSms(db(), createOfflineSms({ outboxDir: dir }));
    let failMail = true;
    const letters: string[] = [];
    const flaky: MailSender = {
      kind: 'offline',
      async send(message) {
        if (failMail) throw new Error('SMTP down');
        letters.push(message.to);
        return { id: `m-${letters.length}` };
      },
    };
    const mail = recordedMail(db(), flaky);
    const kind = `test.notice.${process.pid}`;
    const handlers = {
      [kind]: async (payload: Record<string, unknown>) => {
        await sms.send({
          phone: '79970000001',
          text: `Заказ №${String(payload.orderId)} оформлен`,
          tag: 'order-placed',
        });
        await mail.send({
          to: 'retry@example.com',
          subject: `Заказ №${String(payload.orderId)}`,
          text: 'Спасибо',
          tag: 'order-placed',
        });
      },
    };
    // Due in the far future, run with that future as now: the shop's own worker never takes them.
    const future = new Date(Date.now() + 10 * 365 * 86_400_000);
    const [job] = await db()
      .insert(jobs)
      .values({ kind, payload: { orderId: 424242 }, runAt: future })
      .returning({ id: jobs.id });
    await runDueJobs({ db: db(), handlers, log: silent, now: () => future });
    const [failed] = await db().select().from(jobs).where(eq(jobs.id, job!.id));
    expect(failed).toMatchObject({ doneAt: null, lastError: 'SMTP down' });
    failMail = false;
    await runDueJobs({ db: db(), handlers, log: silent, now: () => new Date(future.getTime() + 3_600_000) });
    expect((await readSmsOutbox(dir)).map((m) => m.phone)).toEqual(['79970000001']);
    expect(letters).toEqual(['retry@example.com']);

    // The same notice enqueued twice (two processes, a replayed event), run by two runners at once.
    await db()
      .insert(jobs)
      .values([0, 1].map(() => ({ kind, payload: { orderId: 434343 }, runAt: future })));
    await Promise.all(
      [0, 1].map(() =>
        runDueJobs({ db: db(), handlers, log: silent, now: () => new Date(future.getTime() + 7_200_000) }),
      ),
    );
    // A run that found the other one mid-send is retried later and then skips what went.
    await runDueJobs({ db: db(), handlers, log: silent, now: () => new Date(future.getTime() + 30 * 86_400_000) });
    expect((await readSmsOutbox(dir)).filter((m) => m.text.includes('№434343'))).toHaveLength(1);
    expect(letters.filter((to) => to === 'retry@example.com')).toHaveLength(2);
    const left = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(jobs)
      .where(and(eq(jobs.kind, kind), sql`${jobs.doneAt} is null`));
    expect(Number(left[0]?.n)).toBe(0);
  });

  it('a job that tells one phone of two sizes back in stock sends both (each waiting-list entry its own key), once', async () => {
    const dir = fs.mkdtempSync(path.join(shop.dataDir, 'stock-'));
    const sms = recordedSms(db(), createOfflineSms({ outboxDir: dir }));
    const kind = `test.restock.${process.pid}`;
    const entry = (id: number) => ({ id, phone: '79970000002', name: 'Анна' });
    const handlers = {
      [kind]: async () =>
        sendBackInStock({
          db: db(),
          sms,
          log: silent,
          siteUrl: 'http://shop.test',
          notices: [
            { offerId: 1, size: '42', product: undefined, waiting: [entry(900_000_001)] },
            { offerId: 2, size: '44', product: undefined, waiting: [entry(900_000_002)] },
          ],
        }),
    };
    const future = new Date(Date.now() + 10 * 365 * 86_400_000);
    const [job] = await db()
      .insert(jobs)
      .values({ kind, payload: { orderId: 454545 }, runAt: future })
      .returning({ id: jobs.id });
    await runDueJobs({ db: db(), handlers, log: silent, now: () => future });
    // Run again, as after a crash: nothing new.
    await db().update(jobs).set({ doneAt: null }).where(eq(jobs.id, job!.id));
    await runDueJobs({ db: db(), handlers, log: silent, now: () => new Date(future.getTime() + 3_600_000) });
    expect((await readSmsOutbox(dir)).map((m) => m.text.match(/^Размер (\S+)/)?.[1])).toEqual(['42', '44']);
  });
});
