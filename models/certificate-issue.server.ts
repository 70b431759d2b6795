import { randomBytes as nodeRandomBytes } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { certificateMoves, giftCertificates, offers, orderItems, orders, products } from '~/db/schema';
import {
  certificateExpiry,
  maskCertificateCode,
  newCertificateCode,
  type CertificateKind,
} from '~/core/gift-certificates';
import { CERTIFICATE_MAIL_TAG, certificateMail } from '~/core/certificate-mail';
import type { MailSender } from '~/integrations/mail/mail';
import { enqueueJob, type JobHandler } from './jobs.server';

// Issuing gift certificates (content/pages/podarochnye-sertifikaty.md): one certificate per unit
// bought, electronic ones after the verified payment (e-mailed as a card), plastic ones when staff
// ship the order. The job `certificate.issue` { orderId, kind } is safe to run again and twice at
// once: each unit has an issue key ('order:12:offer:5:1') unique in the table, and the order row
// is locked while its certificates are written, so a retry or a second job issues nothing new.
// Each electronic certificate's letter is a job of its own (`certificate.mail` { certificateId }),
// queued in the transaction that issued it: so there is exactly one per certificate, whichever
// issue job won, and the job table's lease keeps two processes from sending it at once. The
// letter skips a certificate already mailed; mailed_at is set after the send, so a failure is
// resent by the job's retry (at worst one letter twice if the process dies between the two).

export const CERTIFICATE_ISSUE_JOB = 'certificate.issue';
export const CERTIFICATE_MAIL_JOB = 'certificate.mail';
const CODE_TRIES = 8;

export interface CertificateJobDeps {
  db: Database;
  mail: MailSender;
  siteUrl: string;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Tests pin these; the server uses the clock and node:crypto. */
  now?: () => Date;
  randomBytes?: (n: number) => Uint8Array;
}

export function certificateJobHandlers(deps: CertificateJobDeps): Record<string, JobHandler> {
  return {
    [CERTIFICATE_ISSUE_JOB]: async (payload) => {
      const kind = payload.kind === 'plastic' ? 'plastic' : payload.kind === 'electronic' ? 'electronic' : null;
      if (!kind) throw new Error(`certificate.issue: unknown kind ${String(payload.kind)}`);
      await issueOrderCertificates(deps, Number(payload.orderId), kind);
    },
    [CERTIFICATE_MAIL_JOB]: async (payload) => {
      await mailCertificate(deps, Number(payload.certificateId));
    },
  };
}

/** Units of the order's lines whose product is a certificate of `kind` (never the gift cover). */
async function certificateLines(db: Database, orderId: number, kind?: CertificateKind) {
  return db
    .select({
      offerId: orderItems.offerId,
      quantity: orderItems.quantity,
      priceKopecks: orderItems.priceKopecks,
      kind: products.certificate,
    })
    .from(orderItems)
    .innerJoin(offers, eq(offers.id, orderItems.offerId))
    .innerJoin(products, eq(products.id, offers.productId))
    .where(
      and(
        eq(orderItems.orderId, orderId),
        eq(orderItems.isGift, false),
        kind ? eq(products.certificate, kind) : sql`${products.certificate} is not null`,
      ),
    )
    .orderBy(asc(orderItems.offerId), asc(orderItems.isPreorder));
}

/** Which kinds of certificate an order has lines of. */
export async function orderCertificateKinds(db: Database, orderId: number): Promise<Set<CertificateKind>> {
  const lines = await certificateLines(db, orderId);
  return new Set(lines.map((l) => l.kind).filter((k): k is CertificateKind => k !== null));
}

/**
 * For the verified-payment transition (inside its transaction): queues the issue of the order's
 * electronic certificates if it has any. `kind` 'plastic' is what shipping queues.
 */
