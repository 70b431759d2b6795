import { describe, expect, it } from 'vitest';
import {
  canMove,
  isFinalStatus,
  isTrackNumber,
  moveError,
  nextStatuses,
  ORDER_STATUS_TEXT,
  ORDER_STATUSES,
  statusLabel,
} from './order-status';
import { orderStatusLabel } from './account';

describe('order statuses', () => {
  it('go forward one step at a time, from acceptance to receipt', () => {
    const path = ['new', 'confirmed', 'assembling', 'shipped', 'delivered', 'received'];
    for (let i = 0; i + 1 < path.length; i++) expect(canMove(path[i] as string, path[i + 1] as string)).toBe(true);
    expect(canMove('new', 'assembling')).toBe(false);
    expect(canMove('confirmed', 'new')).toBe(false);
    expect(canMove('shipped', 'received')).toBe(false);
    expect(canMove('new', 'new')).toBe(false);
  });

  it('can be cancelled only before the carrier has the parcel', () => {
    for (const from of ['awaiting_payment', 'new', 'confirmed', 'assembling'])
      expect(canMove(from, 'cancelled')).toBe(true);
    // Paid only when the provider's payment is verified, never by hand.
    expect(canMove('awaiting_payment', 'new')).toBe(false);
    expect(moveError('awaiting_payment', 'new')).toBe(ORDER_STATUS_TEXT.paymentNotVerified);
    for (const from of ['shipped', 'delivered', 'received', 'cancelled'])
      expect(canMove(from, 'cancelled')).toBe(false);
  });

  it('ends at received or cancelled, and unknown codes never move', () => {
    expect(isFinalStatus('received')).toBe(true);
    expect(isFinalStatus('cancelled')).toBe(true);
    expect(isFinalStatus('shipped')).toBe(false);
    for (const to of ORDER_STATUSES) {
      expect(canMove('received', to)).toBe(false);
      expect(canMove('cancelled', to)).toBe(false);
      expect(canMove('completed', to)).toBe(false);
    }
    expect(canMove('new', 'paid')).toBe(false);
    expect(nextStatuses('assembling')).toEqual(['shipped', 'cancelled']);
    expect(nextStatuses('weird')).toEqual([]);
  });

  it('read in Russian, old codes too, and the account uses the same table', () => {
    expect(ORDER_STATUSES.map(statusLabel)).toEqual([
      'Ожидает оплаты',
      'Принят',
      'Подтверждён',
      'Собирается',
      'Передан в доставку',
      'Доставлен',
      'Получен',
      'Отменён',
    ]);
    expect(statusLabel('processing')).toBe('В обработке');
    expect(statusLabel('paid')).toBe('Оплачен');
    expect(statusLabel('completed')).toBe('Выполнен');
    expect(statusLabel('weird')).toBe('В обработке');
    for (const s of [...ORDER_STATUSES, 'paid', 'completed', 'weird']) expect(orderStatusLabel(s)).toBe(statusLabel(s));
  });

  it('explains a refused move in Russian', () => {
    expect(moveError('received', 'cancelled')).toBe('Заказ в статусе «Получен»: его статус больше не меняется');
    expect(moveError('shipped', 'cancelled')).toBe('Заказ в статусе «Передан в доставку» уже нельзя отменить');
    expect(moveError('new', 'shipped')).toBe(
      'Нельзя перевести заказ из статуса «Принят» в «Передан в доставку»: можно только в «Подтверждён» или «Отменён»',
    );
    expect(moveError('new', 'new')).toBe('Заказ уже в статусе «Принят»');
    expect(moveError('new', 'lost')).toBe('Неизвестный статус заказа');
  });

  it('takes track numbers of letters, digits and hyphens', () => {
    expect(isTrackNumber('1234567890')).toBe(true);
    expect(isTrackNumber('RA-123456789RU')).toBe(true);
    expect(isTrackNumber('12')).toBe(false);
    expect(isTrackNumber('12 34 56')).toBe(false);
    expect(isTrackNumber('<script>')).toBe(false);
  });
});
