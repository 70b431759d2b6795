import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '~/db/client.server';

// The embedded database's buffer pool is set at its start (PGLITE_SHARED_BUFFERS,
// docs/configuration.md): a smaller pool than PGlite's own 128 MB is most of a faster restart.
async function sharedBuffers(size?: string): Promise<string> {
  const database = await openDatabase({ pgliteDir: 'memory://', ...(size ? { pgliteSharedBuffers: size } : {}) });
  try {
    const [row] = await queryRows<{ value: string }>(
      database.db,
      sql`select current_setting('shared_buffers') as value`,
    );
    return row?.value ?? '';
  } finally {
    await database.close();
  }
}

describe('PGlite shared_buffers', () => {
  it('is 32MB unless told otherwise, and takes the size given', { timeout: 60_000 }, async () => {
    expect(await sharedBuffers()).toBe('32MB');
    expect(await sharedBuffers('48MB')).toBe('48MB');
  });
});
