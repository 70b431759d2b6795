import { describe, expect, it } from 'vitest';
import { CSV_HEADING, kopecksToCsv, planCatalogueImport, salePrice, type CurrentProduct } from './catalogue-csv';
import { csvLine, parseCsv } from './csv';

const current: CurrentProduct = {
  id: 7,
  article: 'VT-1',
  name: 'Платье',
  sectionId: 3,
  kind: 'dress',
  colorName: 'Чёрный',
  priceKopecks: 500_000,
  oldPriceKopecks: null,
  active: true,
  offers: [
    { id: 70, size: '44', sizeType: 'clothes', priceKopecks: 500_000, oldPriceKopecks: null, quantity: 2 },
    { id: 71, size: '46', sizeType: 'clothes', priceKopecks: 500_000, oldPriceKopecks: null, quantity: 0 },
  ],
};
const ctx = {
  current: new Map([['vt-1', current]]),
  sections: [{ id: 3, path: 'Женщинам / Платья' }],
  kinds: [{ code: 'dress', label: 'Платье' }],
  canAdjustStock: true,
};
const file = (...rows: string[][]) => parseCsv(csvLine(CSV_HEADING) + rows.map((r) => csvLine(r)).join('')).rows;
const r = (article: string, size: string, price: string, quantity = '', more: Partial<Record<number, string>> = {}) => {
  const f = [article, '', '', '', '', size, '', '', price, '', quantity, ''];
  for (const [i, v] of Object.entries(more)) f[Number(i)] = v as string;
  return f;
};

describe('the catalogue file', () => {
  it('plans changes with before and after, new sizes and products, and counts unchanged rows', () => {
    const plan = planCatalogueImport(
      file(
        r('vt-1', '44', '4 500', '5'),
        r('VT-1', '46', '5000'),
        r('VT-1', '48', '5000', '1'),
        r('VT-2', '42', '3990,5', '3', { 1: 'Блуза', 2: 'Женщинам / Платья', 3: 'платье', 11: 'да' }),
      ),
      ctx,
    );
    expect(plan.errors).toEqual([]);
    expect(plan.unchanged).toBe(1);
    expect(plan.updates).toEqual([
      {
        line: 2,
        productId: 7,
        article: 'VT-1',
        before: { priceKopecks: 500_000, oldPriceKopecks: null },
        after: { priceKopecks: 450_000, oldPriceKopecks: null },
        offers: [
          {
            offerId: 70,
            line: 2,
            size: '44',
            before: { priceKopecks: 500_000, oldPriceKopecks: null, quantity: 2 },
            after: { priceKopecks: 450_000, oldPriceKopecks: null, quantity: 5 },
          },
        ],
        newOffers: [
          { line: 4, size: '48', sizeType: 'clothes', priceKopecks: 500_000, oldPriceKopecks: null, quantity: 1 },
        ],
      },
    ]);
    expect(plan.creates).toMatchObject([
      { line: 5, article: 'VT-2', name: 'Блуза', sectionId: 3, kind: 'dress', active: true, priceKopecks: 399_050 },
    ]);
  });

  it('refuses rows in Russian with their line, and a heading without the needed columns', () => {
    const plan = planCatalogueImport(
      file(r('VT-1', '44', '4500', '5', { 1: 'Платье' }), r('VT-1', '46', '5000', '', { 1: 'Другое' })),
      { ...ctx, canAdjustStock: false },
    );
    expect(plan.errors.map((e) => e.error)).toEqual([
      'Строка 2: остатки меняет склад: у вашей роли нет права менять остатки',
      'Строка 3: название «Другое» расходится со строкой 2 того же артикула («Платье»)',
    ]);
    expect(planCatalogueImport(parseCsv('Артикул;Цена\nA;1\n').rows, ctx).errors[0]?.error).toMatch(
      /^Строка 1: в заголовке нет столбца «Размер»/,
    );
  });

  it('writes money for spreadsheets and counts a sale in whole roubles', () => {
    expect(kopecksToCsv(1_299_050, ';')).toBe('12990,50');
    expect(kopecksToCsv(1_299_050, ',')).toBe('12990.50');
    expect(kopecksToCsv(500_000, ';')).toBe('5000');
    expect(kopecksToCsv(null, ';')).toBe('');
    expect(salePrice(599_000, 33)).toBe(401_300);
    expect(salePrice(100, 90)).toBe(100);
  });
});
