import path from 'node:path';
import { eq, like, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newsletterSubscriptions, rateCounters } from '~/db/schema';
import { NEWSLETTER_IP_LIMIT, NEWSLETTER_TEXT, NEWSLETTER_WELCOME_TAG } from '~/core/newsletter';
import { ApiError, NewsletterResponse } from '~/shared/contract';
import { readMailOutbox } from '~/integrations/mail/offline.server';
import { expectContract, fetchJson } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';

// SPEC §7 `POST /api/personal/subscribe_form.php` over HTTP, on PGlite or (TEST_DATABASE_URL)
// PostgreSQL: the subscription, the confirmation letter in the offline outbox, the answers the
// footer form shows, and the per-IP limit under concurrent requests.

const shop = setUpTestShop();
const db = () => shop.database.db;
const outbox = () => readMailOutbox(path.join(shop.dataDir, 'outbox'));
const PATH = '/api/personal/subscribe_form.php';

const post = (body: string, contentType = 'application/x-www-form-urlencoded'): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': contentType },
  body,
});

async function subscribe(email: string) {
  const { response, body } = await fetchJson(`${shop.baseUrl}/backend`, PATH, NewsletterResponse, { init: post(new URLSearchParams({ email }).toString()) });
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  return body;
}

async function subscribers(): Promise<string[]> {
  const rows = await db().select({ email: newsletterSubscriptions.email }).from(newsletterSubscriptions).orderBy(newsletterSubscriptions.email);
  return rows.map((r) => r.email);
}

describe('POST /api/personal/subscribe_form.php', () => {
  it('subscribes a new address, kept lower-cased, and sends it one confirmation letter', async () => {
    expect(await subscribe('  Anna.Petrova@Example.COM ')).toEqual({ message: NEWSLETTER_TEXT.thanks });
    expect(await subscribers()).toContain('anna.petrova@example.com');

    const letters = (await outbox()).filter((m) => m.to === 'anna.petrova@example.com');
    expect(letters).toHaveLength(1);
    const [letter] = letters;
    expect(letter).toMatchObject({ from: 'Vitrina <hello@vitrina.ru>', subject: 'Вы подписались на рассылку Vitrina', tag: NEWSLETTER_WELCOME_TAG });
    expect(letter?.text).toContain('Спасибо, что подписались на рассылку Vitrina');
    // The shop's address (PUBLIC_SITE_URL) is in both parts.
    expect(letter?.text).toContain('http://shop.test');
    expect(letter?.html).toContain('href="http://shop.test"');
    expect(path.basename(letter?.file ?? '')).toMatch(/\.eml$/);
  });

  it('answers a repeat politely, whatever the case, and sends nothing more', async () => {
    expect(await subscribe('boris@example.com')).toEqual({ message: NEWSLETTER_TEXT.thanks });
    const before = (await outbox()).length;
    expect(await subscribe('boris@example.com')).toEqual({ message: NEWSLETTER_TEXT.already });
    expect(await subscribe('BORIS@example.com')).toEqual({ message: NEWSLETTER_TEXT.already });
    expect((await outbox()).length).toBe(before);
    expect((await subscribers()).filter((e) => e === 'boris@example.com')).toHaveLength(1);
  });

  it('answers a bad address with the text to show above the field, storing and sending nothing', async () => {
    const before = { subscribers: (await subscribers()).length, letters: (await outbox()).length };
    const bad = ['', '   ', 'anna', 'anna@', '@example.com', 'anna@example', 'an na@example.com', 'anna@@example.com', `${'a'.repeat(245)}@example.com`];
    for (const email of bad) expect(await subscribe(email), JSON.stringify(email)).toEqual({ error: NEWSLETTER_TEXT.badEmail });
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
    // The window is the clock hour: a burst must not straddle two of them.
    const toNextHour = 3_600_000 - (Date.now() % 3_600_000);
    if (toNextHour < 15_000) await new Promise((resolve) => setTimeout(resolve, toNextHour + 100));
    await db().delete(rateCounters).where(like(rateCounters.key, 'newsletter:%'));

    const addresses = Array.from({ length: 15 }, (_, i) => `burst${i}@example.com`);
    const answers = await Promise.all(addresses.map((email) => subscribe(email)));
    const accepted = addresses.filter((_, i) => 'message' in answers[i]!);
    expect(accepted).toHaveLength(NEWSLETTER_IP_LIMIT.limit);
    expect(answers.filter((a) => 'error' in a)).toEqual(Array(15 - NEWSLETTER_IP_LIMIT.limit).fill({ error: NEWSLETTER_TEXT.tooMany }));

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
    expect(await db().select().from(newsletterSubscriptions).where(eq(newsletterSubscriptions.email, 'late@example.com'))).toEqual([]);
  });
});
