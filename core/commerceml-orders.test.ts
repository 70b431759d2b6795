import { describe, expect, it } from 'vitest';
import { mergeInfo, oneCDate, planOf, sameInfo, statusMoves, statusOf, type OrderDocument } from './commerceml-orders';

const doc = (over: Partial<OrderDocument> = {}): OrderDocument => ({
  id: '42',
  number: '42',
  date: '2026-03-02',
  time: '12:00:00',
  deleted: false,
  requisites: {},
  ...over,
});

describe('1C order documents', () => {
  it('reads 1C and Bitrix status texts and the site labels', () => {
    expect(statusOf('Отгружен')).toBe('shipped');
    expect(statusOf('[F] Выполнен')).toBe('received');
    expect(statusOf('[N] Принят')).toBe('new');
    expect(statusOf('[X] Что-то')).toBeNull();
    expect(statusOf('Передан в доставку')).toBe('shipped');
    expect(statusOf('Отменён')).toBe('cancelled');
    expect(statusOf('ОТМЕНЕН')).toBe('cancelled');
    expect(statusOf('assembling')).toBe('assembling');
    expect(statusOf('Непонятно')).toBeNull();
  });

  it('reads 1C dates in Moscow time', () => {
    expect(oneCDate('2026-03-04T11:30:00')!.toISOString()).toBe('2026-03-04T08:30:00.000Z');
    expect(oneCDate('04.03.2026 9:05:00')!.toISOString()).toBe('2026-03-04T06:05:00.000Z');
    expect(oneCDate('2026-03-04')!.toISOString()).toBe('2026-03-03T21:00:00.000Z');
    expect(oneCDate('0001-01-01T00:00:00')).toBeNull();
    expect(oneCDate('вчера')).toBeNull();
  });

  it('plans the order: the site number, a shipment at least shipped, a cancel, a payment, 1C numbers', () => {
    const p = planOf(
      doc({
        id: 'guid-of-1c',
        number: 'УТ-7',
        requisites: {
          'Номер заказа на сайте': '42',
          'Номер отгрузки по 1С': 'РТУ-1',
          'Дата оплаты по 1С': '2026-03-04T11:30:00',
          'Статус заказа': 'Подтвержден',
          Проведен: 'true',
        },
      }),
    );
    expect(p.orderId).toBe(42);
    expect(p.status).toBe('shipped');
    expect(p.paid).toBe(true);
    expect(p.paidAt!.toISOString()).toBe('2026-03-04T08:30:00.000Z');
    expect(p.info).toMatchObject({
      number: 'УТ-7',
      posted: true,
      shipmentNumber: 'РТУ-1',
      date: '2026-03-02T12:00:00',
    });
    expect(planOf(doc({ requisites: { Отменен: 'true', 'Номер отгрузки по 1С': 'X' } })).status).toBe('cancelled');
    expect(planOf(doc({ deleted: true })).status).toBe('cancelled');
    // Our own number echoed is not 1C's number.
    expect(planOf(doc()).info.number).toBeNull();
    expect(planOf(doc({ id: 'x', number: 'y' })).orderId).toBeNull();
    const odd = planOf(doc({ requisites: { 'Статус заказа': 'Ждёт луны' } }));
    expect([odd.status, odd.unknownStatus]).toEqual([null, 'Ждёт луны']);
  });

  it('moves one allowed step at a time, never back', () => {
    expect(statusMoves('new', 'shipped')).toEqual(['confirmed', 'assembling', 'shipped']);
    expect(statusMoves('shipped', 'confirmed')).toEqual([]);
    expect(statusMoves('shipped', 'shipped')).toEqual([]);
    expect(statusMoves('assembling', 'cancelled')).toEqual(['cancelled']);
    expect(statusMoves('cancelled', 'new')).toEqual(['new']);
    expect(statusMoves('awaiting_payment', 'shipped')).toEqual(['shipped']);
  });

  it('keeps what 1C leaves out, and sees the same info as the same', () => {
    const kept = planOf(doc({ number: 'УТ-1', requisites: { 'Номер оплаты по 1С': 'П-1' } })).info;
    const now = planOf(doc({ number: 'УТ-1' })).info;
    const merged = mergeInfo(kept, now);
    expect(merged.paymentNumber).toBe('П-1');
    expect(sameInfo(kept, merged)).toBe(true);
    expect(sameInfo(null, merged)).toBe(false);
  });
});
