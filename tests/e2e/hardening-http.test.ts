import { describe, expect, it } from 'vitest';
import { products } from '~/db/schema';
import { ACTION_GUARD_TEXT } from '~/server/action-guard.server';
import { setUpTestShop } from '~/tests/support/server';
import { customerMaker } from '~/tests/support/session';

// Issue #27 (hardening), over HTTP against the built storefront: the one guard in front of every
// action (bug 1), cookies the shop cannot read (bug 3), cross-site requests and logout (item 8).

const shop = setUpTestShop({ withStorefront: true });
const customer = customerMaker(shop, '7955');
const send = (path: string, init: RequestInit = {}) => fetch(`${shop.baseUrl}${path}`, { redirect: 'manual', ...init });
const sameOrigin = () => ({ origin: shop.baseUrl });

const ACTIONS = [
  '/auth/',
  '/auth/email/',
  '/logout/',
  '/wishlist/toggle/',
  '/basket/pay/',
  '/basket/pay/check/',
  '/personal/',
  '/basket/',
];
/** Resource routes: their callers are the shop's scripts, which read JSON. */
const RESOURCES = new Set(['/wishlist/toggle/', '/basket/pay/check/']);

/** The guard's answer: a page a person reads, or for a script's route the same text in JSON. */
async function expectRefusal(res: Response, path: string, refusal: keyof typeof ACTION_GUARD_TEXT) {
  if (RESOURCES.has(path)) {
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ error: ACTION_GUARD_TEXT[refusal].text });
  } else {
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain(ACTION_GUARD_TEXT[refusal].title);
  }
}

const BROKEN_MULTIPART = '--xyz\r\ncontent-disposition: form-data; name="intent"\r\n\r\nsend\r\n--xy';

