import { describe, expect, it } from 'vitest';
import { cloudPaymentsConfigSchema, createCardPayments, OFFLINE_DEV_SECRET, OFFLINE_PUBLIC_ID } from './index.server';

describe('CloudPayments configuration', () => {
  it('defaults to the offline stand-in with a test public id, its own script and a 30-minute hold', () => {
    const config = cloudPaymentsConfigSchema.parse({});
    expect(config).toMatchObject({ CLOUDPAYMENTS_PROVIDER: 'offline', PAYMENT_HOLD_MINUTES: 30 });
    const payments = createCardPayments(config, { dataDir: '/nonexistent' });
    expect(payments).toMatchObject({
      publicId: OFFLINE_PUBLIC_ID,
      apiSecret: OFFLINE_DEV_SECRET,
      widgetUrl: null,
      holdMinutes: 30,
    });
    expect(payments.client.kind).toBe('offline');
    expect(createCardPayments(config, { dataDir: '/nonexistent', offlineSecret: () => 'kept' }).apiSecret).toBe('kept');
  });

  it('needs the public id and the API secret for the real CloudPayments, and loads its widget from their host', () => {
    const refused = cloudPaymentsConfigSchema.safeParse({ CLOUDPAYMENTS_PROVIDER: 'cloudpayments' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => i.path[0]).sort()).toEqual([
      'CLOUDPAYMENTS_API_SECRET',
      'PUBLIC_CLOUDPAYMENTS_ID',
    ]);
    const config = cloudPaymentsConfigSchema.parse({
      CLOUDPAYMENTS_PROVIDER: 'cloudpayments',
      PUBLIC_CLOUDPAYMENTS_ID: 'pk_1',
      CLOUDPAYMENTS_API_SECRET: 's',
      PAYMENT_HOLD_MINUTES: '45',
    });
    const payments = createCardPayments(config, { dataDir: '/nonexistent' });
    expect(payments).toMatchObject({
      publicId: 'pk_1',
      apiSecret: 's',
      widgetUrl: 'https://widget.cloudpayments.ru/bundles/cloudpayments.js',
      holdMinutes: 45,
      offline: null,
    });
    expect(payments.client.kind).toBe('cloudpayments');
    expect(cloudPaymentsConfigSchema.safeParse({ PAYMENT_HOLD_MINUTES: '0' }).success).toBe(false);
  });
});
