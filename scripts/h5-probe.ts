import { startTestShop } from '~/tests/support/server';
import { DESKTOP, launchBrowser, MOBILE, newShopperContext } from '~/tests/support/browser';
const shop = await startTestShop({ withStorefront: true });
const browser = await launchBrowser();
try {
  const res = await fetch(`${shop.baseUrl}/backend/catalog/all/?format=json`).catch(() => null);
  console.log('catalog', res?.status);
  for (const [label, vp] of [['m', MOBILE], ['d', DESKTOP]] as const) {
    const ctx = await newShopperContext(browser, shop.baseUrl, vp);
    const page = await ctx.newPage();
    await page.goto('/catalog/all/');
    const href = await page.locator('a[href^="/catalog/all/"]').nth(3).getAttribute('href');
    console.log(href);
    await page.goto(href!);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `/tmp/h5/probe-${label}-product.png` });
    const btn = page.getByRole('button', { name: /во весь экран/ }).first();
    await btn.click();
    await page.waitForTimeout(4000);
    console.log(await page.evaluate(() => [...document.querySelectorAll('.lightbox__slide')].slice(0, 2).map((s) => { const img = s.querySelector('img'); const r = img?.getBoundingClientRect(); return { html: s.innerHTML.slice(0, 600), complete: img?.complete, nw: img?.naturalWidth, cur: img?.currentSrc, r: r && [r.x, r.y, r.width, r.height], slide: [s.getBoundingClientRect().width, s.getBoundingClientRect().height] }; })));
    await page.screenshot({ path: `/tmp/h5/probe-${label}-lightbox.png` });
    console.log(label, 'dialog visible', await page.getByRole('dialog', { name: /фотографии/ }).isVisible());
    await ctx.close();
  }
} finally {
  await browser.close();
  await shop.close();
}
