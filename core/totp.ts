// Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), as authenticator apps make them:
// 30-second steps, HMAC-SHA-1, 6 digits. Pure: the caller hands in the HMAC (node:crypto on the
// server), so the rule is tested here with the RFC's own vectors.

/** HMAC of `message` under `key` with the algorithm the caller chose (SHA-1 for authenticator apps). */
export type Hmac = (key: Uint8Array, message: Uint8Array) => Uint8Array;

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes of the previous and the next step are taken too (clock drift, a code typed as it changed). */
export const TOTP_WINDOW = 1;
/** 160 bits, the size RFC 4226 recommends and authenticator apps expect. */
export const TOTP_SECRET_BYTES = 20;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, as otpauth:// URIs carry secrets. */
export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Base32 back to bytes; spaces, dashes, padding and letter case are forgiven; null when not base32. */
export function base32Decode(text: string): Uint8Array | null {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const v = BASE32.indexOf(ch);
    if (v === -1) return null;
    value = ((value << 5) | v) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** The step a moment falls in: whole 30-second periods since the epoch. */
export function totpStep(atMs: number, stepSeconds = TOTP_STEP_SECONDS): number {
  return Math.floor(atMs / 1000 / stepSeconds);
}

/** RFC 4226 HOTP: the code of counter `counter` (dynamic truncation, `digits` decimal digits). */
export function hotp(hmac: Hmac, key: Uint8Array, counter: number, digits = TOTP_DIGITS): string {
  const message = new Uint8Array(8);
  // The counter as a big-endian 64-bit integer (steps fit in 53 bits for millennia).
  let c = counter;
  for (let i = 7; i >= 0; i--) {
    message[i] = c % 256;
    c = Math.floor(c / 256);
  }
  const mac = hmac(key, message);
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary =
    (((mac[offset] as number) & 0x7f) << 24) |
    ((mac[offset + 1] as number) << 16) |
    ((mac[offset + 2] as number) << 8) |
    (mac[offset + 3] as number);
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The TOTP code at a moment. */
export function totpCode(hmac: Hmac, key: Uint8Array, atMs: number, digits = TOTP_DIGITS): string {
  return hotp(hmac, key, totpStep(atMs), digits);
}

/** A code as typed: digits only (spaces between groups forgiven), or null. */
export function normalizeTotpInput(input: string): string | null {
  const digits = input.replace(/\s/g, '');
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(digits) ? digits : null;
}

/**
 * Checks `code` against the steps around `atMs` (±TOTP_WINDOW) and answers the step it matched,
 * or null. A step at or before `lastUsedStep` never matches: each code is usable once, and so is
 * every code older than one already used (RFC 6238 §5.2). Every candidate is compared in full
 * (no early exit on the first differing digit).
 */
export function verifyTotp(input: {
  hmac: Hmac;
  key: Uint8Array;
  code: string;
  atMs: number;
  lastUsedStep: number | null;
  window?: number;
}): number | null {
  const code = normalizeTotpInput(input.code);
  if (code === null) return null;
  const now = totpStep(input.atMs);
  const window = input.window ?? TOTP_WINDOW;
  let matched: number | null = null;
  for (let step = now - window; step <= now + window; step++) {
    if (input.lastUsedStep !== null && step <= input.lastUsedStep) continue;
    if (sameDigits(hotp(input.hmac, input.key, step), code) && matched === null) matched = step;
  }
  return matched;
}

function sameDigits(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The otpauth:// URI an authenticator app reads (from a QR code or typed in): Key URI Format. */
export function otpauthUri({ issuer, account, secret }: { issuer: string; account: string; secret: string }): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}

/** A secret shown for typing by hand: groups of four. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}
