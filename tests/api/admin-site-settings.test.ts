import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queryRows } from '~/db/client.server';
import { AuditItem } from '~/shared/admin-contract';
import { SITE_DEFAULTS, SiteSettings, SiteSettingsRecord } from '~/shared/site-settings';
import { setUpTestShop } from '~/tests/support/server';
import { eventually, expectContract } from '~/tests/support/api';
import { admin, staffSession, testClock } from '~/tests/support/admin';

// «Тексты сайта» (issue #30 "The site's words", last bullet) over HTTP, on PGlite and
// (TEST_DATABASE_URL) PostgreSQL: today's texts on a fresh shop; roles content and admin only;
// Russian validation errors with nothing written; a save at a version (the older copy is refused
// in Russian); the audit's before and after; and a guest's page (the built storefront) showing
// the edited banner, home title and shop hours through the data version.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now, withStorefront: true });
const db = () => shop.database.db;
const One = z.object({ data: SiteSettingsRecord.extend({ audit: z.array(AuditItem) }) });

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
const sessions: Partial<Record<Role, Awaited<ReturnType<typeof staffSession>>>> = {};
async function as(role: Role) {
  sessions[role] ??= await staffSession(shop, clock, { email: `${role}@texts.example`, role });
  return sessions[role].cookie;
}
const read = async () =>
  expectContract(One, (await admin(shop, '/site-settings/storefront', { cookie: await as('content') })).body).data;
const page = async (path: string) => {
  const res = await fetch(`${shop.baseUrl}${path}`);
  return { status: res.status, html: await res.text() };
};
const auditRows = () =>
  queryRows<{ action: string; before: unknown; after: unknown }>(
    db(),
    sql`select action, before, after from audit_events where entity_type = 'site_settings' order by id`,
  );

