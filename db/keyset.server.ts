// Reading a long list in batches by its key (the back office's CSV exports): each batch is its own
// query after the last key of the one before (keyset, on an indexed key, never an offset), so an
// export of any length holds one batch in memory, and the next is read only when the previous
// was sent.

/** Batches of `read(cursor)` (null first, then the key of the previous batch's last row) until one comes back short. */
export async function* keysetBatches<T>(
  read: (cursor: number | null, size: number) => Promise<T[]>,
  keyOf: (row: T) => number,
  size = 1000,
): AsyncGenerator<T[]> {
  let cursor: number | null = null;
  for (;;) {
    const rows = await read(cursor, size);
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < size) return;
    cursor = keyOf(rows[rows.length - 1] as T);
  }
}
