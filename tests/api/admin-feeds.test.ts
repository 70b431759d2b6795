import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { AdminFeedsResponse } from '~/shared/contract';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract } from '~/tests/support/api';
import { admin, staffSession, testClock } from '~/tests/support/admin';

// The feeds' screen of the back office (issue #32) on PGlite and (TEST_DATABASE_URL) PostgreSQL:
// admin and content read and change the settings, manager and warehouse are refused; a change is
// audited with what it replaced and reaches the feed on its next request; a refused change writes
// nothing; one Idempotency-Key applies once.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const db = () => shop.database.db;

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
const sessions: Partial<Record<Role, Awaited<ReturnType<typeof staffSession>>>> = {};
async function as(role: Role) {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}@feeds.example`, role });
  return sessions[role];
}
const feedAudit = () =>
  queryRows<{
    action: string;
    before: { channels: { vk: { utm: object } } };
    after: { channels: { vk: { utm: object } } };
  }>(
    db(),
    sql`select action, before, after from audit_events where entity_type = 'settings' and entity_id = 'feeds' order by id`,
  );

describe('feeds in the back office', () => {
  it('are read and changed by admin and content only', async () => {
    for (const role of ['admin', 'manager', 'warehouse', 'content'] as const) {
      const { cookie } = await as(role);
      const allowed = role === 'admin' || role === 'content';
      const read = await admin(shop, '/feeds', { cookie });
      expect(read.status, role).toBe(allowed ? 200 : 403);
      if (!allowed) {
        expect((await admin(shop, '/feeds/settings', { cookie, body: {} })).status, role).toBe(403);
        continue;
      }
      const feeds = expectContract(AdminFeedsResponse, read.body).data;
      expect(feeds.feeds.map((f) => [f.channel, new URL(f.url).pathname])).toEqual([
        ['yandex', '/feeds/yandex.yml'],
        ['google', '/feeds/google.xml'],
        ['vk', '/feeds/vk.yml'],
      ]);
    }
    expect(await feedAudit()).toEqual([]);
  });

  it('saves UTM tags once per key, audited, and the VK feed carries them on its next request', async () => {
    const { cookie } = await as('content');
    const { settings } = expectContract(AdminFeedsResponse, (await admin(shop, '/feeds', { cookie })).body).data;
    const changed = {
      ...settings,
      channels: {
        ...settings.channels,
        vk: { ...settings.channels.vk, utm: { utm_source: 'vk', utm_campaign: 'autumn' } },
      },
    };
    const key = 'feeds-settings-autumn-1';
    const first = await admin(shop, '/feeds/settings', { cookie, body: changed, key });
    expect(first.status).toBe(200);
    const again = await admin(shop, '/feeds/settings', { cookie, body: changed, key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const saved = expectContract(AdminFeedsResponse, first.body).data;
    expect(saved.settings.channels.vk.utm).toEqual({ utm_source: 'vk', utm_campaign: 'autumn' });
    const audit = await feedAudit();
    expect(audit.map((a) => a.action)).toEqual(['feeds.settings']);
    expect(audit[0]?.before.channels.vk.utm).toEqual(settings.channels.vk.utm);
    expect(audit[0]?.after.channels.vk.utm).toEqual({ utm_source: 'vk', utm_campaign: 'autumn' });

    const vk = await fetch(`${shop.baseUrl}/feeds/vk.yml`);
    expect(vk.status).toBe(200);
    const text = await vk.text();
    expect(text).toContain('utm_source=vk&amp;utm_campaign=autumn');
  });

  it('refuses bad settings with the field and its Russian text, and writes nothing', async () => {
    const { cookie } = await as('admin');
    const { settings } = expectContract(AdminFeedsResponse, (await admin(shop, '/feeds', { cookie })).body).data;
    const before = (await feedAudit()).length;
    for (const [field, value, text] of [
      ['imageWidth', 100, 'Ширина фото не меньше 320'],
      ['vendor', '', 'Укажите бренд'],
    ] as const) {
      const bad = await admin(shop, '/feeds/settings', { cookie, body: { ...settings, [field]: value } });
      expect(bad.status, field).toBe(400);
      expect(JSON.stringify(bad.body), field).toContain(text);
    }
    expect((await feedAudit()).length).toBe(before);
    const now = expectContract(AdminFeedsResponse, (await admin(shop, '/feeds', { cookie })).body).data;
    expect(now.settings.imageWidth).toBe(settings.imageWidth);
  });
});
