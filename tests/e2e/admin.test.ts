import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, setUpBrowserShop } from '~/tests/support/browser';
import { admin, codeAt, createStaffByScript, enrol, linkToken, testClock } from '~/tests/support/admin';

// The back office in Chromium at 1280 px (issue #29): the first admin made by `npm run staff`'s
// function, enrolled through the one-time link with a TOTP code computed here, logged in with
// password and code; the staff list, a new account made in the app (its link shown once), the
// audit log; a manager who logs in sees neither Staff nor the log and is refused at their
// address. The page runs under its strict CSP with no violation. SHOTS_DIR=… saves screenshots.

const clock = testClock();
const { shop, it } = setUpBrowserShop({ clock: clock.now });
const SHOTS = process.env.SHOTS_DIR;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Records Content-Security-Policy violations in the page (read with `violations`). */
async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    const w = window as Window & { __csp?: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__csp?.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return () => page.evaluate(() => (window as Window & { __csp?: string[] }).__csp ?? []);
}

async function logIn(
  page: Page,
  { email, password, secret }: { email: string; password: string; secret: string },
  screenshots = false,
) {
  clock.advance(30_000);
  await page.goto('/admin/login');
  await page.getByRole('textbox', { name: 'Почта' }).fill(email);
  await page.getByLabel('Пароль').fill(password);
  if (screenshots) await shot(page, 'admin-login-1280');
  await page.getByRole('button', { name: 'Продолжить' }).click();
  const code = page.getByRole('textbox', { name: 'Код из приложения' });
  await code.waitFor();
  if (screenshots) {
    await code.fill(codeAt(secret, clock.now()).slice(0, 3));
    await shot(page, 'admin-totp-1280');
  }
  await code.fill(codeAt(secret, clock.now()));
  await page.getByRole('button', { name: 'Войти' }).click();
}

