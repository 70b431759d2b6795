import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { giftCertificates, orders } from '~/db/schema';
import type { CertificateKind } from '~/core/gift-certificates';

// The gift certificates a customer bought, for the order page of the account. Filtered by the
// customer of the session (DESIGN.md), and only for a paid order that was not cancelled: a code
// is shown to the buyer in full only when it is theirs to give.

export interface BoughtCertificate {
  kind: CertificateKind;
  code: string;
  nominalKopecks: number;
  balanceKopecks: number;
  expiresAt: Date;
  mailedAt: Date | null;
}

export async function orderCertificatesOf({
  db,
  customerId,
  orderId,
}: {
  db: Database;
  customerId: number;
  orderId: number;
}): Promise<BoughtCertificate[]> {
  return db
    .select({
      kind: giftCertificates.kind,
      code: giftCertificates.code,
      nominalKopecks: giftCertificates.nominalKopecks,
      balanceKopecks: giftCertificates.balanceKopecks,
      expiresAt: giftCertificates.expiresAt,
      mailedAt: giftCertificates.mailedAt,
    })
    .from(giftCertificates)
    .innerJoin(orders, eq(orders.id, giftCertificates.orderId))
    .where(
      and(
        eq(giftCertificates.orderId, orderId),
        eq(orders.customerId, customerId),
        isNotNull(orders.paidAt),
        ne(orders.status, 'cancelled'),
      ),
    )
    .orderBy(asc(giftCertificates.id));
}
