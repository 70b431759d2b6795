import { expect, it } from 'vitest';
import { compareSizeIds, sizeFilterId, sizeIdsOfWord, sizeLabel, sizeLabelFromId } from './sizes';

it('gives clothes, shoes and one-size distinct filter ids', () => {
  expect(sizeFilterId('clothes', '40')).toBe('40');
  expect(sizeFilterId('shoes', '40')).toBe('obuv-40');
  expect(sizeFilterId('none', 'Единый')).toBe('edinyj');
});

it('labels sizes the way shoppers read them', () => {
  expect(sizeLabel('clothes', '44', 'S')).toBe('44 (S)');
  expect(sizeLabel('clothes', '46')).toBe('46 (M)');
  expect(sizeLabel('shoes', '37')).toBe('37');
  expect(sizeLabelFromId('obuv-37')).toBe('37');
  expect(sizeLabelFromId('edinyj')).toBe('Единый');
  expect(sizeLabelFromId('42')).toBe('42 (XS)');
});

it('orders clothes, then shoes, then one size', () => {
  expect(['edinyj', 'obuv-36', '50', '42', 'obuv-35'].sort(compareSizeIds)).toEqual([
    '42',
    '50',
    'obuv-35',
    'obuv-36',
    'edinyj',
  ]);
});

it('reads a search word as the size filter ids it may name', () => {
  expect(sizeIdsOfWord('46')).toEqual(['46', 'obuv-46']);
  expect(sizeIdsOfWord('m')).toEqual(['46']);
  expect(sizeIdsOfWord('XXL')).toEqual(['52']);
  expect(sizeIdsOfWord('460')).toEqual([]);
  expect(sizeIdsOfWord('брюки')).toEqual([]);
});
