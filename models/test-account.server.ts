import type { Database } from '~/db/client.server';
import { seedTestAccount, TEST_ACCOUNT } from '~/db/seed/seed.server';

/** SPEC §9: the hard-coded test account gets a sample completed order when it has none, also when it logs in after its orders were removed. */
export async function ensureTestAccountOrder({
  db,
  phone,
}: {
  db: Database;
  customerId: number;
  phone: string;
}): Promise<void> {
  if (phone === TEST_ACCOUNT.phone) await seedTestAccount(db);
}
