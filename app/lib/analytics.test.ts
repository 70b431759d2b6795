import { afterEach, describe, expect, it, vi } from 'vitest';
import { GOAL, parseCounterId, reachGoal, startCounter, trackAddToCart } from './analytics';

describe('parseCounterId', () => {
  it('turns the public env value into a counter id, anything else off', () => {
    expect(parseCounterId('98765432')).toBe(98765432);
    expect(parseCounterId(' 98765432 ')).toBe(98765432);
    for (const off of [undefined, null, '', '0', 'abc', '12a', '-5']) expect(parseCounterId(off)).toBeNull();
  });
});

describe('goals', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are no-ops on the server', () => {
    expect(() => reachGoal(GOAL.fastOrder)).not.toThrow();
  });

  it('are recorded in memory and, once the counter started, sent to ym; tag.js loads when idle', () => {
    const appended: { src: string; async: boolean }[] = [];
    const idle: (() => void)[] = [];
    const win: Record<string, unknown> = { requestIdleCallback: (fn: () => void) => idle.push(fn) };
    vi.stubGlobal('window', win);
    vi.stubGlobal('document', {
      querySelector: () => null,
      createElement: () => ({ src: '', async: false }),
      head: { appendChild: (el: { src: string; async: boolean }) => appended.push(el) },
    });

    // No counter yet: recorded, not sent.
    reachGoal(GOAL.notifyWhenAvailable);
    expect(win.__vitrinaGoals).toEqual([{ goal: 'notify_when_available', params: undefined, sent: false }]);

    startCounter(123);
    expect(appended).toHaveLength(0);
    idle.forEach((fn) => fn());
    expect(appended).toEqual([{ src: 'https://mc.yandex.ru/metrika/tag.js', async: true }]);

    trackAddToCart({ id: '27', name: 'Свитер', price: 17000, quantity: 2 });
    const queue = (win.ym as { a: unknown[][] }).a;
    expect(queue[0]?.slice(0, 2)).toEqual([123, 'init']);
    expect(queue[1]).toEqual([123, 'reachGoal', 'add_to_cart', { order_price: 34000, currency: 'RUB' }]);
    expect(win.dataLayer).toEqual([
      {
        ecommerce: {
          currencyCode: 'RUB',
          add: { products: [{ id: '27', name: 'Свитер', price: 17000, quantity: 2 }] },
        },
      },
    ]);
  });
});
