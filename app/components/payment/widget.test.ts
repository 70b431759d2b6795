import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PaymentWidgetParams } from '~/shared/contract';
import { openWidget } from './widget';

// The widget's legacy API as the pay page drives it: the options and `pay('charge', params)` go
// through untouched, and what its callbacks hand back is read defensively.

const PAYMENT: PaymentWidgetParams = {
  scriptUrl: '/backend/api/cloudpayments/offline/widget.js',
  options: {
    language: 'ru-RU',
    applePaySupport: false,
    googlePaySupport: false,
    yandexPaySupport: true,
    tinkoffPaySupport: true,
    sbpSupport: true,
  },
  params: {
    publicId: 'pk_test',
    description: 'Заказ №7',
    amount: 1500.5,
    currency: 'RUB',
    invoiceId: '7',
    accountId: '3',
    email: 'a@b.ru',
    skin: 'classic',
    data: {
      CloudPayments: {
        CustomerReceipt: {
          Items: [{ label: 'Футболка', price: 1500.5, quantity: 1, amount: 1500.5, vat: 0, measurementUnit: 'шт' }],
          email: 'a@b.ru',
          phone: '79990000000',
          amounts: { electronic: 1500.5 },
        },
      },
    },
  },
};

type Callbacks = { onSuccess?: (o: unknown) => void; onFail?: (r: unknown, o: unknown) => void };

function stubWidget() {
  const calls: { options: unknown; scheme: string; params: unknown; callbacks: Callbacks }[] = [];
  class CloudPayments {
    constructor(readonly options: unknown) {}
    pay(scheme: string, params: unknown, callbacks: Callbacks) {
      calls.push({ options: this.options, scheme, params, callbacks });
    }
  }
  vi.stubGlobal('window', { cp: { CloudPayments } });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('openWidget', () => {
  it('is false when window.cp is missing (SPEC §8: the caller logs it, nothing else happens)', () => {
    vi.stubGlobal('window', {});
    expect(openWidget(PAYMENT, { success: vi.fn(), fail: vi.fn() })).toBe(false);
  });

  it('charges with the server’s options and parameters, and reads the transaction id and the reason', () => {
    const calls = stubWidget();
    const success = vi.fn();
    const fail = vi.fn();
    expect(openWidget(PAYMENT, { success, fail })).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.scheme).toBe('charge');
    expect(calls[0]?.options).toEqual(PAYMENT.options);
    expect(calls[0]?.params).toEqual(PAYMENT.params);
    calls[0]?.callbacks.onSuccess?.({ transactionId: 504 });
    expect(success).toHaveBeenCalledWith({ transactionId: '504' });
    calls[0]?.callbacks.onSuccess?.({ data: { TransactionId: 'tx-9' } });
    expect(success).toHaveBeenLastCalledWith({ transactionId: 'tx-9' });
    calls[0]?.callbacks.onSuccess?.(undefined);
    expect(success).toHaveBeenLastCalledWith({ transactionId: null });
    calls[0]?.callbacks.onFail?.('  Недостаточно средств  ', {});
    expect(fail).toHaveBeenCalledWith({ reason: 'Недостаточно средств', cancelled: false });
    calls[0]?.callbacks.onFail?.({ code: 5051 }, {});
    expect(fail).toHaveBeenLastCalledWith({ reason: null, cancelled: false });
    calls[0]?.callbacks.onFail?.('User has cancelled', {});
    expect(fail).toHaveBeenLastCalledWith({ reason: null, cancelled: true });
  });
});
