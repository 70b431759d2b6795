import { and, eq, isNull, like, sql } from 'drizzle-orm';
import type { Database } from '~/db/client.server';
import { offers, productPhotos, products, sections } from '~/db/schema';
import type { GarmentArt } from '~/media/garment-art';
import { bumpCatalogVersion } from '~/db/catalog-version.server';
import {
  allCertificateCopies,
  CERTIFICATE_COLOR,
  CERTIFICATE_SECTION,
  CERTIFICATE_STOCK,
  type CertificateCopy,
} from './certificates';
import { recordOpeningStock } from './opening-stock.server';

// The ten gift certificate products (db/seed/certificates.ts), made sure of at every start like
// the other commerce fixtures: a database seeded before certificates existed gets them, its old
// «Подарочная карта» products (which issued nothing) are hidden, and its section is renamed.
// Stock is only set when an offer is created: a running shop's counts are never reset.

const PHOTOS = 3;

/** The data `seedCertificates` writes (a part of the seed's fixtures fingerprint). */
export function certificateFixtures(): unknown {
  return {
    copies: allCertificateCopies(),
    section: CERTIFICATE_SECTION,
    color: CERTIFICATE_COLOR,
    stock: CERTIFICATE_STOCK,
    photos: PHOTOS,
    properties: allCertificateCopies().map(propertiesOf),
  };
}

function propertiesOf(copy: CertificateCopy) {
  return [
    { code: 'CML2_ARTICLE', name: 'Артикул', value: copy.article },
    ...copy.attributes.map(([description, value]) => ({
      code: 'CML2_ATTRIBUTES',
      name: 'Характеристики',
      value,
      description,
    })),
  ];
}

/** Returns how many rows it changed (0 on every start after the first). */
export async function seedCertificates(db: Database): Promise<number> {
  const [section] = await db
    .select({ id: sections.id, name: sections.name })
    .from(sections)
    .where(eq(sections.code, CERTIFICATE_SECTION.code));
  if (!section) return 0;
  let changed = 0;
  if (section.name !== CERTIFICATE_SECTION.name) {
    await db.update(sections).set({ name: CERTIFICATE_SECTION.name }).where(eq(sections.id, section.id));
    changed++;
  }
  const hidden = await db
    .update(products)
    .set({ active: false })
    .where(
      and(
        eq(products.kind, 'gift-card'),
        isNull(products.certificate),
        eq(products.active, true),
        like(products.slug, 'podarochnaya-karta-%'),
      ),
    )
    .returning({ id: products.id });
  changed += hidden.length;

  const copies = allCertificateCopies();
  const written = await db
    .insert(products)
    .values(
      copies.map((c, i) => ({
        slug: c.slug,
        name: c.name,
        description: c.description,
        sectionId: section.id,
        kind: 'gift-card',
        colorName: CERTIFICATE_COLOR[c.kind].name,
        colorCode: CERTIFICATE_COLOR[c.kind].code,
        colorHex: CERTIFICATE_COLOR[c.kind].hex,
        groupKey: `certificate-${c.kind}-${c.nominalRub}`,
        popularity: 300 - i,
        priceKopecks: c.nominalRub * 100,
        article: c.article,
        properties: propertiesOf(c),
        certificate: c.kind,
        sizes: ['edinyj'],
        createdAt: new Date('2025-09-01T09:00:00Z'),
      })),
    )
    // The generator inserted the electronic ones already (with its own article): only the
    // texts and the certificate kind are kept in step, and only when they differ.
    .onConflictDoUpdate({
      target: products.slug,
      set: {
        name: sql`excluded.name`,
        description: sql`excluded.description`,
        certificate: sql`excluded.certificate`,
        priceKopecks: sql`excluded.price_kopecks`,
      },
      setWhere: sql`${products.certificate} is distinct from excluded.certificate or ${products.name} <> excluded.name or ${products.description} <> excluded.description or ${products.priceKopecks} <> excluded.price_kopecks`,
    })
    .returning({ id: products.id });
  changed += written.length;

  const rows = await db
    .select({ id: products.id, slug: products.slug })
    .from(products)
    .where(
      sql`${products.slug} in (${sql.join(
        copies.map((c) => sql`${c.slug}`),
        sql`, `,
      )})`,
    );
  const idOf = new Map(rows.map((r) => [r.slug, r.id]));
  const offerRows: (typeof offers.$inferInsert)[] = [];
  const photoRows: (typeof productPhotos.$inferInsert)[] = [];
  copies.forEach((c, i) => {
    const productId = idOf.get(c.slug);
    if (!productId) return;
    offerRows.push({
      productId,
      sizeType: 'none',
      size: 'Единый',
      priceKopecks: c.nominalRub * 100,
      quantity: CERTIFICATE_STOCK[c.kind],
    });
    for (let n = 1; n <= PHOTOS; n++) {
      const art: GarmentArt = {
        kind: 'gift-card',
        color: CERTIFICATE_COLOR[c.kind].hex,
        view: n - 1,
        seed: 900_000 + i * 7 + n,
        nominal: c.nominalRub,
      };
      photoRows.push({ productId, position: n, path: `products/${c.slug}/${n}.jpg`, alt: `${c.name}, фото ${n}`, art });
    }
  });
  if (offerRows.length) {
    const created = await db
      .insert(offers)
      .values(offerRows)
      .onConflictDoNothing()
      .returning({ id: offers.id, quantity: offers.quantity });
    await recordOpeningStock(db, created);
    changed += created.length;
  }
  if (photoRows.length)
    changed += (
      await db.insert(productPhotos).values(photoRows).onConflictDoNothing().returning({ id: productPhotos.id })
    ).length;
  // The listing index of every process rebuilds on a new catalogue version.
  if (changed > 0) await bumpCatalogVersion(db);
  return changed;
}
