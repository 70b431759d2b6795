import { describe, expect, it } from 'vitest';
import { autoOpenAllowed, overlaps, panelBoxAbove } from './keep-clear';

describe('where the stylist chat may sit', () => {
  it('does not open by itself on the basket, checkout, payment or login pages', () => {
    for (const path of ['/basket/', '/basket/pay/', '/basket/submited-order/', '/auth/', '/auth/email/', '/basket'])
      expect(autoOpenAllowed(path), path).toBe(false);
    for (const path of ['/', '/catalog/woman/', '/about/', '/basketball/', '/authors/'])
      expect(autoOpenAllowed(path), path).toBe(true);
  });
  it('tells boxes that overlap from boxes that only touch', () => {
    const a = { left: 0, top: 0, right: 10, bottom: 10 };
    expect(overlaps(a, { left: 5, top: 5, right: 15, bottom: 15 })).toBe(true);
    expect(overlaps(a, { left: 10, top: 0, right: 20, bottom: 10 })).toBe(false);
    expect(overlaps(a, { left: 0, top: 11, right: 10, bottom: 20 })).toBe(false);
  });
  it('puts the panel above the launcher, right-aligned, never wider than the screen', () => {
    const launcher = { left: 318, top: 700, right: 374, bottom: 756 };
    expect(panelBoxAbove(launcher, 390)).toEqual({ left: 34, right: 374, bottom: 688, top: 408 });
    expect(panelBoxAbove({ left: 1000, top: 800, right: 1248, bottom: 856 }, 1280).left).toBe(908);
    expect(panelBoxAbove({ left: 264, top: 700, right: 304, bottom: 756 }, 320).left).toBe(16);
  });
});