export async function enqueueCertificateIssue(
  tx: Database,
  orderId: number,
  kind: CertificateKind = 'electronic',
): Promise<boolean> {
  if (!(await orderCertificateKinds(tx, orderId)).has(kind)) return false;
  await enqueueJob(tx, CERTIFICATE_ISSUE_JOB, { orderId, kind });
  return true;
}

export interface IssuedCertificate {
  id: number;
  code: string;
  nominalKopecks: number;
  issueKey: string;
  email: string;
}

/**
 * Writes the certificates the paid order `orderId` is owed of `kind` and has not got yet;
 * returns the new ones. Nothing for an unpaid, cancelled or unknown order.
 */
export async function issueCertificates(
  db: Database,
  {
    orderId,
    kind,
    now = new Date(),
    randomBytes = nodeRandomBytes,
  }: { orderId: number; kind: CertificateKind; now?: Date; randomBytes?: (n: number) => Uint8Array },
): Promise<IssuedCertificate[]> {
  return db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    // The lock queues a second job for the same order behind this one.
    const [order] = await tx
      .select({
        id: orders.id,
        paidAt: orders.paidAt,
        status: orders.status,
        email: orders.email,
        fields: orders.fields,
      })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update')
      .limit(1);
    if (!order || !order.paidAt || order.status === 'cancelled') return [];
    const email = order.email || order.fields.email || '';
    const issued: IssuedCertificate[] = [];
    const unitsSeen = new Map<number, number>();
    for (const line of await certificateLines(tx, orderId, kind)) {
      for (let u = 0; u < line.quantity; u++) {
        const n = (unitsSeen.get(line.offerId) ?? 0) + 1;
        unitsSeen.set(line.offerId, n);
        const issueKey = `order:${orderId}:offer:${line.offerId}:${n}`;
        const row = await insertCertificate(tx, {
          issueKey,
          kind,
          nominalKopecks: line.priceKopecks,
          orderId,
          offerId: line.offerId,
          email: kind === 'electronic' ? email : '',
          now,
          // podarochnye-sertifikaty.md: «действует 12 месяцев с даты покупки», the payment, not
          // the issue (a plastic one is issued days later, when the order ships; a job may retry).
          validFrom: order.paidAt,
          randomBytes,
        });
        if (!row) continue;
        issued.push(row);
        if (kind === 'electronic' && email) await enqueueJob(tx, CERTIFICATE_MAIL_JOB, { certificateId: row.id });
      }
    }
    return issued;
  });
}

async function insertCertificate(
  tx: Database,
  c: {
    issueKey: string;
    kind: CertificateKind;
    nominalKopecks: number;
    orderId: number | null;
    offerId: number | null;
    email: string;
    now: Date;
    /** When its 12 months start: the order's payment; `now` for one issued by hand. */
    validFrom?: Date;
    randomBytes: (n: number) => Uint8Array;
    /** Issued by hand (the back office): who, and their note. */
    staffId?: number;
    note?: string;
  },
): Promise<IssuedCertificate | null> {
  for (let attempt = 0; attempt < CODE_TRIES; attempt++) {
    const code = newCertificateCode(c.randomBytes);
    // No conflict target: a taken issue key and a taken code both insert nothing (no error,
    // which would abort the transaction on PostgreSQL); which one it was is looked up below.
    const [row] = await tx
      .insert(giftCertificates)
      .values({
        code,
        kind: c.kind,
        nominalKopecks: c.nominalKopecks,
        balanceKopecks: c.nominalKopecks,
        orderId: c.orderId,
        offerId: c.offerId,
        issueKey: c.issueKey,
        email: c.email,
        issuedAt: c.now,
        expiresAt: certificateExpiry(c.validFrom ?? c.now),
        issuedByStaffId: c.staffId ?? null,
        issueNote: c.note ?? null,
      })
      .onConflictDoNothing()
      .returning({
        id: giftCertificates.id,
        code: giftCertificates.code,
        nominalKopecks: giftCertificates.nominalKopecks,
        issueKey: giftCertificates.issueKey,
        email: giftCertificates.email,
      });
    if (row) {
      await tx.insert(certificateMoves).values({
        certificateId: row.id,
        kind: 'issue',
        amountKopecks: c.nominalKopecks,
        orderId: c.orderId,
        createdAt: c.now,
      });
      return row;
    }
    const [existing] = await tx
      .select({ id: giftCertificates.id })
      .from(giftCertificates)
      .where(eq(giftCertificates.issueKey, c.issueKey))
      .limit(1);
    if (existing) return null; // issued before: a retry
    // Otherwise the code was taken (1 in 10^15 per certificate): draw another.
  }
  throw new Error(`certificate ${c.issueKey}: no free code after ${CODE_TRIES} tries`);
}

