import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from './client.server';
import { seedDatabase } from './seed/seed.server';
import { rebuildSearchTerms } from './search-terms.server';

// The typo index rebuilt from the products writes only the difference (a 1C catalogue package
// rebuilds it): what it holds afterwards must be exactly the products' words, as if emptied first.

describe('rebuildSearchTerms', () => {
  it(
    'holds exactly the words of the products afterwards: stale words go, new ones come, the rest stay',
    { timeout: 120_000 },
    async () => {
      const database = await openDatabase({ pgliteDir: 'memory://' });
      const db = database.db;
      try {
        await database.migrate();
        await seedDatabase(db, { products: 20 });
        const terms = async () =>
          (await queryRows<{ term: string }>(db, sql`select term from search_terms order by term`)).map((r) => r.term);
        const [product] = await queryRows<{ id: number }>(db, sql`select id from products order by id limit 1`);
        await db.execute(sql`insert into search_terms (term) values ('устаревшееслово')`);
        await db.execute(sql`update products set name = 'Жилет Ёлочный' where id = ${product!.id}`);
        await rebuildSearchTerms(db);
        const after = await terms();
        expect(after).toContain('елочный');
        expect(after).toContain('жилет');
        expect(after).not.toContain('устаревшееслово');
        // The same as emptying the table and filling it from the products.
        await db.execute(sql`delete from search_terms`);
        await rebuildSearchTerms(db);
        expect(await terms()).toEqual(after);
        // And the same words as PostgreSQL's own split of the products' names and colours.
        const bySql = await queryRows<{ word: string }>(
          db,
          sql`select distinct word from products,
                regexp_split_to_table(translate(lower(name || ' ' || color_name), 'ё', 'е'), '[^а-яa-z0-9]+') as word
              where length(word) >= 3`,
        );
        expect([...after].sort()).toEqual(bySql.map((r) => r.word).sort());
      } finally {
        await database.close();
      }
    },
  );
});
