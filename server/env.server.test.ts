import { describe, expect, it } from 'vitest';
import { assertProductionReady, ConfigError, loadEnv, offlinePaymentProviders } from './env.server';

describe('assertProductionReady', () => {
  it('refuses production with offline payment stand-ins and names every variable to set', () => {
    const env = loadEnv({ NODE_ENV: 'production' });
    expect(offlinePaymentProviders(env)).toEqual(['CLOUDPAYMENTS_PROVIDER', 'DOLYAMI_PROVIDER', 'YANDEX_SPLIT_PROVIDER']);
    expect(() => assertProductionReady(env)).toThrow(ConfigError);
    expect(() => assertProductionReady(env)).toThrow(
      /CLOUDPAYMENTS_PROVIDER[\s\S]*DOLYAMI_PROVIDER[\s\S]*YANDEX_SPLIT_PROVIDER[\s\S]*ALLOW_OFFLINE_PAYMENTS=true/,
    );
  });

  it('lets a demo (ALLOW_OFFLINE_PAYMENTS=true) and development or tests start', () => {
    expect(() => assertProductionReady(loadEnv({ NODE_ENV: 'production', ALLOW_OFFLINE_PAYMENTS: 'true' }))).not.toThrow();
    expect(() => assertProductionReady(loadEnv({ NODE_ENV: 'development' }))).not.toThrow();
    expect(() => assertProductionReady(loadEnv({ NODE_ENV: 'test' }))).not.toThrow();
  });

  it('names only the providers still offline', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      CLOUDPAYMENTS_PROVIDER: 'cloudpayments',
      PUBLIC_CLOUDPAYMENTS_ID: 'pk_x',
      CLOUDPAYMENTS_API_SECRET: 'secret',
    });
    expect(offlinePaymentProviders(env)).toEqual(['DOLYAMI_PROVIDER', 'YANDEX_SPLIT_PROVIDER']);
    expect(() => assertProductionReady(env)).toThrow(/DOLYAMI_PROVIDER/);
    expect(() => assertProductionReady(env)).not.toThrow(/CLOUDPAYMENTS_PROVIDER/);
  });
});
