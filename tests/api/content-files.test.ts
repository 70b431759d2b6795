import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appState, contentEntries } from '~/db/schema';
import { CONTENT_DIR, syncContentFiles } from '~/api/content/store.server';
import { createArticle, getContentEntry, updateContent } from '~/models/content.server';
import { setUpTestShop } from '~/tests/support/server';
import { getJson } from '~/tests/support/api';
import { ContentPage } from '~/shared/contract';

// A deploy brings the content files to a running shop (the pages are promises to shoppers: a
// corrected page must reach them): a changed file is written into its row, a new file becomes a
// row, and whatever staff saved in the back office stays theirs. The shop's rows start as the
// seeded template's; each test syncs from its own copy of content/.

const shop = setUpTestShop();
const db = () => shop.database.db;
let dir = '';

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-content-files-'));
  fs.cpSync(CONTENT_DIR, dir, { recursive: true });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const pageFile = (slug: string) => path.join(dir, 'pages', `${slug}.md`);
/** A paragraph more at the end of a page's file. */
const addParagraph = (slug: string, text: string) => fs.appendFileSync(pageFile(slug), `\n${text}\n`);
const body = async (kind: 'page' | 'article', slug: string) => (await getContentEntry(db(), kind, slug))?.body;

describe('content files at start', () => {
  it('changes nothing when the files are those already in the database', async () => {
    expect(await syncContentFiles(db(), dir)).toEqual({ inserted: [], updated: [] });
  });

  it('writes a changed file into its row and adds a new file, and the storefront shows both', async () => {
    addParagraph('warranty', 'Срок считается в календарных днях.');
    fs.writeFileSync(pageFile('gift-wrap'), '---\ntitle: Подарочная упаковка\n---\nУпакуем **бесплатно**.\n');

    expect(await syncContentFiles(db(), dir)).toEqual({ inserted: ['page/gift-wrap'], updated: ['page/warranty'] });
    expect(await body('page', 'warranty')).toContain('Срок считается в календарных днях.');

    // The data version covers the table: guests see the new words within its check interval.
    await expect
      .poll(async () => (await getJson(shop.baseUrl, '/backend/content/pages/warranty/', ContentPage)).html, {
        timeout: 10_000,
      })
      .toContain('Срок считается в календарных днях.');
    const added = await getJson(shop.baseUrl, '/backend/content/pages/gift-wrap/', ContentPage);
    expect(added).toMatchObject({ title: 'Подарочная упаковка', html: '<p>Упакуем <strong>бесплатно</strong>.</p>\n' });

    // Once written, a second start has nothing to do; the next deploy's files are written again.
    expect(await syncContentFiles(db(), dir)).toEqual({ inserted: [], updated: [] });
    expect(await syncContentFiles(db(), CONTENT_DIR)).toEqual({ inserted: [], updated: ['page/warranty'] });
  });

  it('keeps a page staff saved in the back office, whatever its file says later', async () => {
    const row = await getContentEntry(db(), 'page', 'shipment');
    const saved = await updateContent(db(), row!.id, row!.version, { body: 'Текст сотрудника.' });
    expect(saved.ok).toBe(true);
    addParagraph('shipment', 'Отправляем и Почтой России.');

    expect(await syncContentFiles(db(), dir)).toEqual({ inserted: [], updated: [] });
    expect(await body('page', 'shipment')).toBe('Текст сотрудника.');
  });

  it('leaves an article staff made alone when a later file comes with the same address', async () => {
    const made = await createArticle(
      db(),
      'kak-uhazhivat-za-shelkom',
      { title: 'Как ухаживать за шёлком', body: 'Статья сотрудника.' },
      '2026-11-29',
    );
    expect(made.ok).toBe(true);
    fs.writeFileSync(
      path.join(dir, 'blog', 'kak-uhazhivat-za-shelkom.md'),
      '---\ntitle: Шёлк\ndate: 2026-11-29\n---\nСтатья из файла.\n',
    );

    expect(await syncContentFiles(db(), dir)).toEqual({ inserted: [], updated: [] });
    expect(await body('article', 'kak-uhazhivat-za-shelkom')).toBe('Статья сотрудника.');
  });

  it('counts the rows of a database from before the record as the files’ own (they were read into an empty table)', async () => {
    await db().delete(appState).where(eq(appState.key, 'content_files'));
    addParagraph('loyalty', 'Бонусы не сгорают в праздники.');

    expect(await syncContentFiles(db(), dir)).toEqual({ inserted: [], updated: ['page/loyalty'] });
    expect(await body('page', 'loyalty')).toContain('Бонусы не сгорают в праздники.');
    const [record] = await db().select().from(appState).where(eq(appState.key, 'content_files'));
    expect(record?.value).toContain('page/loyalty');
    expect(record?.value).not.toContain('article/kak-uhazhivat-za-shelkom');
    const [version] = await db()
      .select({ version: contentEntries.version })
      .from(contentEntries)
      .where(and(eq(contentEntries.kind, 'page'), eq(contentEntries.slug, 'loyalty')));
    expect(version?.version).toBe(1);
  });
});
