import { describe, expect, it } from 'vitest';
import { messageIdFor } from './mail';

describe('messageIdFor', () => {
  it('is the same for one idempotency key, differs between keys, and never shows the key', () => {
    const random = () => 'random-part';
    const a = messageIdFor('vitrina.ru', 'order.placed:orderId=12|mail|order-placed|anna@example.com', random);
    expect(a).toBe(messageIdFor('vitrina.ru', 'order.placed:orderId=12|mail|order-placed|anna@example.com', random));
    expect(a).toMatch(/^<[0-9a-f]{40}@vitrina\.ru>$/);
    expect(a).not.toContain('anna');
    expect(messageIdFor('vitrina.ru', 'order.placed:orderId=13|mail|order-placed|anna@example.com', random)).not.toBe(
      a,
    );
    expect(messageIdFor('vitrina.ru', undefined, random)).toBe('<random-part@vitrina.ru>');
  });
});
