import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { MOSCOW_COURIER_PRICE_KOPECKS } from '~/core/delivery';
import { StaffOrderStatusResponse } from '~/api/staff/routes.server';
import {
  CheckoutOrderResponse,
  PaymentParamsResponse,
  ReturnCreateResponse,
  type PaymentWidgetParams,
} from '~/shared/contract';
import { fetchJson, getJson, postForm } from './api';
import { DESKTOP, type Shopper, type Viewport } from './browser';
import { courierForm, type FreshOffer } from './checkout';
import { staffSession, staffToken, type TestClock } from './admin';
import type { TestShop as RunningShop } from './server';

type TestShop = Omit<RunningShop, 'close'>;

// The back office in the browser (issue #29): staff pages logged in through the API (the login
// screen has its own test), axe in the admin's strict CSP, screenshots, and the data the screens
// need made through the shop's own API (a delivered card order, a return request).

/** A page whose context holds the session of a new staff member of `role` (made, enrolled and logged in over HTTP). */
export async function staffPage(
  shopper: Shopper,
  shop: TestShop,
  clock: TestClock,
  { email, role, viewport = DESKTOP }: { email: string; role: string; viewport?: Viewport },
): Promise<{ page: Page; cookie: string; id: number }> {
  const { cookie, id } = await staffSession(shop, clock, { email, role });
  const page = await shopper.newPage(viewport);
  const [name, value] = cookie.split('=') as [string, string];
  await page.context().addCookies([{ name, value, url: shop.baseUrl, httpOnly: true, sameSite: 'Strict' }]);
  return { page, cookie, id };
}

/** The same session in another page of `viewport` (its own context). */
export async function samePageAt(shopper: Shopper, shop: TestShop, cookie: string, viewport: Viewport): Promise<Page> {
  const page = await shopper.newPage(viewport);
  const [name, value] = cookie.split('=') as [string, string];
  await page.context().addCookies([{ name, value, url: shop.baseUrl, httpOnly: true, sameSite: 'Strict' }]);
  return page;
}

/**
 * axe-core's serious and critical violations on the page, as `id: target` lines. The admin's CSP
 * refuses inline scripts, so axe is evaluated through the DevTools protocol rather than a script tag.
 */
export async function seriousAxeFaults(page: Page): Promise<string[]> {
  const source = fs.readFileSync(path.join(process.cwd(), 'node_modules/axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  return page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] };
    const axe = (window as unknown as { axe: { run(): Promise<Result> } }).axe;
    const { violations } = await axe.run();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.map(String).join(' ')}`));
  });
}

/** A full-page PNG named `name` in SHOTS_DIR, when set. */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

const staffInit = (shop: TestShop, fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${staffToken(shop)}` },
  body: new URLSearchParams(fields).toString(),
});

/** A Moscow-courier order of `quantity` × `offer` by the customer of `token`, paid on the offline CloudPayments page and delivered. */
export async function deliveredCardOrder(
  shop: TestShop,
  token: string,
  offer: FreshOffer,
  quantity = 2,
): Promise<number> {
  const api = `${shop.baseUrl}/backend`;
  expect(offer.price * quantity + MOSCOW_COURIER_PRICE_KOPECKS).toBeLessThan(4_000_000);
  const placed = await getJson(api, '/api/catalog/order.php', CheckoutOrderResponse, {
    init: postForm(courierForm(token, `${offer.id}:${quantity}`, { payment_id: '9' })),
  });
  if (!placed.success) throw new Error(JSON.stringify(placed.data));
  const orderId = placed.order_id;
  const params = await getJson(api, '/api/catalog/payment_params.php', PaymentParamsResponse, {
    init: postForm({ token, order_id: String(orderId) }),
  });
  if (!('payment' in params)) throw new Error(params.error);
  const p = Buffer.from(JSON.stringify((params.payment as PaymentWidgetParams).params)).toString('base64url');
  const res = await fetch(`${api}/api/cloudpayments/offline/charge/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ p, action: 'pay', code: '1234', card: '4242 4242 4242 4242' }),
  });
  expect(res.status).toBe(200);
  for (const status of ['confirmed', 'assembling', 'shipped', 'delivered']) {
    const { body } = await fetchJson(api, '/staff/orders/', StaffOrderStatusResponse, {
      init: staffInit(shop, { action: 'status', order_id: String(orderId), status }),
    });
    if (!body.data) throw new Error(JSON.stringify(body.errors));
  }
  return orderId;
}

/** The customer's return request for `quantity` of `offerId` in the order, filed from their account: its id. */
export async function returnRequest(
  shop: TestShop,
  token: string,
  orderId: number,
  offerId: number,
  quantity: number,
): Promise<number> {
  const made = await getJson(`${shop.baseUrl}/backend`, '/api/personal/return_add.php', ReturnCreateResponse, {
    init: postForm({
      token,
      order_id: String(orderId),
      reason: 'Не подошёл размер',
      [`items[${offerId}]`]: String(quantity),
    }),
  });
  if (!made.success) throw new Error(made.error);
  return made.id;
}
