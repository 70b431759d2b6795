import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customers } from '~/db/schema';
import { CustomerListResponse, CustomerOneResponse } from '~/shared/admin-contract';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract } from '~/tests/support/api';
import { sessionToken } from '~/tests/support/session';
import { admin, staffSession, testClock } from '~/tests/support/admin';

// The back office's customers (issue #29), read part, on PGlite and (TEST_DATABASE_URL)
// PostgreSQL: content and warehouse may not see customers; search by phone, e-mail and name.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });

describe('customers', () => {
  it('are seen by manager and admin only, found by phone, e-mail and name', async () => {
    const { customerId } = await sessionToken(shop, '79991234567');
    await shop.database.db.update(customers).set({ firstName: 'Мария', lastName: 'Соколова', email: 'maria@example.ru' }).where(eq(customers.id, customerId));
    for (const role of ['admin', 'manager', 'warehouse', 'content'] as const) {
      const { cookie } = await staffSession(shop, clock, { email: `${role}@customers.example`, role });
      const allowed = role === 'admin' || role === 'manager';
      expect((await admin(shop, '/customers', { cookie })).status, role).toBe(allowed ? 200 : 403);
      expect((await admin(shop, `/customers/${customerId}`, { cookie })).status, role).toBe(allowed ? 200 : 403);
      if (!allowed) continue;
      for (const q of ['1234567', 'maria@', 'Соколова', 'мария']) {
        const list = expectContract(CustomerListResponse, (await admin(shop, `/customers?q=${encodeURIComponent(q)}`, { cookie })).body);
        expect(
          list.data.map((c) => c.id),
          q,
        ).toContain(customerId);
      }
      const one = expectContract(CustomerOneResponse, (await admin(shop, `/customers/${customerId}`, { cookie })).body);
      expect(one.data).toMatchObject({ id: customerId, phone: '79991234567', email: 'maria@example.ru', name: 'Соколова Мария', orders: [], returns: [] });
    }
    expect((await admin(shop, '/customers')).status).toBe(401);
  });
});
