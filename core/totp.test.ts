import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, otpauthUri, totpCode, totpStep, verifyTotp, type Hmac } from './totp';

const hmacOf =
  (algorithm: 'sha1' | 'sha256' | 'sha512'): Hmac =>
  (key, message) =>
    new Uint8Array(crypto.createHmac(algorithm, key).update(message).digest());
const sha1 = hmacOf('sha1');
const ascii = (s: string) => new TextEncoder().encode(s);

// RFC 6238 Appendix B: the seeds and the 8-digit codes at each time, per algorithm.
const SEEDS = {
  sha1: ascii('12345678901234567890'),
  sha256: ascii('12345678901234567890123456789012'),
  sha512: ascii('1234567890123456789012345678901234567890123456789012345678901234'),
};
const RFC6238: [number, string, keyof typeof SEEDS][] = [
  [59, '94287082', 'sha1'],
  [59, '46119246', 'sha256'],
  [59, '90693936', 'sha512'],
  [1111111109, '07081804', 'sha1'],
  [1111111109, '68084774', 'sha256'],
  [1111111109, '25091201', 'sha512'],
  [1111111111, '14050471', 'sha1'],
  [1111111111, '67062674', 'sha256'],
  [1111111111, '99943326', 'sha512'],
  [1234567890, '89005924', 'sha1'],
  [1234567890, '91819424', 'sha256'],
  [1234567890, '93441116', 'sha512'],
  [2000000000, '69279037', 'sha1'],
  [2000000000, '90698825', 'sha256'],
  [2000000000, '38618901', 'sha512'],
  [20000000000, '65353130', 'sha1'],
  [20000000000, '77737706', 'sha256'],
  [20000000000, '47863826', 'sha512'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(RFC6238)('at %i s the code is %s (%s)', (seconds, code, algorithm) => {
    expect(totpCode(hmacOf(algorithm), SEEDS[algorithm], seconds * 1000, 8)).toBe(code);
  });

  it('gives RFC 4226 HOTP codes for counters 0 to 9', () => {
    const codes = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(codes.map((_, counter) => hotp(sha1, SEEDS.sha1, counter))).toEqual(codes);
  });

  it('takes a code of the previous, the current and the next step, not two steps away', () => {
    const at = 1_700_000_015_000;
    const step = totpStep(at);
    for (const offset of [-1, 0, 1]) {
      const code = hotp(sha1, SEEDS.sha1, step + offset);
      expect(verifyTotp({ hmac: sha1, key: SEEDS.sha1, code, atMs: at, lastUsedStep: null })).toBe(step + offset);
    }
    for (const offset of [-2, 2]) {
      const code = hotp(sha1, SEEDS.sha1, step + offset);
      expect(verifyTotp({ hmac: sha1, key: SEEDS.sha1, code, atMs: at, lastUsedStep: null })).toBeNull();
    }
  });

  it('refuses a code whose step is used already, and every older one (replay)', () => {
    const at = 1_700_000_015_000;
    const step = totpStep(at);
    const code = hotp(sha1, SEEDS.sha1, step);
    expect(verifyTotp({ hmac: sha1, key: SEEDS.sha1, code, atMs: at, lastUsedStep: step })).toBeNull();
    const previous = hotp(sha1, SEEDS.sha1, step - 1);
    expect(verifyTotp({ hmac: sha1, key: SEEDS.sha1, code: previous, atMs: at, lastUsedStep: step })).toBeNull();
    const next = hotp(sha1, SEEDS.sha1, step + 1);
    expect(verifyTotp({ hmac: sha1, key: SEEDS.sha1, code: next, atMs: at, lastUsedStep: step })).toBe(step + 1);
  });

  it('reads a code with spaces and refuses what is not six digits', () => {
    const at = 1_700_000_015_000;
    const code = totpCode(sha1, SEEDS.sha1, at);
    expect(
      verifyTotp({
        hmac: sha1,
        key: SEEDS.sha1,
        code: `${code.slice(0, 3)} ${code.slice(3)}`,
        atMs: at,
        lastUsedStep: null,
      }),
    ).toBe(totpStep(at));
    for (const bad of ['', '12345', '1234567', 'abcdef', `${code}0`]) {
      expect(verifyTotp({ hmac: sha1, key: SEEDS.sha1, code: bad, atMs: at, lastUsedStep: null })).toBeNull();
    }
  });

  it('encodes base32 as RFC 4648 does and decodes it back', () => {
    // RFC 4648 §10 (without padding).
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(ascii(plain))).toBe(encoded);
      expect(base32Decode(encoded)).toEqual(ascii(plain));
    }
    expect(base32Encode(SEEDS.sha1)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv-gy3t qojq gezd gnbv gy3t qojq')).toEqual(SEEDS.sha1);
    expect(base32Decode('not base32!')).toBeNull();
  });

  it('writes the otpauth:// URI authenticator apps read', () => {
    const uri = otpauthUri({ issuer: 'Vitrina', account: 'anna@vitrina.example', secret: 'GEZDGNBV' });
    expect(uri).toBe(
      'otpauth://totp/Vitrina:anna%40vitrina.example?secret=GEZDGNBV&issuer=Vitrina&algorithm=SHA1&digits=6&period=30',
    );
  });
});
