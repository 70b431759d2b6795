import crypto from 'node:crypto';
import type * as Argon2 from '@node-rs/argon2';
import type { Algorithm } from '@node-rs/argon2';
import { base32Decode, base32Encode, TOTP_SECRET_BYTES, type Hmac } from '~/core/totp';

// The secrets of staff login: password hashes (argon2id), random tokens kept only as SHA-256
// hashes (sessions, one-time links), and TOTP keys encrypted at rest (AES-256-GCM).

/**
 * argon2id with OWASP's first recommended set (ASVS 5.0 §11.4.2): 19 MiB of memory, 2 passes,
 * one lane. About 30 ms a hash on this machine; the login caps bound how often it runs.
 */
// Algorithm is a const enum (no runtime object): 2 is its Argon2id.
const ARGON2ID = 2 as Algorithm;
const ARGON2 = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

/** The native argon2 module, loaded with the first staff login rather than at start. */
let argon2: Promise<typeof Argon2> | null = null;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

export async function hashPassword(password: string): Promise<string> {
  return (await loadArgon2()).hash(password, ARGON2);
}

async function argon2Verify(stored: string, password: string): Promise<boolean> {
  return (await loadArgon2()).verify(stored, password);
}

/** A hash to verify against when the account does not exist, so both cost the same time. */
let dummyHash: Promise<string> | null = null;

/** Checks a password against a stored hash; with no hash (unknown account, no password yet) it still spends the time and says no. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
    await argon2Verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2Verify(stored, password);
  } catch {
    return false;
  }
}

/** A new random token (256 bits, base64url) for a cookie or a link. */
export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** What the database keeps of a token: its SHA-256 (a stolen table gives no usable token). */
export function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token).digest('base64url');
}

/** HMAC-SHA-1 for core/totp.ts. */
export const hmacSha1: Hmac = (key, message) => new Uint8Array(crypto.createHmac('sha1', key).update(message).digest());

/** A new TOTP key, base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return base32Encode(crypto.randomBytes(TOTP_SECRET_BYTES));
}

/** The key that encrypts TOTP keys: derived from AUTH_SECRET (HKDF-SHA-256), never stored. */
export function totpKeyFrom(authSecret: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', authSecret, 'vitrina', 'staff totp secret v1', 32));
}

/** 'v1.<iv>.<tag>.<ciphertext>' (base64url): AES-256-GCM of the base32 secret, bound to the staff id. */
export function encryptTotpSecret(key: Buffer, staffId: number, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`staff:${staffId}`));
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(
    '.',
  );
}

/** The base32 secret back, or null when it cannot be read (another AUTH_SECRET, another row's value). */
export function decryptTotpSecret(key: Buffer, staffId: number, stored: string): string | null {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(`staff:${staffId}`));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The secret's bytes for core/totp.ts. */
export function totpKeyBytes(secret: string): Uint8Array {
  const bytes = base32Decode(secret);
  if (!bytes) throw new Error('stored TOTP secret is not base32');
  return bytes;
}
