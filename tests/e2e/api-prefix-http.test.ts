import { describe, expect, it } from 'vitest';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract } from '~/tests/support/api';
import { ApiError } from '~/shared/contract';

// With the storefront mounted, its catch-all page route must not answer under the API prefix:
// an unknown address or a wrong method there gets the API's JSON, never the HTML 404 page.

const shop = setUpTestShop({ withStorefront: true });
const call = (path: string, init: RequestInit = {}) => fetch(`${shop.baseUrl}${path}`, { redirect: 'manual', ...init });

async function expectJsonError(res: Response, what: string): Promise<void> {
  expect(res.headers.get('content-type'), what).toMatch(/^application\/json/);
  const text = await res.text();
  expect(text.length, what).toBeLessThan(200);
  expectContract(ApiError, JSON.parse(text), what);
}

describe('the API prefix beside the storefront', () => {
  it('answers an unknown address 404 as JSON, whatever the method', async () => {
    for (const [method, path] of [
      ['GET', '/backend/no-such-thing/'],
      ['GET', '/backend/api/personal/no-such.php'],
      ['POST', '/backend/no-such-thing/'],
      ['DELETE', '/backend/api/'],
      ['PUT', '/backend'],
    ] as const) {
      const res = await call(path, {
        method,
        ...(method === 'GET' ? {} : { body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      await expectJsonError(res, `${method} ${path}`);
    }
  });

  it('answers a method an address does not take 405 with Allow, as JSON', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/backend/catalog/woman/', 'GET, HEAD'],
      ['POST', '/backend/page-meta/?path=/', 'GET, HEAD'],
      ['GET', '/backend/api/personal/orders.php', 'POST'],
      ['PUT', '/backend/api/catalog/order.php', 'GET, HEAD, POST'],
    ] as const) {
      const res = await call(path, {
        method,
        ...(method === 'GET' ? {} : { body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      await expectJsonError(res, `${method} ${path}`);
    }
  });

  it('answers HEAD with headers only', async () => {
    for (const [path, status] of [
      ['/backend/no-such-thing/', 404],
      ['/backend/api/personal/orders.php', 405],
      ['/backend/catalog/?iscollection=no', 200],
    ] as const) {
      const res = await call(path, { method: 'HEAD' });
      expect(res.status, path).toBe(status);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(await res.text(), path).toBe('');
    }
  });

  it('leaves pages to the storefront', async () => {
    const res = await call('/no-such-page/');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await call('/backend/catalog/?iscollection=no')).status).toBe(200);
  });
});

describe('the security filter beside the storefront', () => {
  it('blocks a marker in an address the router cannot decode with its 403', async () => {
    for (const path of ['/catalog/%c0%ae%c0%ae/etc/passwd', '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/shadow']) {
      const res = await call(path);
      expect(res.status, path).toBe(403);
      expect(await res.text(), path).toBe('Доступ запрещен: обнаружена попытка внедрения вредоносного кода');
    }
  });
});
