import { describe, expect, it } from 'vitest';
import { cdekConfigSchema, createCdek } from './index.server';

describe('cdekConfigSchema', () => {
  it('defaults to the offline stand-in shipping from Moscow', () => {
    expect(cdekConfigSchema.parse({})).toEqual({
      CDEK_PROVIDER: 'offline',
      CDEK_CLIENT_ID: undefined,
      CDEK_CLIENT_SECRET: undefined,
      CDEK_BASE_URL: undefined,
      CDEK_TIMEOUT_MS: 10_000,
      CDEK_FROM_CITY_CODE: 44,
      CDEK_OFFLINE_FAIL_CITIES: [],
    });
  });

  it('requires both credentials for CDEK, naming each variable', () => {
    const result = cdekConfigSchema.safeParse({ CDEK_PROVIDER: 'cdek', CDEK_CLIENT_ID: '', CDEK_CLIENT_SECRET: '' });
    expect(result.error?.issues.map((i) => `${i.path.join('.')} ${i.message}`)).toEqual([
      'CDEK_CLIENT_ID is required when CDEK_PROVIDER=cdek',
      'CDEK_CLIENT_SECRET is required when CDEK_PROVIDER=cdek',
    ]);
  });

  it('rejects unknown providers and malformed values', () => {
    expect(cdekConfigSchema.safeParse({ CDEK_PROVIDER: 'boxberry' }).success).toBe(false);
    expect(cdekConfigSchema.safeParse({ CDEK_BASE_URL: 'api.cdek.ru/v2' }).success).toBe(false);
    expect(cdekConfigSchema.safeParse({ CDEK_TIMEOUT_MS: '5' }).success).toBe(false);
    expect(cdekConfigSchema.safeParse({ CDEK_FROM_CITY_CODE: 'Москва' }).success).toBe(false);
    expect(cdekConfigSchema.safeParse({ CDEK_OFFLINE_FAIL_CITIES: '137;44' }).success).toBe(false);
    expect(cdekConfigSchema.parse({ CDEK_OFFLINE_FAIL_CITIES: ' 137, 44 ' }).CDEK_OFFLINE_FAIL_CITIES).toEqual([
      137, 44,
    ]);
  });
});

describe('createCdek', () => {
  it('picks the implementation from the configuration', async () => {
    const offline = createCdek(cdekConfigSchema.parse({ CDEK_OFFLINE_FAIL_CITIES: '137' }));
    expect(offline.kind).toBe('offline');
    expect((await offline.deliveryPoints({ city_code: 44 })).length).toBeGreaterThanOrEqual(10);
    const route = {
      from_location: { code: 44 },
      to_location: { code: 137 },
      packages: [{ weight: 500, length: 40, width: 30, height: 10 }],
    };
    await expect(offline.tariffList(route)).rejects.toMatchObject({ name: 'CdekError', status: 502 });
    const real = createCdek(
      cdekConfigSchema.parse({ CDEK_PROVIDER: 'cdek', CDEK_CLIENT_ID: 'id', CDEK_CLIENT_SECRET: 'secret' }),
    );
    expect(real.kind).toBe('cdek');
  });
});
