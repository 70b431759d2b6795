import { describe, expect, it } from 'vitest';
import { auditActionText, entityText } from './labels';

describe('auditActionText', () => {
  it('names an order status change with the statuses it moved between, in Russian', () => {
    // The back office's routes: before.status and after.status.
    expect(
      auditActionText({ action: 'order.confirm', before: { status: 'new' }, after: { status: 'confirmed' } }),
    ).toBe('Заказ подтверждён: Принят → Подтверждён');
    expect(
      auditActionText({
        action: 'order.cancel',
        before: { status: 'assembling' },
        after: { status: 'cancelled', stock_returned: [] },
      }),
    ).toBe('Заказ отменён: Собирается → Отменён');
    // `npm run order`: the answer as `after`, with previous_status.
    expect(
      auditActionText({
        action: 'order.status',
        before: null,
        after: { order_id: 7, previous_status: 'shipped', status: 'delivered', status_label: 'Доставлен' },
      }),
    ).toBe('Статус заказа: Передан в доставку → Доставлен');
    expect(
      auditActionText({ action: 'order.fitting', before: { status: 'shipped' }, after: { status: 'received' } }),
    ).toBe('Примерка: Передан в доставку → Получен');
  });

  it('leaves other rows, and rows without both statuses, at the action’s name', () => {
    expect(auditActionText({ action: 'order.note', before: null, after: { note_id: 1, text: 'x' } })).toBe('Заметка');
    expect(auditActionText({ action: 'order.fitting', before: null, after: { status: 'received' } })).toBe('Примерка');
    expect(auditActionText({ action: 'staff.role', before: { status: 'new' }, after: { status: 'confirmed' } })).toBe(
      'Роль изменена',
    );
    expect(auditActionText({ action: 'something.new', before: null, after: null })).toBe('something.new');
  });

  it('names the object, or the kind alone for a row about many', () => {
    expect(entityText('order', '12')).toBe('Заказ №\u00a012');
    expect(entityText('customer', '*')).toBe('Покупатели');
    expect(entityText('jobs', '')).toBe('Задачи');
  });
});
