import { describe, expect, it } from 'vitest';
import { CERTIFICATE_NOMINALS_KOPECKS } from '~/core/gift-certificates';
import { COLORS, generateCatalog, SECTIONS } from './catalog-data';
import {
  allCertificateCopies,
  CERTIFICATE_COLOR,
  CERTIFICATE_SECTION,
  CERTIFICATE_STOCK,
  certificateCopy,
} from './certificates';

describe('gift certificate products', () => {
  it('ten: electronic and plastic for each of the five nominals, with unique slugs and articles', () => {
    const all = allCertificateCopies();
    expect(all).toHaveLength(10);
    expect(new Set(all.map((c) => c.slug)).size).toBe(10);
    expect(new Set(all.map((c) => c.article)).size).toBe(10);
    for (const kind of ['electronic', 'plastic'] as const) {
      expect(all.filter((c) => c.kind === kind).map((c) => c.nominalRub * 100)).toEqual([
        ...CERTIFICATE_NOMINALS_KOPECKS,
      ]);
    }
    expect(certificateCopy('electronic', 10_000).name).toBe('Электронный подарочный сертификат на 10 000 ₽');
    expect(certificateCopy('plastic', 50_000).name).toBe('Пластиковый подарочный сертификат на 50 000 ₽');
    expect(certificateCopy('plastic', 5_000).slug).toBe('plastikovyj-podarochnyj-sertifikat-5000');
  });

  it('the generator draws the electronic ones in the certificate section, never out of stock', () => {
    const section = SECTIONS.find((s) => s.code === CERTIFICATE_SECTION.code);
    expect(section).toMatchObject({ name: 'Подарочные сертификаты', url: CERTIFICATE_SECTION.url });
    const cards = generateCatalog().filter((p) => p.certificate !== null);
    expect(cards).toHaveLength(5);
    for (const p of cards) {
      expect(p.certificate).toBe('electronic');
      expect(p.sectionCode).toBe(CERTIFICATE_SECTION.code);
      const copy = certificateCopy('electronic', p.priceKopecks / 100);
      expect(p).toMatchObject({
        slug: copy.slug,
        name: copy.name,
        description: copy.description,
        colorCode: CERTIFICATE_COLOR.electronic.code,
      });
      expect(p.offers).toEqual([
        { sizeType: 'none', size: 'Единый', intlSize: null, quantity: CERTIFICATE_STOCK.electronic, preorder: false },
      ]);
    }
    expect(generateCatalog().filter((p) => p.certificate === null && p.kind === 'gift-card')).toEqual([]);
  });

  it('uses colours of the palette', () => {
    for (const c of Object.values(CERTIFICATE_COLOR)) expect(COLORS).toContainEqual(c);
  });
});
