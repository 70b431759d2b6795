import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataProvider } from './data-provider';
import { allows } from './auth-provider';
import type { StaffMe } from '~/shared/admin-contract';

// The admin app's mapping of react-admin's calls onto the admin API (docs/back-office.md "Lists"),
// with fetch stubbed: the addresses, methods, headers and bodies it sends, and what it answers.

type Sent = { url: string; method: string; headers: Record<string, string>; body: unknown };
function stubFetch(answer: unknown, status = 200): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('document', { querySelector: () => ({ getAttribute: () => '/backend/admin' }) });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    // Reads first learn who is logged in (auth-provider's signedIn): not what these tests look at.
    if (url.endsWith('/auth/me'))
      return new Response(JSON.stringify({ data: { id: 1, permissions: [] } }), { status: 200 });
    sent.push({
      url,
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    });
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  });
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('admin data provider', () => {
  it('getList: sort, order, offset and limit from the page, filters as plain parameters', async () => {
    const sent = stubFetch({ data: [{ id: 1 }], total: 31 });
    const r = await dataProvider.getList('staff', {
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'email', order: 'DESC' },
      filter: { q: 'anna', role: 'manager', disabled: '', empty: null },
    });
    expect(r).toEqual({ data: [{ id: 1 }], total: 31 });
    expect(sent[0]?.url).toBe('/backend/admin/staff?sort=email&order=desc&offset=25&limit=25&q=anna&role=manager');
    expect(sent[0]?.method).toBe('GET');
  });

  it('getMany asks by ids; getManyReference filters by the target', async () => {
    const sent = stubFetch({ data: [], total: 0 });
    await dataProvider.getMany('staff', { ids: [3, 5] });
    await dataProvider.getManyReference('audit', {
      target: 'staff_id',
      id: 3,
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'at', order: 'DESC' },
      filter: {},
    });
    expect(sent.map((s) => s.url)).toEqual([
      '/backend/admin/staff?ids=3%2C5&limit=2',
      '/backend/admin/audit?sort=at&order=desc&offset=0&limit=10&staff_id=3',
    ]);
  });

  it('create POSTs with the Idempotency-Key of the form and keeps the link on the record', async () => {
    const sent = stubFetch({ data: { id: 7, email: 'a@b.ru' }, setup_url: 'http://x/admin/setup#token=t' }, 201);
    const r = await dataProvider.create('staff', {
      data: { email: 'a@b.ru', role: 'content' },
      meta: { idempotencyKey: 'form-key-123' },
    });
    expect(r.data).toEqual({ id: 7, email: 'a@b.ru', setup_url: 'http://x/admin/setup#token=t' });
    expect(sent[0]).toMatchObject({
      url: '/backend/admin/staff',
      method: 'POST',
      body: { email: 'a@b.ru', role: 'content' },
    });
    expect(sent[0]?.headers['idempotency-key']).toBe('form-key-123');
    expect(sent[0]?.headers['content-type']).toBe('application/json');
  });

  it('update PATCHes only what changed, and nothing when nothing did', async () => {
    const sent = stubFetch({ data: { id: 7, name: 'Б' } });
    await dataProvider.update('staff', {
      id: 7,
      data: { id: 7, email: 'a@b.ru', name: 'Б' },
      previousData: { id: 7, email: 'a@b.ru', name: 'А' },
    });
    const same = await dataProvider.update('staff', {
      id: 7,
      data: { id: 7, name: 'А' },
      previousData: { id: 7, name: 'А' },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ url: '/backend/admin/staff/7', method: 'PATCH', body: { name: 'Б' } });
    expect(same.data).toEqual({ id: 7, name: 'А' });
  });

  it('update compares objects and lists by value (a form hands back copies)', async () => {
    const sent = stubFetch({ data: { id: 3 } });
    const seo = { title: 'Т', description: '', keywords: '', text: '' };
    await dataProvider.update('products', {
      id: 3,
      data: { id: 3, seo: { ...seo }, section_ids: [4, 5], price: '9000' },
      previousData: { id: 3, seo, section_ids: [4, 5], price: '10000' },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ price: '9000' });
  });

  it('a named action POSTs to /<resource>/<id>/<name> with its key; a refusal is an HttpError with the Russian message', async () => {
    const sent = stubFetch({ error: 'Это последний администратор: его нельзя отключить', field: 'disabled' }, 409);
    const err = await dataProvider
      .action('staff', { id: 1, name: 'disable', body: {}, idempotencyKey: 'dialog-key-1' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      message: 'Это последний администратор: его нельзя отключить',
      status: 409,
      body: { field: 'disabled' },
    });
    expect(sent[0]).toMatchObject({ url: '/backend/admin/staff/1/disable', method: 'POST' });
    expect(sent[0]?.headers['idempotency-key']).toBe('dialog-key-1');
  });

  it('deleting is no admin operation', async () => {
    await expect(dataProvider.delete('staff', { id: 1 })).rejects.toThrow(/not an admin operation/);
  });
});

describe('admin access (canAccess)', () => {
  const who = (permissions: string[]) => ({ permissions }) as StaffMe;
  it('maps resources and actions onto the role permissions', () => {
    expect(allows(who(['staff:read']), 'staff', 'list')).toBe(true);
    expect(allows(who(['staff:read']), 'staff', 'edit')).toBe(false);
    expect(allows(who(['staff:read', 'staff:write']), 'staff', 'create')).toBe(true);
    expect(allows(who(['orders:read']), 'audit', 'list')).toBe(false);
    expect(allows(who(['audit:read']), 'unknown', 'list')).toBe(false);
    expect(allows(null, 'staff', 'list')).toBe(false);
  });
});
