import { describe, expect, it } from 'vitest';
import type { OrderDetail } from '~/shared/contract';
import { nextSteps, onlinePaymentWay } from './OrderItems';

const order = (paymentId: string, status: string, deliveryId = '139') =>
  ({
    PAYMENT: { ID: paymentId, NAME: '' },
    STATUS_CODE: status,
    DELIVERY: { ID: deliveryId },
  }) as unknown as OrderDetail;

describe('what the order page says about paying', () => {
  it('names the online way an unpaid order is paid', () => {
    expect(onlinePaymentWay('9')).toBe('картой');
    expect(onlinePaymentWay('10')).toBe('через Долями');
    expect(onlinePaymentWay('11')).toBe('через Яндекс Сплит');
    expect(onlinePaymentWay('1')).toBeNull();
  });

  it('asks to pay an unpaid online order the way it was chosen, and not once it is paid', () => {
    expect(nextSteps(order('10', 'awaiting_payment'))[0]?.title).toBe('Оплатите заказ через Долями');
    expect(nextSteps(order('9', 'awaiting_payment'))[0]?.title).toBe('Оплатите заказ картой');
    expect(nextSteps(order('11', 'new')).some((s) => s.title.startsWith('Оплатите заказ'))).toBe(false);
    expect(nextSteps(order('1', 'new', '1')).some((s) => s.title.startsWith('Оплатите заказ'))).toBe(false);
  });
});
