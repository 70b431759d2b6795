// The SMS seam: login codes and notices go out through this interface, never straight to a
// provider, so a machine with no internet (dev, CI) runs the same code paths as production.

export interface SmsMessage {
  /** Digits only, country code first, e.g. 79990000000. */
  phone: string;
  text: string;
  /** What the message is for (e.g. 'login-code'); recorded in logs and the outbox, not sent. */
  tag?: string;
  /** The shopper's IP; SMS.ru uses it for flood protection. Optional, never recorded offline. */
  ip?: string;
  /**
   * Unique per order (or other subject), kind and recipient: the send path records it and sends
   * a key once (models/sent-messages.server.ts); a job's messages get one from the job.
   */
  idempotencyKey?: string;
}

export interface SmsGateway {
  readonly kind: 'offline' | 'smsru';
  /** Resolves with the provider's message id once the provider accepted the message. */
  send(message: SmsMessage): Promise<{ id: string }>;
}

/** A pino-like logger; only `info` is used. */
export interface SmsLogger {
  info(obj: object, msg: string): void;
}

export type SmsErrorCode =
  | 'invalid_phone' // SMS.ru 202, or not digits: fix the number, do not retry
  | 'phone_not_allowed' // SMS.ru 207: the number may not receive messages from us
  | 'auth' // SMS.ru 200: bad api_id (configuration)
  | 'no_funds' // SMS.ru 201: the account needs topping up
  | 'rejected' // any other refusal by the provider
  | 'unavailable' // provider answered 5xx/429 or said "try later"
  | 'timeout' // no answer in time; the message may still have been sent
  | 'network' // could not reach the provider
  | 'bad_response'; // an answer we do not understand

export class SmsError extends Error {
  override readonly name = 'SmsError';
  readonly code: SmsErrorCode;
  /** True when sending the same message again later may succeed. */
  readonly retryable: boolean;
  /** The provider's own status code (SMS.ru `status_code`), when it gave one. */
  readonly providerCode: number | undefined;
  /** The HTTP status of the provider's answer, when there was one. */
  readonly httpStatus: number | undefined;

  constructor(
    message: string,
    options: { code: SmsErrorCode; retryable: boolean; providerCode?: number; httpStatus?: number; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.retryable = options.retryable;
    this.providerCode = options.providerCode;
    this.httpStatus = options.httpStatus;
  }
}

const PHONE = /^\d{10,15}$/;

/** Both implementations refuse the same malformed input, so offline runs catch caller bugs too. */
export function assertSendable(message: SmsMessage): void {
  if (typeof message.phone !== 'string' || !PHONE.test(message.phone)) {
    throw new SmsError('SMS phone must be 10 to 15 digits, country code first', {
      code: 'invalid_phone',
      retryable: false,
    });
  }
  if (typeof message.text !== 'string' || message.text.trim() === '') {
    throw new SmsError('SMS text is empty', { code: 'rejected', retryable: false });
  }
}

/** For logs of real sends: enough to tell numbers apart, not enough to identify the shopper. */
export function maskPhone(phone: string): string {
  return phone.length <= 6
    ? '*'.repeat(phone.length)
    : `${phone.slice(0, 4)}${'*'.repeat(phone.length - 6)}${phone.slice(-2)}`;
}
