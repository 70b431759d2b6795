import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import type { SmsGateway, SmsMessage } from '~/integrations/sms/sms';
import type { MailMessage, MailSender } from '~/integrations/mail/mail';
import { currentJob, type RunningJob } from './jobs.server';

// The send path's idempotency (issue #27, 7): every message a job sends gets a key, unique per
// the job's subject (its kind and payload, e.g. order.placed for order 12), the message's kind
// (tag), channel and recipient, recorded in sent_messages with the send. A job run again (its
// lease ran out after a kill -9, or its e-mail failed after its SMS went) skips what went out.
// The key also reaches the provider where it takes a client message id (SMTP Message-ID). A job
// that sends several messages of one tag to one recipient (back-in-stock SMS of several sizes)
// gives each its own `idempotencyKey`.
//
// Order: the key is claimed (a row without sent_at), the provider is called, the row is marked
// sent. A process killed between the provider's acceptance and that mark leaves a claim; once it
// is SEND_CLAIM_SECONDS old a rerun sends again (with the same Message-ID): the one window in
// which a message can go twice, a few milliseconds wide instead of a whole job.

/** How long a claimed send is left to the run that claimed it (longer than any provider's time-out). */
export const SEND_CLAIM_SECONDS = 120;

/** Another run is sending this message right now: the job is retried later, and then skips it or sends it. */
export class SendInProgress extends Error {}

type Channel = 'sms' | 'mail';

/**
 * A job's subject: its kind and the plain fields of its payload (`order.placed:orderId=12`), so
 * two jobs of one kind for one order share it; a job with none is its own subject.
 */
export function jobSubject(job: RunningJob): string {
  const fields = Object.entries(job.payload)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${String(v)}`);
  return `${job.kind}:${fields.length > 0 ? fields.join(',') : `job=${job.id}`}`;
}

/** The idempotency key of a message: the caller's, or the running job's; null outside a job (a login code). */
export function messageKey(
  channel: Channel,
  tag: string | undefined,
  recipient: string,
  given?: string,
): string | null {
  if (given) return given;
  const job = currentJob();
  return job ? `${jobSubject(job)}|${channel}|${tag ?? ''}|${recipient}` : null;
}

/** Sends once per key: a key already sent gives back the recorded provider id and sends nothing. */
export async function sendOnce({
  db,
  key,
  channel,
  tag,
  send,
}: {
  db: Database;
  key: string;
  channel: Channel;
  tag: string | null;
  send: () => Promise<{ id: string }>;
}): Promise<{ id: string }> {
  // The claim: a new row, or a claim old enough to have been cut short by a crash.
  const claimed = await queryRows<{ key: string }>(
    db,
    sql`insert into sent_messages (key, channel, tag) values (${key}, ${channel}, ${tag})
        on conflict (key) do update set claimed_at = now()
        where sent_messages.sent_at is null and sent_messages.claimed_at < now() - ${`${SEND_CLAIM_SECONDS} seconds`}::interval
        returning key`,
  );
  if (claimed.length === 0) {
    const [row] = await queryRows<{ provider_id: string | null; sent_at: unknown }>(
      db,
      sql`select provider_id, sent_at from sent_messages where key = ${key}`,
    );
    if (row?.sent_at) return { id: row.provider_id ?? '' };
    throw new SendInProgress(`message ${key} is being sent by another run`);
  }
  let result: { id: string };
  try {
    result = await send();
  } catch (err) {
    // Refused or unreachable: the claim goes, so the job's retry may send it.
    await db.execute(sql`delete from sent_messages where key = ${key} and sent_at is null`);
    throw err;
  }
  await db.execute(sql`update sent_messages set sent_at = now(), provider_id = ${result.id} where key = ${key}`);
  return result;
}

/** The SMS gateway with the send path's idempotency: messages with a key (given, or from the running job) go once. */
export function recordedSms(db: Database, sms: SmsGateway): SmsGateway {
  return {
    kind: sms.kind,
    send(message: SmsMessage) {
      const key = messageKey('sms', message.tag, message.phone, message.idempotencyKey);
      if (!key) return sms.send(message);
      return sendOnce({
        db,
        key,
        channel: 'sms',
        tag: message.tag ?? null,
        send: () => sms.send({ ...message, idempotencyKey: key }),
      });
    },
  };
}

/** The mail sender with the send path's idempotency (see recordedSms). */
export function recordedMail(db: Database, mail: MailSender): MailSender {
  return {
    kind: mail.kind,
    send(message: MailMessage) {
      const key = messageKey('mail', message.tag, message.to, message.idempotencyKey);
      if (!key) return mail.send(message);
      return sendOnce({
        db,
        key,
        channel: 'mail',
        tag: message.tag,
        send: () => mail.send({ ...message, idempotencyKey: key }),
      });
    },
  };
}
