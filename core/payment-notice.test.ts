import { describe, expect, it } from 'vitest';
import { minutesLeft, moscowClock, paymentExpiredSms, paymentReminderAt } from './payment-notice';

describe('payment notices', () => {
  it('reminds 10 minutes before a 30-minute hold ends, halfway through a shorter one', () => {
    const placed = new Date('2026-11-28T10:00:00Z');
    expect(paymentReminderAt(placed, new Date('2026-11-28T10:30:00Z')).toISOString()).toBe('2026-11-28T10:20:00.000Z');
    expect(paymentReminderAt(placed, new Date('2026-11-28T10:08:00Z')).toISOString()).toBe('2026-11-28T10:04:00.000Z');
  });

  it('counts whole minutes left, rounding up, never below zero', () => {
    const until = new Date('2026-11-28T10:30:00Z');
    expect(minutesLeft(new Date('2026-11-28T10:20:00Z'), until)).toBe(10);
    expect(minutesLeft(new Date('2026-11-28T10:29:30Z'), until)).toBe(1);
    expect(minutesLeft(new Date('2026-11-28T10:31:00Z'), until)).toBe(0);
  });

  it('writes the Moscow time and the cancellation SMS', () => {
    expect(moscowClock(new Date('2026-11-28T21:05:00Z'))).toBe('00:05');
    expect(paymentExpiredSms({ orderId: 7 }, 'https://vitrina.example')).toBe(
      'Vitrina: время на оплату заказа №7 истекло, заказ отменён. Вернуть вещи в корзину: https://vitrina.example/basket/repeat/?order=7',
    );
  });
});
