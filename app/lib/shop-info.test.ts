import { describe, expect, it } from 'vitest';
import { telHref } from './shop-info';

describe('telHref', () => {
  it('keeps the digits and a leading + of a phone as written', () => {
    expect(telHref('+7 (495) 120-47-36')).toBe('tel:+74951204736');
    // Staff may write a shop's number without +: it is not given one (8 495… is not +8 495…).
    expect(telHref('8 (495) 120-47-36')).toBe('tel:84951204736');
  });
});