/** E-mails one electronic certificate unless it went already; true when it was sent now. */
export async function mailCertificate(
  deps: Pick<CertificateJobDeps, 'db' | 'mail' | 'siteUrl' | 'now'>,
  certificateId: number,
): Promise<boolean> {
  const { db, mail, siteUrl } = deps;
  const [c] = await db.select().from(giftCertificates).where(eq(giftCertificates.id, certificateId)).limit(1);
  if (!c || c.kind !== 'electronic' || c.mailedAt || !c.email) return false;
  await mail.send({
    to: c.email,
    tag: CERTIFICATE_MAIL_TAG,
    ...certificateMail({
      nominalKopecks: c.nominalKopecks,
      code: c.code,
      expiresAt: c.expiresAt,
      orderId: c.orderId,
      siteUrl,
    }),
  });
  await db
    .update(giftCertificates)
    .set({ mailedAt: deps.now?.() ?? new Date() })
    .where(and(eq(giftCertificates.id, c.id), isNull(giftCertificates.mailedAt)));
  return true;
}

/**
 * Customer service issues one certificate by hand (the back office, issue #30), inside the
 * caller's transaction, through the same insert as a bought one: the issue key
 * ('staff:<staff id>:<client key>') is unique, so the same key twice issues one certificate
 * (null the second time). An electronic one with an e-mail gets its letter job, as a bought one.
 */
export async function issueManualCertificate(
  tx: Database,
  input: {
    clientKey: string;
    staffId: number;
    kind: CertificateKind;
    nominalKopecks: number;
    email: string;
    note: string;
    now: Date;
    randomBytes?: (n: number) => Uint8Array;
  },
): Promise<IssuedCertificate | null> {
  const row = await insertCertificate(tx, {
    issueKey: `staff:${input.staffId}:${input.clientKey}`,
    kind: input.kind,
    nominalKopecks: input.nominalKopecks,
    orderId: null,
    offerId: null,
    email: input.kind === 'electronic' ? input.email : '',
    now: input.now,
    randomBytes: input.randomBytes ?? nodeRandomBytes,
    staffId: input.staffId,
    note: input.note,
  });
  if (row && input.kind === 'electronic' && row.email)
    await enqueueJob(tx, CERTIFICATE_MAIL_JOB, { certificateId: row.id });
  return row;
}

/** The issue job: the certificates the order is owed of `kind` (their letters are queued with them). */
export async function issueOrderCertificates(
  deps: CertificateJobDeps,
  orderId: number,
  kind: CertificateKind,
): Promise<IssuedCertificate[]> {
  const now = deps.now?.() ?? new Date();
  const issued = await issueCertificates(deps.db, {
    orderId,
    kind,
    now,
    ...(deps.randomBytes ? { randomBytes: deps.randomBytes } : {}),
  });
  if (issued.length)
    deps.log?.info(
      { orderId, kind, count: issued.length, certificates: issued.map((c) => maskCertificateCode(c.code)) },
      'gift certificates issued',
    );
  // Checkout requires an e-mail for online payment; should one be missing, staff send the code.
  if (kind === 'electronic' && issued.some((c) => !c.email))
    deps.log?.warn({ orderId }, 'gift certificates issued with no e-mail to send them to');
  return issued;
}
