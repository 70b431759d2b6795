import { describe, expect, it } from 'vitest';
import {
  answerText,
  pickPriceTypes,
  priceKopecks,
  quantityOf,
  roubles,
  safeExchangeName,
  splitOfferId,
} from './commerceml';

describe('the 1C exchange rules', () => {
  it('answers with the kind first and one reason a line', () => {
    expect(answerText({ kind: 'success' })).toBe('success');
    expect(answerText({ kind: 'failure', lines: ['Ошибка\nв две строки', ''] })).toBe('failure\nОшибка в две строки');
  });

  it('keeps file names inside the exchange folder', () => {
    expect(safeExchangeName('import.xml')).toBe('import.xml');
    expect(safeExchangeName('import_files/ab/photo.jpg')).toBe('import_files/ab/photo.jpg');
    for (const bad of ['', '../x.xml', 'a/../b', '/etc/passwd', 'a//b', './a', 'a\\b', 'C:x', 'a\u0000b'])
      expect(safeExchangeName(bad), bad).toBeNull();
  });

  it('reads prices and quantities as 1C writes them', () => {
    expect(priceKopecks('3200')).toBe(320_000);
    expect(priceKopecks('3 200,5')).toBe(320_050);
    expect(priceKopecks('9900.505')).toBe(990_051);
    expect(priceKopecks('abc')).toBeNull();
    expect(priceKopecks('-1')).toBeNull();
    expect(quantityOf('5.000')).toBe(5);
    expect(quantityOf('-2')).toBe(0);
    expect(quantityOf('x')).toBeNull();
    expect(roubles(320_050)).toBe('3200.50');
    expect(splitOfferId('p#c')).toEqual({ productId: 'p', characteristicId: 'c' });
    expect(splitOfferId('p')).toEqual({ productId: 'p', characteristicId: null });
  });

  it('picks the sale and old price types by the settings, else by name', () => {
    const types = [
      { id: 'w', name: 'Оптовая' },
      { id: 'r', name: 'Розничная' },
      { id: 'o', name: 'Цена до скидки' },
    ];
    expect(pickPriceTypes(types, { salePriceType: null, oldPriceType: null })).toEqual({ sale: 'r', old: 'o' });
    expect(pickPriceTypes(types, { salePriceType: 'оптовая', oldPriceType: 'r' })).toEqual({ sale: 'w', old: 'r' });
    expect(pickPriceTypes([{ id: 'x', name: 'Основная' }], { salePriceType: null, oldPriceType: null })).toEqual({
      sale: 'x',
      old: null,
    });
    expect(pickPriceTypes(types, { salePriceType: 'нет такой', oldPriceType: null })).toEqual({ sale: null, old: 'o' });
  });
});
