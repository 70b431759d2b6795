import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { queryRows } from '~/db/client.server';
import { orderItems, orders, reviews, reviewVotes } from '~/db/schema';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import { findOrCreateCustomerByPhone } from '~/models/auth.server';
import { DESKTOP, MOBILE, login, setUpBrowserShop, waitForHydration, type Viewport } from '~/tests/support/browser';
import { codeAt, createStaffByScript, enrol, testClock } from '~/tests/support/admin';

// Product reviews in Chromium at 390 and 1280 px (issue #32): a buyer writes a review with a
// photo from their order in the account, a content manager publishes it in the back office
// (enrolled with TOTP), and a guest sees it on the product page with the rating near the price,
// the fit advice beside the size picker (four earlier buyers said «маломерит» too: five answers),
// the photo in the light box and the JSON-LD rating; «Помог»: a guest is asked to log in, the buyer
// cannot vote for their own review, votes for another once (a double click is one vote) and sees
// the vote again after a reload (asked after paint), while the guest's page stays in the page
// cache. Screenshots into SHOTS_DIR when set.

const clock = testClock();
const { shop, it } = setUpBrowserShop({ clock: clock.now });
const SHOTS = process.env.SHOTS_DIR;
const db = () => shop.database.db;

async function shot(page: Page, name: string, { fullPage = true } = {}) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  // From the top: a full-page shot taken further down draws the fixed header over the middle of
  // the page. (A dialog is shot as the viewport shows it.)
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

/** The product page's reviews section alone (a full-page shot clipped to it). */
async function reviewsShot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.locator('#reviews').boundingBox();
  if (!box) throw new Error('no reviews section');
  const width = page.viewportSize()?.width ?? box.width;
  await page.screenshot({
    path: path.join(SHOTS, `${name}.png`),
    fullPage: true,
    clip: { x: 0, y: Math.max(0, box.y - 16), width, height: box.height + 32 },
  });
}

let cursor = 0;
async function product() {
  const [row] = await queryRows<{ offer_id: number; product_id: number; url: string; name: string }>(
    db(),
    sql`select distinct on (p.id) o.id as offer_id, p.id as product_id, s.url || p.slug || '/' as url, p.name from offers o
        join products p on p.id = o.product_id join sections s on s.id = p.section_id
        where p.active and p.certificate is null and o.quantity > 0 order by p.id, o.id offset ${40 + cursor * 7} limit 1`,
  );
  cursor += 1;
  if (!row) throw new Error('no product');
  return { offerId: Number(row.offer_id), productId: Number(row.product_id), url: row.url, name: row.name };
}

async function receivedOrder(customerId: number, offerId: number): Promise<number> {
  const [order] = await db()
    .insert(orders)
    .values({
      customerId,
      status: 'received',
      deliveredAt: clock.now(),
      itemsTotalKopecks: 1_000_000,
      totalKopecks: 1_000_000,
      phone: '79990000000',
    })
    .returning({ id: orders.id });
  const orderId = (order as { id: number }).id;
  await db()
    .insert(orderItems)
    .values({ orderId, offerId, title: 'Пальто', size: '44', color: 'чёрный', priceKopecks: 1_000_000, quantity: 1 });
  return orderId;
}

/** Four earlier buyers' published reviews, all «маломерит». */
async function earlierReviews(p: { offerId: number; productId: number }, tag: string) {
  for (let i = 0; i < 4; i++) {
    const { id: customerId } = await findOrCreateCustomerByPhone({
      db: db(),
      phone: `7992${tag}${String(i).padStart(6, '0')}`,
    });
    const orderId = await receivedOrder(customerId, p.offerId);
    await db()
      .insert(reviews)
      .values({
        productId: p.productId,
        customerId,
        orderId,
        offerId: p.offerId,
        status: 'published',
        rating: 5 - (i % 2),
        fit: 'small',
        size: '44',
        text: `Отличная вещь, но маломерит. Отзыв №${i + 1}.`,
        authorName: ['Ольга', 'Ирина', 'Светлана', 'Татьяна'][i] as string,
        checkedAt: clock.now(),
        publishedAt: new Date(clock.now().getTime() - (i + 1) * 86_400_000),
      });
  }
  await bumpCatalogVersion(db());
}

