import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeIdRanges, type IdRange } from './exchange-xml.server';

// A full package's finishing steps each check one range of Ид (models/exchange.server.ts
// finishPackage): an Ид of the shop is "not in the package" when it is not in the file of the
// range it falls in. That holds only if the ranges, cut here, partition byte order exactly.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vitrina-id-ranges-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const bytes = (s: string) => Buffer.from(s, 'utf8');
/** The range an Ид falls in, compared as PostgreSQL compares under collation "C". */
const rangeOf = (ranges: IdRange[], id: string) =>
  ranges.filter(
    (r) =>
      (r.from === null || Buffer.compare(bytes(id), bytes(r.from)) >= 0) &&
      (r.to === null || Buffer.compare(bytes(id), bytes(r.to)) < 0),
  );

async function check(name: string, ids: string[], perFile: number, probes: string[]) {
  const at = path.join(dir, name);
  fs.mkdirSync(at);
  const ranges = await writeIdRanges(at, ids, perFile);
  const files = new Map(
    ranges.map((r) => [r, new Set(JSON.parse(fs.readFileSync(path.join(at, r.file), 'utf8')) as string[])]),
  );
  const members = new Set(ids);
  for (const id of [...ids, ...probes]) {
    const found = rangeOf(ranges, id);
    expect(found, id).toHaveLength(1);
    expect(files.get(found[0]!)!.has(id), id).toBe(members.has(id));
  }
  return ranges;
}

describe('writeIdRanges', () => {
  it('cuts sorted Ид into files whose bounds partition byte order, duplicates once', async () => {
    const ids = Array.from({ length: 95 }, (_, i) => `${(i * 37) % 101}`.padStart(3, '0') + '-guid#size');
    const ranges = await check('plain', [...ids, ids[3]!, ids[40]!], 20, ['', '000', '050-guid#size', 'zzz', '~']);
    expect(ranges).toHaveLength(5);
    expect(ranges[0]!.from).toBeNull();
    expect(ranges.at(-1)!.to).toBeNull();
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.from).toBe(ranges[i - 1]!.to);
  });

  it('orders by bytes where UTF-16 order differs (a character beyond U+FFFF against one from U+E000)', async () => {
    // In UTF-16 '😀' (a surrogate pair, D83D…) sorts before '' (U+F8FF); in UTF-8 bytes, after.
    const ids = ['a😀', 'a\uF8FF', 'aб', 'aZ', 'a😀b', 'a\uFFFD', 'товар#размер'];
    await check('astral', ids, 2, ['a', 'a😁', 'a\uF8FE', 'b', 'я']);
  });

  it('an empty package is one unbounded range with an empty file', async () => {
    expect(await check('empty', [], 10, ['anything'])).toEqual([{ file: 'ids-00000.json', from: null, to: null }]);
  });
});