describe("the site's texts", () => {
  it("are today's texts on a fresh shop, for staff and guests", async () => {
    const r = await read();
    expect(r).toMatchObject({ id: 'storefront', version: 1, updated_at: null, audit: [] });
    const { id: _id, version: _v, updated_at: _u, audit: _a, ...value } = r;
    expect(value).toEqual(SITE_DEFAULTS);
    const pub = await fetch(`${shop.baseUrl}/backend/site-settings/`);
    expect(expectContract(SiteSettings, await pub.json())).toEqual(SITE_DEFAULTS);
    const home = await page('/');
    expect(home.status).toBe(200);
    expect(home.html).toContain('Новая коллекция');
    expect(home.html).toContain('Малая Бронная улица, 24');
    expect(home.html).not.toContain('class="top-banner"');
  });

  it('are for the content and admin roles only', async () => {
    for (const role of ['manager', 'warehouse'] as const) {
      const cookie = await as(role);
      expect((await admin(shop, '/site-settings/storefront', { cookie })).status).toBe(403);
      const patch = await admin(shop, '/site-settings/storefront', {
        method: 'PATCH',
        cookie,
        body: { version: 1, home: { ...SITE_DEFAULTS.home, title: 'Чужой заголовок' } },
      });
      expect(patch.status).toBe(403);
    }
    expect((await admin(shop, '/site-settings/storefront')).status).toBe(401);
    expect((await admin(shop, '/site-settings/storefront', { cookie: await as('admin') })).status).toBe(200);
    expect((await admin(shop, '/site-settings/other', { cookie: await as('admin') })).status).toBe(404);
    expect(await auditRows()).toEqual([]);
  });

  it('refuses bad texts in Russian and writes nothing', async () => {
    const cookie = await as('content');
    const cases: [unknown, RegExp][] = [
      [{ version: 1, banner: { enabled: true, text: '', link: '' } }, /Укажите текст баннера или выключите его/],
      [
        { version: 1, banner: { enabled: false, text: 'x', link: 'javascript:alert(1)' } },
        /Ссылка баннера: адрес на этом сайте/,
      ],
      [{ version: 1, home: { ...SITE_DEFAULTS.home, title: '  ' } }, /Укажите: заголовок главной/],
      [
        { version: 1, home: { ...SITE_DEFAULTS.home, lead: 'я'.repeat(601) } },
        /Текст под заголовком: не длиннее 600 знаков/,
      ],
      [
        { version: 1, shops: [{ ...SITE_DEFAULTS.shops[0], phone: 'позвоните нам' }, SITE_DEFAULTS.shops[1]] },
        /Телефон: цифры, пробелы, скобки и дефисы/,
      ],
      [{ version: 1, shops: [] }, /Нужен хотя бы один магазин/],
      [
        { version: 1, chat: { ...SITE_DEFAULTS.chat, url: 'http://t.me/x' } },
        /Ссылка на мессенджер: полный адрес https:\/\//,
      ],
    ];
    for (const [body, error] of cases) {
      const res = await admin(shop, '/site-settings/storefront', { method: 'PATCH', cookie, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(error);
    }
    const r = await read();
    expect(r.version).toBe(1);
    expect(await auditRows()).toEqual([]);
  });

  it('saves an edit guests see, audited with before and after; the older copy is refused', async () => {
    const cookie = await as('content');
    const before = await read();
    const banner = { enabled: true, text: 'Бесплатная доставка от 10 000 ₽ до конца недели', link: '/delivery/' };
    const shops = [{ ...SITE_DEFAULTS.shops[0], hours: 'Ежедневно 10:00–23:00' }, SITE_DEFAULTS.shops[1]];
    const saved = await admin(shop, '/site-settings/storefront', {
      method: 'PATCH',
      cookie,
      body: { version: before.version, banner, home: { ...SITE_DEFAULTS.home, title: 'Зимняя коллекция' }, shops },
    });
    expect(saved.status).toBe(200);
    const data = expectContract(One, saved.body).data;
    expect(data).toMatchObject({ version: before.version + 1, banner, shops, chat: SITE_DEFAULTS.chat });
    expect(data.home.title).toBe('Зимняя коллекция');
    // The history the form shows on its next load.
    expect((await read()).audit.map((a) => a.action)).toEqual(['site_settings.update']);

    const [row] = await auditRows();
    expect(row?.before).toMatchObject({ banner: SITE_DEFAULTS.banner, home: { title: 'Новая коллекция' }, version: 1 });
    expect(row?.after).toMatchObject({ banner, home: { title: 'Зимняя коллекция' }, shops, version: 2 });

    // A colleague's form opened before this save: refused, nothing lost.
    const stale = await admin(shop, '/site-settings/storefront', {
      method: 'PATCH',
      cookie: await as('admin'),
      body: { version: before.version, chat: { ...SITE_DEFAULTS.chat, name: 'Анна, стилист' } },
    });
    expect(stale.status).toBe(409);
    expect((stale.body as { error: string }).error).toMatch(/уже изменил другой сотрудник/);
    expect((await read()).chat.name).toBe(SITE_DEFAULTS.chat.name);
    expect(await auditRows()).toHaveLength(1);

    // The guest: the banner over the header, the new title and hours, within the data version's bound.
    const home = await eventually(async () => {
      const p = await page('/');
      return p.html.includes('Бесплатная доставка от 10 000 ₽ до конца недели') ? p.html : null;
    }, 'the guest to see the banner');
    expect(home).toContain('class="top-banner"');
    expect(home).toContain('href="/delivery/"');
    expect(home).toContain('Зимняя коллекция');
    expect(home).toContain('Ежедневно 10:00–23:00');
    expect(home).not.toContain('Новая коллекция</h1>');
    // Another page's shell too (the footer's and the header's shops).
    const contacts = await page('/contacts/');
    expect(contacts.html).toContain('Бесплатная доставка от 10 000 ₽ до конца недели');
    expect(contacts.html).toContain('Ежедневно 10:00–23:00');

    // Switched off: the banner is gone again.
    const off = await admin(shop, '/site-settings/storefront', {
      method: 'PATCH',
      cookie,
      body: { version: data.version, banner: { ...banner, enabled: false } },
    });
    expect(off.status).toBe(200);
    await eventually(async () => !(await page('/')).html.includes('class="top-banner"'), 'the banner to go');
  });

  it('lets one of two saves at once through', async () => {
    const cur = await read();
    const save = async (role: Role, name: string) =>
      admin(shop, '/site-settings/storefront', {
        method: 'PATCH',
        cookie: await as(role),
        body: { version: cur.version, chat: { ...SITE_DEFAULTS.chat, name } },
      });
    const [a, b] = await Promise.all([save('content', 'Стилист Анна'), save('admin', 'Стилист Ольга')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const won = a.status === 200 ? 'Стилист Анна' : 'Стилист Ольга';
    expect((await read()).chat.name).toBe(won);
  });
});