describe('back office', () => {
  it('the first admin enrols, logs in, sees staff and the audit log; a manager sees neither', async ({ shopper }) => {
    const PASSWORD = 'вишнёвый сад 1904';
    const first = await createStaffByScript(shop, {
      email: 'anna@vitrina.example',
      role: 'admin',
      name: 'Анна Петрова',
    });

    const page = await shopper.newPage(DESKTOP);
    const violations = await watchCsp(page);
    const response = await page.goto(`/admin/setup#token=${first.token}`);
    expect(response?.headers()['content-security-policy']).toMatch(
      /default-src 'none'; script-src 'self'; style-src 'self' 'nonce-/,
    );
    expect(response?.headers()['x-robots-tag']).toMatch(/noindex/);
    await page.getByRole('heading', { name: 'Настройка входа' }).waitFor();
    await expect
      .poll(() => page.getByRole('img', { name: /QR-код/ }).evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(secret.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{32}$/);
    await expect
      .poll(() => page.getByTestId('otpauth-uri').textContent())
      .toMatch(/^otpauth:\/\/totp\/Vitrina:anna%40vitrina\.example\?secret=/);
    await page.getByLabel('Новый пароль').fill(PASSWORD);
    await page.getByRole('textbox', { name: 'Код из приложения' }).fill(codeAt(secret, clock.now()));
    await expect.poll(() => page.getByRole('button', { name: 'Сохранить и подключить' }).isEnabled()).toBe(true);
    await shot(page, 'admin-enrol-1280');
    await page.getByRole('button', { name: 'Сохранить и подключить' }).click();
    await page.getByRole('heading', { name: 'Готово' }).waitFor();
    await page.getByRole('link', { name: 'Перейти ко входу' }).click();
    await page.waitForURL('**/admin/login');

    await logIn(page, { email: 'anna@vitrina.example', password: PASSWORD, secret }, true);
    await page.getByRole('heading', { name: 'Здравствуйте, Анна Петрова' }).waitFor();
    await shot(page, 'admin-dashboard-1280');
    const menu = page.getByRole('navigation').or(page.locator('.RaSidebar-fixed'));
    await expect.poll(() => menu.getByRole('menuitem', { name: 'Сотрудники' }).count()).toBe(1);

    // Staff: the list, then a new manager made in the app, whose one-time link is shown once.
    await menu.getByRole('menuitem', { name: 'Сотрудники' }).click();
    await page.waitForURL('**/admin/staff**');
    await page.getByRole('cell', { name: 'anna@vitrina.example' }).waitFor();
    await page.getByRole('link', { name: 'Добавить сотрудника' }).click();
    // The form settles first (react-admin re-renders it once the login check answers, which on a
    // loaded machine came after the typing and emptied the fields): typed values must stay typed.
    await page.waitForURL('**/admin/staff/create');
    await page.waitForLoadState('networkidle');
    const email = page.getByRole('textbox', { name: 'Почта' });
    const name = page.getByRole('textbox', { name: 'Имя и фамилия' });
    await expect
      .poll(async () => {
        if ((await email.inputValue()) !== 'maria@vitrina.example') await email.fill('maria@vitrina.example');
        if ((await name.inputValue()) !== 'Мария Смирнова') await name.fill('Мария Смирнова');
        return [await email.inputValue(), await name.inputValue()];
      })
      .toEqual(['maria@vitrina.example', 'Мария Смирнова']);
    await page.getByRole('button', { name: 'Сохранить' }).click();
    const link = page.getByRole('textbox', { name: 'Одноразовая ссылка' });
    await link.waitFor();
    const managerToken = linkToken(await link.inputValue());
    await page.getByRole('button', { name: 'К списку сотрудников' }).click();
    await page.getByRole('cell', { name: 'maria@vitrina.example' }).waitFor();
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'maria@vitrina.example' }).textContent())
      .toMatch(/Менеджер.*Ждёт настройки по ссылке/);
    await shot(page, 'admin-staff-1280');

    // The audit log: the enrolment, the login and the new account, newest first.
    await menu.getByRole('menuitem', { name: 'Журнал действий' }).click();
    await page.waitForURL('**/admin/audit**');
    const rows = page.getByRole('row');
    await rows.filter({ hasText: 'Сотрудник создан' }).first().waitFor();
    const texts = await rows.allTextContents();
    const order = ['Сотрудник создан', 'Вход', 'Пароль задан, приложение подключено'].map((t) =>
      texts.findIndex((row) => row.includes(t)),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(texts.some((row) => row.includes('npm run staff') && row.includes('Скрипт'))).toBe(true);
    await rows.filter({ hasText: 'Сотрудник создан' }).first().click();
    await page.getByText('"email": "maria@vitrina.example"').waitFor();
    // The row's panel opens with an animation: the picture once it is open.
    await page.locator('.MuiCollapse-entered').first().waitFor();
    await shot(page, 'admin-audit-1280');
    expect(await violations()).toEqual([]);

    // The manager: enrolled by their link, logged in: no Staff, no log, refused at the address.
    const managerSecret = await enrol(shop, clock, { token: managerToken, password: 'летний сад 1704' });
    const managerPage = await shopper.newPage(DESKTOP);
    const managerViolations = await watchCsp(managerPage);
    await logIn(managerPage, { email: 'maria@vitrina.example', password: 'летний сад 1704', secret: managerSecret });
    await managerPage.getByRole('heading', { name: 'Здравствуйте, Мария Смирнова' }).waitFor();
    await expect.poll(() => managerPage.getByText('Роль: Менеджер', { exact: false }).count()).toBe(1);
    expect(await managerPage.getByRole('menuitem', { name: 'Сотрудники' }).count()).toBe(0);
    expect(await managerPage.getByRole('menuitem', { name: 'Журнал действий' }).count()).toBe(0);
    await managerPage.goto('/admin/staff');
    await managerPage
      .getByText(/доступ|access/i)
      .first()
      .waitFor();
    expect(await managerPage.getByRole('cell', { name: 'anna@vitrina.example' }).count()).toBe(0);
    const cookie = (await managerPage.context().cookies()).find((c) => c.name === 'vitrina_staff');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect((await admin(shop, '/staff', { cookie: `vitrina_staff=${cookie?.value}` })).status).toBe(403);
    expect(await managerViolations()).toEqual([]);
  });

  it('serves the app under /admin/ only: its assets cached for good, a missing one 404, never the storefront', async () => {
    const pageRes = await fetch(`${shop.baseUrl}/admin/staff/12`);
    expect(pageRes.status).toBe(200);
    expect(pageRes.headers.get('cache-control')).toBe('no-store');
    const html = await pageRes.text();
    const nonce = /content-security-policy/i.test([...pageRes.headers.keys()].join(' '))
      ? /'nonce-([^']+)'/.exec(pageRes.headers.get('content-security-policy') ?? '')?.[1]
      : null;
    expect(nonce).toBeTruthy();
    expect(html).toContain(`<meta name="csp-nonce" content="${nonce}"`);
    expect(html).toContain('<meta name="admin-api" content="/backend/admin"');
    const again = await fetch(`${shop.baseUrl}/admin/`);
    expect(again.headers.get('content-security-policy')).not.toContain(`'nonce-${nonce}'`);
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
    const asset = await fetch(`${shop.baseUrl}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${shop.baseUrl}/admin/assets/missing-abc.js`)).status).toBe(404);
  });
});
