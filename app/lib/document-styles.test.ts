import { describe, expect, it } from 'vitest';
import routes from '~/app/routes';
import { needsOrderStyles } from './document-styles';

type Entry = { path?: string; file: string; index?: boolean; children?: Entry[] };

describe('orders.css goes with the basket, checkout, payment and account pages only', () => {
  const entries = routes as unknown as Entry[];

  it('every route of routes/basket*.tsx and routes/personal.tsx, and no other, takes it', () => {
    expect(entries.length).toBeGreaterThan(10);
    for (const entry of entries) {
      // A pathname the route answers: parameters and splats filled in, the shop's trailing slash.
      const pathname = `/${(entry.path ?? '').replace(/:[\w]+/g, 'x').replace(/\*$/, 'x/y')}/`.replace(/\/+/g, '/');
      const ordersPage = /^routes\/(?:basket[\w-]*|personal[\w-]*)\.tsx$/.test(entry.file);
      expect({ file: entry.file, pathname, styles: needsOrderStyles(pathname) }).toEqual({
        file: entry.file,
        pathname,
        styles: ordersPage,
      });
    }
  });

  it('matches whole path segments', () => {
    expect(needsOrderStyles('/basket')).toBe(true);
    expect(needsOrderStyles('/basket/pay/frame/')).toBe(true);
    expect(needsOrderStyles('/personal/')).toBe(true);
    expect(needsOrderStyles('/basketball/')).toBe(false);
    expect(needsOrderStyles('/catalog/basket/')).toBe(false);
    expect(needsOrderStyles('/')).toBe(false);
  });
});