async function photoFile(dir: string): Promise<string> {
  const file = path.join(dir, `review-photo-${Date.now()}.jpg`);
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800"><rect width="600" height="800" fill="#c9b8a3"/><rect x="150" y="120" width="300" height="560" rx="40" fill="#3d3a36"/></svg>',
  );
  await sharp(svg).jpeg().toFile(file);
  return file;
}

const STAFF_PASSWORD = 'отзывы и посадка 2026';
let staff: { email: string; secret: string } | null = null;
async function contentStaff() {
  if (staff) return staff;
  const made = await createStaffByScript(shop, {
    email: 'content@reviews.example',
    role: 'content',
    name: 'Вера Контент',
  });
  const secret = await enrol(shop, clock, { token: made.token, password: STAFF_PASSWORD });
  staff = { email: 'content@reviews.example', secret };
  return staff;
}

async function adminLogIn(page: Page) {
  const s = await contentStaff();
  clock.advance(30_000);
  await page.goto('/admin/login');
  await page.getByRole('textbox', { name: 'Почта' }).fill(s.email);
  await page.getByLabel('Пароль').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Продолжить' }).click();
  const code = page.getByRole('textbox', { name: 'Код из приложения' });
  await code.waitFor();
  await code.fill(codeAt(s.secret, clock.now()));
  await page.getByRole('button', { name: 'Войти' }).click();
  await page.getByRole('heading', { name: /Здравствуйте/ }).waitFor();
}

const ADVICE = 'Большинство покупателей считают, что модель маломерит: берите на размер больше';

