import path from 'node:path';
import { eq, like, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { newsletterSubscriptions, rateCounters } from '~/db/schema';
import {
  NEWSLETTER_CONFIRM_TAG,
  NEWSLETTER_IP_LIMIT,
  NEWSLETTER_TEXT,
  NEWSLETTER_WELCOME_TAG,
} from '~/core/newsletter';
import { ApiError, NewsletterLinkResponse, NewsletterResponse } from '~/shared/contract';
import { lastMailTo as lastMailToIn, readMailOutbox } from '~/integrations/mail/offline.server';
import { expectContract, fetchJson } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';

// SPEC §7 `POST /api/personal/subscribe_form.php` over HTTP, on PGlite or (TEST_DATABASE_URL)
// PostgreSQL: the subscription, the confirmation letter in the offline outbox, the answers the
// footer form shows, and the per-IP limit under concurrent requests. Issue #26: double opt-in
// (pending until the letter's link is confirmed) and the unsubscribe link and headers of every
// marketing letter, through `POST /api/newsletter/{status,confirm,unsubscribe}`.

// The per-hour windows are read on a clock held in the middle of one hour: no test waits for the wall clock.
const RATE_NOW = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + 1_800_000);
const shop = setUpTestShop({ rateClock: () => RATE_NOW });
const db = () => shop.database.db;
const outbox = () => readMailOutbox(path.join(shop.dataDir, 'outbox'));
const lastMailTo = (to: string, tag?: string) => lastMailToIn(path.join(shop.dataDir, 'outbox'), to, tag);
const PATH = '/api/personal/subscribe_form.php';

const post = (body: string, contentType = 'application/x-www-form-urlencoded'): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': contentType },
  body,
});

async function subscribe(email: string) {
  const { response, body } = await fetchJson(`${shop.baseUrl}/backend`, PATH, NewsletterResponse, {
    init: post(new URLSearchParams({ email }).toString()),
  });
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  return body;
}

async function subscribers(): Promise<string[]> {
  const rows = await db()
    .select({ email: newsletterSubscriptions.email })
    .from(newsletterSubscriptions)
    .orderBy(newsletterSubscriptions.email);
  return rows.map((r) => r.email);
}

async function statusOf(email: string): Promise<string | undefined> {
  const [row] = await db()
    .select({ status: newsletterSubscriptions.status })
    .from(newsletterSubscriptions)
    .where(eq(newsletterSubscriptions.email, email));
  return row?.status;
}

async function link(action: 'status' | 'confirm' | 'unsubscribe', token: unknown) {
  const { body } = await fetchJson(`${shop.baseUrl}/backend`, `/api/newsletter/${action}`, NewsletterLinkResponse, {
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) },
  });
  return body;
}

/** The token of the link in a letter's text (`…/newsletter/confirm/?token=…`). */
function tokenIn(text: string | undefined, page: 'confirm' | 'unsubscribe'): string {
  const match = new RegExp(`http://shop\\.test/newsletter/${page}/\\?token=([A-Za-z0-9_-]+)`).exec(text ?? '');
  expect(match, `a /newsletter/${page}/ link in ${text}`).not.toBeNull();
  return match![1]!;
}

