import { describe, expect, it } from 'vitest';
import { createOfflineCaptcha } from './offline.server';

const check = (token: string, minScore?: number) =>
  createOfflineCaptcha({ minScore }).verify({ token, action: 'send_sms', ip: '203.0.113.7' });

describe('offline captcha', () => {
  it('is the "off" kind', () => {
    expect(createOfflineCaptcha().kind).toBe('off');
  });

  it('fails an empty or blank token', async () => {
    expect(await check('')).toMatchObject({ ok: false, reason: 'missing token' });
    expect(await check('   ')).toMatchObject({ ok: false });
  });

  it('fails offline-fail', async () => {
    expect(await check('offline-fail')).toMatchObject({ ok: false });
  });

  it('passes offline-ok:<score> only at or above the threshold', async () => {
    expect(await check('offline-ok:0.9')).toEqual({ ok: true, score: 0.9 });
    expect(await check('offline-ok:0.5')).toEqual({ ok: true, score: 0.5 });
    expect(await check('offline-ok:1')).toEqual({ ok: true, score: 1 });
    expect(await check('offline-ok:0.3')).toMatchObject({ ok: false, score: 0.3 });
    expect(await check('offline-ok:0.7', 0.8)).toMatchObject({ ok: false, score: 0.7 });
    expect(await check('offline-ok:0', 0)).toEqual({ ok: true, score: 0 });
  });

  it('fails a malformed score instead of guessing', async () => {
    for (const token of ['offline-ok:', 'offline-ok:abc', 'offline-ok:1.5', 'offline-ok:-1', 'offline-ok:0.5x']) {
      expect(await check(token), token).toMatchObject({ ok: false });
    }
  });

  it('passes any other non-empty token, as the embedded default without keys', async () => {
    expect(await check('offline-ok')).toEqual({ ok: true });
    expect(await check('03AFcWeA6x-a-real-looking-token')).toEqual({ ok: true });
  });
});
