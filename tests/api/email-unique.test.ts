import fs from 'node:fs';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers, orders, sessions } from '~/db/schema';
import { ACCOUNT_TEXT } from '~/core/account';
import { ProfileChangeResponse } from '~/shared/contract';
import { fetchJson, postForm } from '~/tests/support/api';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';

// Issue #26 item 10: an e-mail belongs to one customer, whatever its letter case. The profile
// refuses another customer's address (also when two ask for it at the same moment), and
// migration 0014 resolved the duplicates made before: the address stays on the most recently
// active account and is cleared on the others (docs/email-ownership.md).

const shop = setUpTestShop();
const db = () => shop.database.db;
const api = () => `${shop.baseUrl}/backend`;
const customer = customerMaker(shop, '7956');

let seq = 0;
const freshEmail = () => `owner${++seq}.${Date.now()}@example.ru`;

async function changeEmail(token: string, email: string) {
  return (
    await fetchJson(api(), '/api/personal/profile_change.php', ProfileChangeResponse, {
      init: postForm({ token, 'change[email]': email }),
    })
  ).body;
}

const emailOf = async (id: number) =>
  (await db().select({ email: customers.email }).from(customers).where(eq(customers.id, id)))[0]?.email;

describe('one e-mail, one customer', () => {
  it('refuses an e-mail another customer has, in any letter case, and keeps both profiles as they were', async () => {
    const owner = await customer();
    const other = await customer();
    const email = freshEmail();
    expect(await changeEmail(owner.token, email)).toMatchObject({ success: true, profile: { EMAIL: email } });
    await changeEmail(other.token, 'mine@example.ru');

    const refused = await changeEmail(other.token, `  ${email.toUpperCase()} `);
    expect(refused).toEqual({ success: false, error: ACCOUNT_TEXT.emailTaken, field: 'email' });
    expect(await emailOf(owner.customerId)).toBe(email);
    expect(await emailOf(other.customerId)).toBe('mine@example.ru');
    // The owner may save their own address again.
    expect(await changeEmail(owner.token, email.toUpperCase())).toMatchObject({
      success: true,
      profile: { EMAIL: email },
    });
  });

  it('gives an e-mail asked for by two customers at the same moment to one of them', async () => {
    const shoppers = await Promise.all([customer(), customer(), customer(), customer()]);
    const email = freshEmail();
    const answers = await Promise.all(shoppers.map((s) => changeEmail(s.token, email)));
    expect(answers.filter((a) => a.success)).toHaveLength(1);
    expect(answers.filter((a) => !a.success)).toEqual([
      { success: false, error: ACCOUNT_TEXT.emailTaken, field: 'email' },
      { success: false, error: ACCOUNT_TEXT.emailTaken, field: 'email' },
      { success: false, error: ACCOUNT_TEXT.emailTaken, field: 'email' },
    ]);
    const holders = await db()
      .select({ id: customers.id })
      .from(customers)
      .where(sql`lower(${customers.email}) = ${email}`);
    expect(holders).toHaveLength(1);
  });

  it('migration 0014 keeps a duplicated e-mail on the most recently active account only, and makes it unique', async () => {
    const migration = fs.readFileSync(path.resolve('db/migrations/0014_email_unique.sql'), 'utf8');
    // The state before the migration: no index, the same address on several accounts.
    await db().execute(sql`drop index "customers_email_uq"`);
    const email = freshEmail();
    const at = (iso: string) => new Date(iso);
    const made = await db()
      .insert(customers)
      .values([
        // Signed up first, but logged in last: the most recently active.
        { phone: '79561110001', email, createdAt: at('2025-01-01T10:00:00Z') },
        // Signed up later, ordered once, long ago.
        { phone: '79561110002', email: email.toUpperCase(), createdAt: at('2025-03-01T10:00:00Z') },
        // The newest sign-up, never active since.
        { phone: '79561110003', email: ` ${email} `, createdAt: at('2025-06-01T10:00:00Z') },
        // A tie with nothing else: the higher id wins.
        { phone: '79561110004', email: 'tie@example.ru', createdAt: at('2025-02-01T10:00:00Z') },
        { phone: '79561110005', email: 'Tie@example.ru', createdAt: at('2025-02-01T10:00:00Z') },
        // Alone with its address: lower-cased, kept.
        { phone: '79561110006', email: 'Alone@Example.ru', createdAt: at('2025-02-01T10:00:00Z') },
      ])
      .returning({ id: customers.id });
    const ids = made.map((m) => m.id);
    const [active, ordered, newest, tieLow, tieHigh, alone] = ids as [number, number, number, number, number, number];
    await db()
      .insert(sessions)
      .values({
        id: `s-${Date.now()}`,
        customerId: active,
        createdAt: at('2025-09-01T10:00:00Z'),
        expiresAt: at('2026-09-01T10:00:00Z'),
      });
    await db()
      .insert(orders)
      .values({
        customerId: ordered,
        status: 'delivered',
        phone: '79561110002',
        itemsTotalKopecks: 100,
        totalKopecks: 100,
        createdAt: at('2025-07-01T10:00:00Z'),
      });

    for (const statement of migration.split('--> statement-breakpoint')) await db().execute(sql.raw(statement));

    const rows = await db()
      .select({ id: customers.id, email: customers.email })
      .from(customers)
      .where(inArray(customers.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r.email]));
    expect(byId.get(active)).toBe(email);
    expect(byId.get(ordered)).toBe('');
    expect(byId.get(newest)).toBe('');
    expect(byId.get(tieHigh)).toBe('tie@example.ru');
    expect(byId.get(tieLow)).toBe('');
    expect(byId.get(alone)).toBe('alone@example.ru');
    // The index is back: a second holder cannot be written even past the profile's check.
    await expect(
      db().update(customers).set({ email: 'TIE@example.ru' }).where(eq(customers.id, tieLow)),
    ).rejects.toThrow();
  });
});
