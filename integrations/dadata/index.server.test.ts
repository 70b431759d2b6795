import { describe, expect, it } from 'vitest';
import { createAddressSuggestions, dadataConfigSchema } from './index.server';

describe('dadataConfigSchema', () => {
  it('defaults to the offline stand-in', () => {
    expect(dadataConfigSchema.parse({})).toEqual({
      DADATA_PROVIDER: 'offline',
      DADATA_API_KEY: undefined,
      DADATA_BASE_URL: undefined,
      DADATA_TIMEOUT_MS: 3000,
    });
  });

  it('requires the key for DaData, naming the variable', () => {
    const result = dadataConfigSchema.safeParse({ DADATA_PROVIDER: 'dadata', DADATA_API_KEY: '' });
    expect(result.error?.issues.map((i) => `${i.path.join('.')} ${i.message}`)).toEqual([
      'DADATA_API_KEY is required when DADATA_PROVIDER=dadata',
    ]);
  });

  it('rejects unknown providers and malformed values', () => {
    expect(dadataConfigSchema.safeParse({ DADATA_PROVIDER: 'google' }).success).toBe(false);
    expect(dadataConfigSchema.safeParse({ DADATA_BASE_URL: 'suggestions.dadata.ru' }).success).toBe(false);
    expect(dadataConfigSchema.safeParse({ DADATA_TIMEOUT_MS: '5' }).success).toBe(false);
  });
});

describe('createAddressSuggestions', () => {
  it('picks the implementation from the configuration', async () => {
    const offline = createAddressSuggestions(dadataConfigSchema.parse({}));
    expect(offline.kind).toBe('offline');
    expect((await offline.suggest({ query: 'казань баумана' })).suggestions[0]?.value).toBe('г Казань, ул Баумана');
    expect(
      createAddressSuggestions(dadataConfigSchema.parse({ DADATA_PROVIDER: 'dadata', DADATA_API_KEY: 'key' })).kind,
    ).toBe('dadata');
  });
});