describe('the action guard (bug 1)', () => {
  it.each(ACTIONS)(
    '%s: a body that is not a form is 415 (400 for a broken multipart), a short Russian page, never 500',
    async (path) => {
      const { token } = await customer();
      const headers = { ...sameOrigin(), accept: 'text/html', cookie: `token=${token}` };
      for (const [type, body] of [
        ['application/json', '{"intent":"send","phone":"79990000000"}'],
        ['text/plain', 'intent=send'],
      ]) {
        const res = await send(path, { method: 'POST', headers: { ...headers, 'content-type': type as string }, body });
        expect(res.status, `${path} ${type}`).toBe(415);
        await expectRefusal(res, path, 'form');
      }
      const noType = await send(path, { method: 'POST', headers, body: new Uint8Array([1, 2, 3]) });
      expect(noType.status).toBe(415);
      const broken = await send(path, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'multipart/form-data; boundary=xyz' },
        body: BROKEN_MULTIPART,
      });
      expect(broken.status).toBe(400);
      await expectRefusal(broken, path, 'form');
    },
  );

  it.each(ACTIONS)('%s: DELETE, PATCH and PUT are 405 with Allow', async (path) => {
    for (const method of ['DELETE', 'PATCH', 'PUT']) {
      const res = await send(path, {
        method,
        headers: { ...sameOrigin(), accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'intent=send',
      });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
      await expectRefusal(res, path, 'method');
    }
  });

  it('answers a JSON caller of a page in JSON', async () => {
    const res = await send('/auth/', {
      method: 'POST',
      headers: { ...sameOrigin(), accept: 'application/json', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: ACTION_GUARD_TEXT.form.text });
  });

  it('a POST where no action is: 405 with Allow GET, HEAD', async () => {
    for (const path of ['/catalog/', '/', '/about/', '/no-such-page/']) {
      const res = await send(path, {
        method: 'POST',
        headers: { ...sameOrigin(), accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'a=1',
      });
      expect(res.status, path).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('a form with a control character is refused at the edge (bug 2), not passed on to the API', async () => {
    for (const [path, body] of [
      ['/auth/email/', 'intent=send-email&email=a%00%40b.ru&captcha=x'],
      ['/auth/', 'intent=send&phone=7999%00&captcha=x'],
      ['/auth/', 'intent=verify&phone=79990000000&code=12%0534'],
    ]) {
      const res = await send(path as string, {
        method: 'POST',
        headers: { ...sameOrigin(), accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      expect(res.status, body).toBe(400);
      await expectRefusal(res, path as string, 'form');
    }
  });

  it('lets a real form through', async () => {
    const res = await send('/auth/', {
      method: 'POST',
      headers: { ...sameOrigin(), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'intent=nothing',
    });
    // The route's own answer to an unknown intent.
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Неверный запрос');
  });
});

describe('cookies the shop cannot read (bug 3)', () => {
  const JUNK = [
    'x'.repeat(1001),
    `${'a'.repeat(600)}.${'b'.repeat(600)}.${'c'.repeat(600)}`,
    'a.b.c',
    '%E0%A4%A',
    '"quoted"',
    'a%00b.c.d',
  ];
  it.each(JUNK.map((v) => [v.slice(0, 20), v]))(
    'token=%s… is no session: personal pages go to /auth/, /auth/ shows the form',
    async (_, value) => {
      for (const path of ['/personal/', '/wishlist/']) {
        const res = await send(path, { headers: { cookie: `token=${value}` } });
        expect(res.status, path).toBe(302);
        expect(res.headers.get('location')).toBe('/auth/');
      }
      const auth = await send('/auth/', { headers: { cookie: `token=${value}` } });
      expect(auth.status).toBe(200);
      const basket = await send('/basket/', { headers: { cookie: `token=${value}; cart=1:1` } });
      expect(basket.status).toBe(200);
    },
  );
});

describe('cross-site requests (item 8)', () => {
  async function productId(): Promise<number> {
    const [row] = await shop.database.db.select({ id: products.id }).from(products).limit(1);
    return row!.id;
  }

  it('refuses a cross-site POST /wishlist/toggle/ and changes nothing; the shop’s own is served', async () => {
    const { token } = await customer();
    const id = await productId();
    const body = new URLSearchParams({ intent: 'add', id: String(id) }).toString();
    const headers = {
      cookie: `token=${token}`,
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    };
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1.evil.example']) {
      const res = await send('/wishlist/toggle/', { method: 'POST', headers: { ...headers, origin }, body });
      expect(res.status, origin).toBe(403);
      expect(await res.json()).toEqual({ error: ACTION_GUARD_TEXT.origin.text });
    }
    // No Origin but the browser says the request is cross-site.
    const fetchSite = await send('/wishlist/toggle/', {
      method: 'POST',
      headers: { ...headers, 'sec-fetch-site': 'cross-site' },
      body,
    });
    expect(fetchSite.status).toBe(403);
    const remove = new URLSearchParams({ intent: 'remove', id: String(id) }).toString();
    const empty = await send('/wishlist/toggle/', {
      method: 'POST',
      headers: { ...headers, ...sameOrigin() },
      body: remove,
    });
    expect(await empty.json()).toEqual({ ids: [] });
    const own = await send('/wishlist/toggle/', { method: 'POST', headers: { ...headers, ...sameOrigin() }, body });
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ ids: [id] });
  });

  it('refuses cross-site document actions the same way (a person sees a page)', async () => {
    const res = await send('/auth/', {
      method: 'POST',
      headers: {
        origin: 'https://evil.example',
        accept: 'text/html',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'intent=send&phone=79990000000',
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(ACTION_GUARD_TEXT.origin.title);
  });

  it('GET /logout/ shows a button and logs nobody out; the POST does', async () => {
    const { token } = await customer();
    const cookie = `token=${token}; cart=1:1`;
    const page = await send('/logout/', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie()).toEqual([]);
    const html = await page.text();
    const form = /<form[^>]*>/.exec(html.slice(html.indexOf('<main')))?.[0] ?? '';
    expect(form).toContain('method="post"');
    expect(form).toContain('action="/logout/"');
    expect(html).toContain('>Выйти</button>');
    expect((await send('/personal/', { headers: { cookie } })).status).toBe(200);

    // A cross-site POST is refused too.
    const forged = await send('/logout/', {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(forged.status).toBe(403);
    expect((await send('/personal/', { headers: { cookie } })).status).toBe(200);

    const out = await send('/logout/', {
      method: 'POST',
      headers: { cookie, ...sameOrigin(), 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe('/auth/');
    const cleared = out.headers.getSetCookie().map((c) => c.split('=')[0]);
    expect(cleared).toEqual(expect.arrayContaining(['phone', 'token', 'favourites', 'views', 'cart']));
    // The session is revoked on the server, not only forgotten by this browser.
    expect((await send('/personal/', { headers: { cookie } })).status).toBe(302);
  });

  it('a guest opening /logout/ goes to /auth/', async () => {
    const res = await send('/logout/');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth/');
  });
});
