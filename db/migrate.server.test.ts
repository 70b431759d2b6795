import path from 'node:path';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pendingMigrations, readJournal, readMigrations } from './migrate.server';

const FOLDER = path.resolve('db/migrations');

describe('the migrations journal', () => {
  it('names each migration by a time of its own, and a file for each entry', () => {
    const journal = readJournal(FOLDER);
    expect(new Set(journal.map((e) => e.when)).size).toBe(journal.length);
    const files = fs.readdirSync(FOLDER).filter((f) => f.endsWith('.sql'));
    expect(files.sort()).toEqual(journal.map((e) => `${e.tag}.sql`).sort());
  });

  it('refuses a journal where two migrations share a time (one of them would never run)', () => {
    const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'vitrina-journal-'));
    try {
      fs.mkdirSync(path.join(dir, 'meta'));
      fs.writeFileSync(
        path.join(dir, 'meta/_journal.json'),
        JSON.stringify({
          entries: [
            { tag: '0000_a', when: 5 },
            { tag: '0001_b', when: 5 },
          ],
        }),
      );
      expect(() => readJournal(dir)).toThrow('0000_a and 0001_b');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('hashes each file as Drizzle records it, and splits it at the breakpoints', () => {
    const [first] = readMigrations(FOLDER);
    expect(first?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(first?.statements.length).toBeGreaterThan(1);
  });
});

describe('pending migrations', () => {
  const journal = [
    { tag: '0005', when: 100 },
    { tag: '0006', when: 900 },
    { tag: '0007', when: 200 },
  ];
  it('are those whose time is not on record, in the journal’s order, whatever their times', () => {
    expect(pendingMigrations(journal, new Set([100, 900])).map((m) => m.tag)).toEqual(['0007']);
    expect(pendingMigrations(journal, new Set()).map((m) => m.tag)).toEqual(['0005', '0006', '0007']);
    expect(pendingMigrations(journal, new Set([100, 200, 900]))).toEqual([]);
  });
});