describe('POST /api/personal/subscribe_form.php', () => {
  // Every test here subscribes from one IP: each starts with the hour's allowance.
  beforeEach(async () => {
    await db().delete(rateCounters).where(like(rateCounters.key, 'newsletter:%'));
  });

  it('keeps a new address lower-cased and pending, and sends it one letter with the confirmation link, nothing else', async () => {
    expect(await subscribe('  Anna.Petrova@Example.COM ')).toEqual({ message: NEWSLETTER_TEXT.checkMail });
    expect(await subscribers()).toContain('anna.petrova@example.com');
    expect(await statusOf('anna.petrova@example.com')).toBe('pending');

    const letters = (await outbox()).filter((m) => m.to === 'anna.petrova@example.com');
    expect(letters).toHaveLength(1);
    const [letter] = letters;
    expect(letter).toMatchObject({
      from: 'Vitrina <hello@vitrina.ru>',
      subject: 'Подтвердите подписку на рассылку Vitrina',
      tag: NEWSLETTER_CONFIRM_TAG,
    });
    expect(letter?.text).toContain('подтвердите подписку по ссылке');
    // The shop's address (PUBLIC_SITE_URL) is in both parts, and the link too.
    expect(letter?.text).toContain('http://shop.test');
    expect(letter?.html).toContain('href="http://shop.test"');
    const token = tokenIn(letter?.text, 'confirm');
    expect(letter?.html).toContain(`href="http://shop.test/newsletter/confirm/?token=${token}"`);
    // 32 random bytes: nobody confirms an address by guessing.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(path.basename(letter?.file ?? '')).toMatch(/\.eml$/);
    expect(await link('status', token)).toEqual({ status: 'pending', email: 'an***@example.com', changed: false });
  });

  it('confirms by the letter’s token only: then one welcome letter with an unsubscribe link and one-click headers', async () => {
    expect(await subscribe('vera@example.com')).toEqual({ message: NEWSLETTER_TEXT.checkMail });
    expect(await subscribe('other@example.com')).toEqual({ message: NEWSLETTER_TEXT.checkMail });
    const token = tokenIn((await outbox()).find((m) => m.to === 'vera@example.com')?.text, 'confirm');
    const otherToken = tokenIn((await outbox()).find((m) => m.to === 'other@example.com')?.text, 'confirm');
    expect(otherToken).not.toBe(token);

    // A wrong, malformed or missing token confirms nothing.
    for (const bad of [
      token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'),
      'x',
      '',
      'a'.repeat(43) + "' or 1=1 --",
    ]) {
      expect(await link('confirm', bad)).toEqual({ status: 'unknown', email: null, changed: false });
    }
    expect(await statusOf('vera@example.com')).toBe('pending');

    expect(await link('confirm', token)).toEqual({ status: 'confirmed', email: 've***@example.com', changed: true });
    expect(await statusOf('vera@example.com')).toBe('confirmed');
    expect(await statusOf('other@example.com')).toBe('pending');
    // A second click: the same state, no second letter.
    expect(await link('confirm', token)).toEqual({ status: 'confirmed', email: 've***@example.com', changed: false });
    const welcomes = (await outbox()).filter((m) => m.to === 'vera@example.com' && m.tag === NEWSLETTER_WELCOME_TAG);
    expect(welcomes).toHaveLength(1);
    const [welcome] = welcomes;
    expect(welcome?.subject).toBe('Вы подписались на рассылку Vitrina');
    // RFC 2369 + RFC 8058: the mail client's own "unsubscribe" button POSTs to this address.
    const unsubscribeUrl = `http://shop.test/newsletter/unsubscribe/?token=${token}`;
    expect(welcome?.headers['list-unsubscribe']).toBe(`<${unsubscribeUrl}>`);
    expect(welcome?.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(welcome?.text).toContain(`Отписаться можно в один клик:\n\n${unsubscribeUrl}`);
    expect(welcome?.html).toContain(`<a href="${unsubscribeUrl}">Отписаться от рассылки</a>`);

    expect(await subscribe('vera@example.com')).toEqual({ message: NEWSLETTER_TEXT.already });
  });

  it('unsubscribes by the token without a login; subscribing again needs a new confirmation with a new token', async () => {
    expect(await subscribe('gleb@example.com')).toEqual({ message: NEWSLETTER_TEXT.checkMail });
    const token = tokenIn((await lastMailTo('gleb@example.com'))?.text, 'confirm');
    expect((await link('confirm', token)).status).toBe('confirmed');

    expect(await link('unsubscribe', 'y'.repeat(43))).toEqual({ status: 'unknown', email: null, changed: false });
    expect(await link('unsubscribe', token)).toEqual({
      status: 'unsubscribed',
      email: 'gl***@example.com',
      changed: true,
    });
    expect(await link('unsubscribe', token)).toEqual({
      status: 'unsubscribed',
      email: 'gl***@example.com',
      changed: false,
    });
    expect(await statusOf('gleb@example.com')).toBe('unsubscribed');
    // The old confirmation link does not bring the address back.
    expect(await link('confirm', token)).toEqual({
      status: 'unsubscribed',
      email: 'gl***@example.com',
      changed: false,
    });
    expect(await statusOf('gleb@example.com')).toBe('unsubscribed');

    expect(await subscribe('gleb@example.com')).toEqual({ message: NEWSLETTER_TEXT.checkMail });
    expect(await statusOf('gleb@example.com')).toBe('pending');
    const again = tokenIn((await lastMailTo('gleb@example.com', NEWSLETTER_CONFIRM_TAG))?.text, 'confirm');
    expect(again).not.toBe(token);
    expect((await link('status', token)).status).toBe('unknown');
    expect((await link('confirm', again)).changed).toBe(true);
  });

  it('sends the same link again to an address still pending', async () => {
    expect(await subscribe('lida@example.com')).toEqual({ message: NEWSLETTER_TEXT.checkMail });
    expect(await subscribe('LIDA@example.com')).toEqual({ message: NEWSLETTER_TEXT.checkMail });
    const letters = (await outbox()).filter((m) => m.to === 'lida@example.com');
    expect(letters.map((m) => m.tag)).toEqual([NEWSLETTER_CONFIRM_TAG, NEWSLETTER_CONFIRM_TAG]);
    expect(tokenIn(letters[1]?.text, 'confirm')).toBe(tokenIn(letters[0]?.text, 'confirm'));
  });

  it('answers a repeat of a confirmed address politely, whatever the case, and sends nothing more', async () => {
    expect(await subscribe('boris@example.com')).toEqual({ message: NEWSLETTER_TEXT.checkMail });
    expect((await link('confirm', tokenIn((await lastMailTo('boris@example.com'))?.text, 'confirm'))).status).toBe(
      'confirmed',
    );
    const before = (await outbox()).length;
    expect(await subscribe('boris@example.com')).toEqual({ message: NEWSLETTER_TEXT.already });
    expect(await subscribe('BORIS@example.com')).toEqual({ message: NEWSLETTER_TEXT.already });
    expect((await outbox()).length).toBe(before);
    expect((await subscribers()).filter((e) => e === 'boris@example.com')).toHaveLength(1);
  });

  it('answers a bad address with the text to show above the field, storing and sending nothing', async () => {
    const before = { subscribers: (await subscribers()).length, letters: (await outbox()).length };
    const bad = [
      '',
      '   ',
      'anna',
      'anna@',
      '@example.com',
      'anna@example',
      'an na@example.com',
      'anna@@example.com',
      `${'a'.repeat(245)}@example.com`,
    ];
    for (const email of bad)
      expect(await subscribe(email), JSON.stringify(email)).toEqual({ error: NEWSLETTER_TEXT.badEmail });
    // No field at all: the same answer.
    const { body } = await fetchJson(`${shop.baseUrl}/backend`, PATH, NewsletterResponse, { init: post('') });
    expect(body).toEqual({ error: NEWSLETTER_TEXT.badEmail });
    expect((await subscribers()).length).toBe(before.subscribers);
    expect((await outbox()).length).toBe(before.letters);
  });

  it('answers 400 with the error shape to a body no form sends', async () => {
    const junk: RequestInit[] = [
      post('email[a]=x@example.com'),
      post('{"email":{"a":1}}', 'application/json'),
      post('{"email":', 'application/json'),
      post('["x@example.com"]', 'application/json'),
      post(`email=${'a'.repeat(70_000)}`),
    ];
    for (const init of junk) {
      const res = await fetch(`${shop.baseUrl}/backend${PATH}`, init);
      expect(res.status, String(init.body).slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expectContract(ApiError, await res.json());
    }
    const res = await fetch(`${shop.baseUrl}/backend${PATH}`, post('email[a]=x@example.com'));
    expect(res.status).toBe(400);
  });

  // Last: it uses up this IP's hour.
  it(`lets one IP subscribe at most ${NEWSLETTER_IP_LIMIT.limit} times an hour, also when the requests come at once`, async () => {
    // The window is the clock hour: the shop's rate clock stands still inside one, so the burst never straddles two.
    await db().delete(rateCounters).where(like(rateCounters.key, 'newsletter:%'));

    const addresses = Array.from({ length: 15 }, (_, i) => `burst${i}@example.com`);
    const answers = await Promise.all(addresses.map((email) => subscribe(email)));
    const accepted = addresses.filter((_, i) => 'message' in answers[i]!);
    expect(accepted).toHaveLength(NEWSLETTER_IP_LIMIT.limit);
    expect(answers.filter((a) => 'error' in a)).toEqual(
      Array(15 - NEWSLETTER_IP_LIMIT.limit).fill({ error: NEWSLETTER_TEXT.tooMany }),
    );

    // Exactly the accepted ones are subscribed and have a letter.
    expect((await subscribers()).filter((e) => e.startsWith('burst'))).toEqual([...accepted].sort());
    const letters = (await outbox()).filter((m) => m.to.startsWith('burst'));
    expect(letters.map((m) => m.to).sort()).toEqual([...accepted].sort());

    // Refused tries do not count further; a bad address is still told so first.
    expect(await subscribe('late@example.com')).toEqual({ error: NEWSLETTER_TEXT.tooMany });
    expect(await subscribe('not-an-address')).toEqual({ error: NEWSLETTER_TEXT.badEmail });
    const [counter] = await db()
      .select({ count: rateCounters.count })
      .from(rateCounters)
      .where(sql`${rateCounters.key} like 'newsletter:ip:%'`);
    expect(counter?.count).toBe(NEWSLETTER_IP_LIMIT.limit);
    expect(
      await db().select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, 'late@example.com')),
    ).toEqual([]);
  });
});