describe('reviews', () => {
  for (const [label, viewport] of [
    ['390', MOBILE],
    ['1280', DESKTOP],
  ] as [string, Viewport][]) {
    it(`a buyer writes a review with a photo, staff publish it, a guest sees it and the fit advice (${label} px)`, async ({
      shopper,
    }) => {
      const p = await product();
      await earlierReviews(p, label === '390' ? '1' : '2');

      // The buyer, in their order.
      const buyerPage = await shopper.newPage(viewport);
      const { customerId } = await login(buyerPage.context(), shop, `7991${label === '390' ? '1' : '2'}000001`);
      const orderId = await receivedOrder(customerId, p.offerId);
      await buyerPage.goto(`/personal/orders/${orderId}/`);
      await waitForHydration(buyerPage);
      await buyerPage.getByRole('heading', { name: 'Отзывы о покупках' }).waitFor();
      await buyerPage.getByRole('button', { name: 'Оставить отзыв' }).click();
      await buyerPage.getByRole('radio', { name: '5' }).check();
      await buyerPage.getByRole('radio', { name: 'маломерит' }).check();
      await buyerPage
        .getByRole('textbox', { name: 'Отзыв' })
        .fill(
          'Очень тёплое и красивое пальто. Маломерит: при моём 44 взяла бы 46. Ссылка http://example.com не кликается.',
        );
      await buyerPage.getByLabel('Рост, см (необязательно)').fill('168');
      await buyerPage.locator('input[type=file][name=photos]').setInputFiles(await photoFile(shop.dataDir));
      await shot(buyerPage, `review-form-${label}`);
      await buyerPage.getByRole('button', { name: 'Отправить отзыв' }).click();
      await buyerPage.getByText('Спасибо! Отзыв появится на сайте после проверки.').waitFor();
      await buyerPage.getByText('На модерации').waitFor();
      await shot(buyerPage, `review-sent-${label}`);

      // Staff publish it.
      const staffPage = await shopper.newPage(viewport);
      await adminLogIn(staffPage);
      // The menu (the content role sees «Отзывы»), then the queue: a client-side navigation.
      // (On a phone the menu is folded away: the address instead.)
      if (viewport.width < 600) await staffPage.goto('/admin/reviews');
      else await staffPage.getByRole('menuitem', { name: 'Отзывы' }).click();
      await staffPage
        .locator('.RaDatagrid-row')
        .first()
        .waitFor({ timeout: 45_000 })
        .catch(async (err: unknown) => {
          await shot(staffPage, `admin-reviews-failed-${label}`);
          throw err;
        });
      await shot(staffPage, `admin-reviews-${label}`);
      const [mine] = await queryRows<{ id: number }>(db(), sql`select id from reviews where order_id = ${orderId}`);
      await staffPage.goto(`/admin/reviews/${mine?.id}/show`);
      await staffPage.getByRole('button', { name: 'Опубликовать' }).first().click();
      await staffPage.getByRole('dialog').getByRole('button', { name: 'Опубликовать' }).click();
      await staffPage.getByText('Готово').waitFor();
      await shot(staffPage, `admin-review-published-${label}`);

      // A guest sees it.
      const { page } = await shopper.open(p.url, viewport);
      await page.getByText(ADVICE).first().waitFor();
      await page.getByRole('link', { name: /5 отзывов/ }).waitFor();
      await page.getByText('Очень тёплое и красивое пальто', { exact: false }).waitFor();
      const ld = await page.locator('script[type="application/ld+json"]').allTextContents();
      const productLd = ld
        .map((t) => JSON.parse(t) as Record<string, unknown>)
        .find((j) => j['@type'] === 'Product') as Record<string, unknown>;
      expect(productLd.aggregateRating).toMatchObject({ '@type': 'AggregateRating', reviewCount: 5 });
      expect((productLd.review as unknown[]).length).toBe(5);
      // The link in the text is words, not a link.
      expect(await page.locator('.review__text a').count()).toBe(0);

      // «Помог» as a guest: asked to log in, nothing sent.
      const olga = (p2: Page) => p2.locator('.review', { hasText: 'Отзыв №1.' });
      await olga(page).getByRole('button', { name: /Помог/ }).click();
      await olga(page).getByText('Войдите, чтобы отметить отзыв полезным').waitFor();
      expect(await olga(page).getByRole('link', { name: 'Войдите' }).getAttribute('href')).toMatch(
        /^\/auth\/\?next=%2Fcatalog%2F.*%23reviews$/,
      );
      await shot(page, `product-reviews-${label}`);
      await reviewsShot(page, `product-reviews-section-${label}`);
      // The guest's product page is one the page cache shares: nothing personal in it.
      const first = await fetch(new URL(p.url, shop.baseUrl));
      const html = await first.text();
      expect(html).toContain('review__helpful-button');
      expect(html).not.toMatch(/class="review__helpful-button"[^>]*aria-pressed="true"/);
      expect((await fetch(new URL(p.url, shop.baseUrl))).headers.get('x-cache')).toBe('HIT');
      await page.locator('.review__photo').first().click();
      await page.getByRole('dialog', { name: 'Фото покупателя' }).waitFor();
      await expect
        .poll(() => page.locator('.review-photo img').evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBeGreaterThan(0);
      await shot(page, `product-review-photo-${label}`, { fullPage: false });
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'С фото' }).click();
      await expect.poll(() => page.locator('.review').count()).toBe(1);

      // «Помог» as the buyer: their own review cannot be voted for; another's takes one vote, even double-clicked.
      await buyerPage.goto(p.url);
      await waitForHydration(buyerPage);
      const own = buyerPage.locator('.review', { hasText: 'Очень тёплое и красивое пальто' });
      // The reviews hydrate when they near the screen (HydrateLater), as the shopper scrolls to them.
      await own.scrollIntoViewIfNeeded();
      await expect.poll(() => own.getByRole('button', { name: /Помог/ }).isDisabled()).toBe(true);
      await own.getByText('Это ваш отзыв').waitFor();
      const vote = olga(buyerPage).getByRole('button', { name: /Помог/ });
      expect(await vote.getAttribute('aria-pressed')).toBe('false');
      await vote.dblclick();
      await expect.poll(() => vote.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => vote.textContent()).toBe('Помог1');
      const [olgaReview] = await queryRows<{ id: number }>(
        db(),
        sql`select id from reviews where product_id = ${p.productId} and text like '%Отзыв №1.'`,
      );
      const votes = () =>
        db()
          .select()
          .from(reviewVotes)
          .where(eq(reviewVotes.reviewId, Number(olgaReview?.id)));
      await expect.poll(async () => (await votes()).length).toBe(1);
      await shot(buyerPage, `product-review-helpful-${label}`);
      await reviewsShot(buyerPage, `product-reviews-section-buyer-${label}`);
      // After a reload the vote is there again (asked after paint), and a press sends nothing more.
      await buyerPage.reload();
      await waitForHydration(buyerPage);
      await expect.poll(() => vote.getAttribute('aria-pressed')).toBe('true');
      expect(await vote.textContent()).toBe('Помог1');
      await vote.click();
      expect((await votes()).length).toBe(1);
      expect(await olga(buyerPage).locator('.review__helpful-note').textContent()).toBe('');
    }, 180_000);
  }
});
