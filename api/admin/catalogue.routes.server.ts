import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CatalogueOptionsResponse,
  OfferCreateBody,
  OfferPatchBody,
  PhotoOrderBody,
  PhotoPatchBody,
  ProductActiveBody,
  ProductCopyBody,
  ProductCreateBody,
  ProductListResponse,
  ProductOneResponse,
  ProductPatchBody,
  type ProductDetail,
  type ProductItem,
} from '~/shared/admin-catalogue-contract';
import { imageUrl, mediaUrl } from '~/shared/image-url';
import { sizeLabel, type SizeType } from '~/core/sizes';
import {
  CARE_CODE,
  COMPOSITION_CODE,
  KIND_LABELS,
  paletteColors,
  STAFF_KINDS,
  addOffer,
  addPhotos,
  copyProduct,
  createProduct,
  getProductForAdmin,
  listProducts,
  orderPhotos,
  propertyText,
  removeOffer,
  removePhoto,
  sectionChoices,
  setPhotoAlt,
  setProductActive,
  updateOffer,
  updateProduct,
  type AdminProduct,
  type ProductListRow,
} from '~/models/admin-catalogue.server';
import { invalidateCatalogIndex } from '~/models/catalog-index.server';
import { loadSections, productUrl } from '~/models/sections.server';
import { entityAudit } from '~/models/audit.server';
import { notFound } from '~/api/http.server';
import type { AdminChangeOutcome } from '~/models/admin-change.server';
import { auditItem } from './mappers';
import { adminChange, adminRead, filterValue, IdParams, listQuery, refusal } from './action.server';
import type { AdminDeps } from './context.server';
import type { UploadedFileInfo } from './multipart.server';

// The catalogue in the back office (issue #30, docs/back-office.md "The catalogue"): products,
// their sizes and photos. Roles content and admin (products:write, photos:write); manager and
// warehouse read. Each change is one model function (models/admin-catalogue.server.ts) in the
// adminChange transaction with its audit row (before and after); it bumps the catalogue version,
// and this process's listing index is dropped after the commit, so a guest sees the change on
// this process at once and on every other within the render path's bound.

const idFilter = filterValue(
  z
    .string()
    .regex(/^\d{1,9}$/)
    .transform(Number),
);
const ProductListQuery = listQuery(
  ['id', 'name', 'article', 'price_kopecks', 'created_at'],
  { sort: 'id', order: 'desc' },
  {
    q: filterValue(z.string().trim().max(100)),
    section_id: idFilter,
    active: filterValue(z.enum(['true', 'false']).transform((v) => v === 'true')),
    ids: filterValue(
      z
        .string()
        .regex(/^\d{1,9}(,\d{1,9}){0,99}$/)
        .transform((v) => v.split(',').map(Number)),
    ),
  },
);
const OfferParams = z.object({ id: IdParams.shape.id, offer_id: IdParams.shape.id });
const PhotoParams = z.object({ id: IdParams.shape.id, photo_id: IdParams.shape.id });

const roublesOf = (kopecks: number | null) =>
  kopecks === null ? '' : kopecks % 100 === 0 ? String(kopecks / 100) : (kopecks / 100).toFixed(2).replace('.', ',');
const thumb = (path: string | null) => (path ? imageUrl(mediaUrl(path), 320) : null);

const UploadBody = z.object({
  files: z
    .array(z.object({ name: z.string(), type: z.string(), size: z.number(), sha256: z.string() }))
    .min(1, 'Выберите фотографии')
    .max(50),
  alt: z.array(z.string().trim().max(300, 'Подпись: не длиннее 300 знаков')).max(50).default([]),
});
const UploadDocBody = z.object({
  files: z.array(z.string().meta({ format: 'binary' })).describe('JPEG, PNG, WebP or AVIF files'),
  alt: z.array(z.string()).optional().describe('A caption per file, in order'),
});

export async function adminCatalogueRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;
  const fresh = async () => invalidateCatalogIndex(db);

  const listItem = (r: ProductListRow, url: string, sectionName: string): ProductItem => ({
    id: r.id,
    name: r.name,
    article: r.article,
    slug: r.slug,
    section_id: r.sectionId,
    section_name: sectionName,
    price_kopecks: r.priceKopecks,
    old_price_kopecks: r.oldPriceKopecks,
    is_new: r.isNew,
    active: r.active,
    color_name: r.colorName,
    url,
    thumb_url: thumb(r.photo),
  });

  async function detail(id: number, dbx = db): Promise<ProductDetail | null> {
    const found = await getProductForAdmin(dbx, id);
    if (!found) return null;
    return detailOf(found, (await entityAudit(dbx, 'product', id)).map(auditItem));
  }
  function detailOf(f: AdminProduct, audit: ProductDetail['audit']): ProductDetail {
    const p = f.product;
    return {
      ...listItem({ ...p, photo: f.photos[0]?.path ?? null } as unknown as ProductListRow, f.url, f.sectionName),
      description: p.description,
      composition: propertyText(p.properties, COMPOSITION_CODE),
      care: propertyText(p.properties, CARE_CODE),
      properties: p.properties
        .filter((x) => x.code !== COMPOSITION_CODE && x.code !== CARE_CODE)
        .map((x) => ({
          code: x.code,
          name: x.name,
          value: x.value,
          ...(x.description ? { description: x.description } : {}),
        })),
      section_ids: f.sectionIds,
      group_key: p.groupKey,
      color_hex: p.colorHex,
      kind: p.kind,
      price: roublesOf(p.priceKopecks),
      old_price: roublesOf(p.oldPriceKopecks),
      seo: f.seo,
      offers: f.offers.map((o) => ({
        id: o.id,
        size_type: o.sizeType,
        size: o.size,
        label: sizeLabel(o.sizeType as SizeType, o.size, o.intlSize),
        sort: o.sort,
        price_kopecks: o.priceKopecks,
        own_price: o.priceKopecks !== p.priceKopecks,
        old_price_kopecks: o.oldPriceKopecks,
        quantity: o.quantity,
        preorder: o.preorder,
        barcode: o.barcode,
      })),
      photos: f.photos.map((ph) => ({
        id: ph.id,
        position: ph.position,
        path: ph.path,
        thumb_url: imageUrl(mediaUrl(ph.path), 320),
        alt: ph.alt,
        width: ph.width,
        height: ph.height,
      })),
      ordered: f.ordered,
      audit,
    };
  }

  /** The answer of a change: the product as it now is (read in the transaction), audited as `action`. */
  async function changed(
    tx: typeof db,
    productId: number,
    audit: {
      action: string;
      entityType?: string;
      entityId?: number;
      before: unknown;
      after: unknown;
      reason?: string | null;
    },
    extra: Partial<Extract<AdminChangeOutcome, { ok: true }>> = {},
    status = 200,
  ): Promise<AdminChangeOutcome> {
    const data = await detail(productId, tx);
    return {
      ok: true,
      status,
      body: { data },
      audit: {
        action: audit.action,
        entityType: audit.entityType ?? 'product',
        entityId: audit.entityId ?? productId,
        before: audit.before,
        after: audit.after,
        reason: audit.reason ?? null,
      },
      afterCommit: extra.afterCommit ?? fresh,
      ...(extra.onRollback ? { onRollback: extra.onRollback } : {}),
    };
  }

  adminRead(app, deps, {
    url: '/catalogue/options',
    summary: "What the product form chooses from: the palette's colours, kinds of garment, sections, photo limits",
    permission: 'products:read',
    response: CatalogueOptionsResponse,
    handler: async () => ({
      data: {
        colors: paletteColors(),
        kinds: STAFF_KINDS.map((id) => ({ id, name: KIND_LABELS[id] ?? id })),
        sections: await sectionChoices(db),
        photo: deps.productPhotos
          ? {
              max_bytes: deps.productPhotos.limits.maxBytes,
              max_files: deps.productPhotos.limits.maxFiles,
              formats: deps.productPhotos.limits.formats,
            }
          : { max_bytes: 0, max_files: 0, formats: [] },
      },
    }),
  });

  adminRead(app, deps, {
    url: '/products',
    summary: 'Products: filters q (part of the name or article), section_id (own or further), active, ids',
    permission: 'products:read',
    query: ProductListQuery,
    response: ProductListResponse,
    handler: async ({ query }) => {
      const { sort, order, offset, limit, q, section_id, active, ids } = query;
      const [{ rows, total }, index] = await Promise.all([
        listProducts({ db, filter: { q, sectionId: section_id, active, ids }, sort, order, offset, limit }),
        loadSections(db),
      ]);
      return {
        data: rows.map((r) => listItem(r, productUrl(r, index), index.byId.get(r.sectionId)?.name ?? '')),
        total,
      };
    },
  });

  adminRead(app, deps, {
    url: '/products/:id',
    summary: 'One product with its sizes, photos, SEO fields and history',
    permission: 'products:read',
    params: IdParams,
    response: ProductOneResponse,
    handler: async ({ params, reply }) => {
      const data = await detail(params.id);
      if (!data) return notFound(reply);
      return { data };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/products',
    summary: 'A new product, hidden until activated (201)',
    permission: 'products:write',
    body: ProductCreateBody,
    response: ProductOneResponse,
    run: async ({ tx, body, now }) => {
      const r = await createProduct(tx, { ...body, now });
      if (!r.ok) return refusal(r);
      return changed(tx, r.id, { action: 'product.create', before: null, after: r.after }, {}, 201);
    },
  });

  adminChange(app, deps, {
    method: 'PATCH',
    url: '/products/:id',
    summary: "Changes a product's fields (only those sent); a new address leaves a 301 from the old one",
    permission: 'products:write',
    params: IdParams,
    body: ProductPatchBody,
    response: ProductOneResponse,
    run: async ({ tx, params, body }) => {
      const r = await updateProduct(tx, params.id, body);
      if (!r.ok) return refusal(r);
      return changed(tx, params.id, { action: 'product.update', before: r.before, after: r.after });
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/products/:id/copy',
    summary: 'A hidden copy under a new article: fields, sections and sizes (no stock, barcodes or photos) (201)',
    permission: 'products:write',
    params: IdParams,
    body: ProductCopyBody,
    response: ProductOneResponse,
    run: async ({ tx, params, body, now }) => {
      const r = await copyProduct(tx, params.id, { ...body, now });
      if (!r.ok) return refusal(r);
      return changed(tx, r.id, { action: 'product.copy', before: null, after: r.after }, {}, 201);
    },
  });

  for (const [name, active] of [
    ['activate', true],
    ['deactivate', false],
  ] as const)
    adminChange(app, deps, {
      method: 'POST',
      url: `/products/:id/${name}`,
      summary: active
        ? 'Shows the product in the shop (it needs a size)'
        : 'Hides the product from the shop (orders keep it; nothing is deleted)',
      permission: 'products:write',
      params: IdParams,
      body: ProductActiveBody,
      response: ProductOneResponse,
      run: async ({ tx, params, body }) => {
        const r = await setProductActive(tx, params.id, active);
        if (!r.ok) return refusal(r);
        return changed(tx, params.id, {
          action: `product.${name}`,
          before: r.before,
          after: r.after,
          reason: body.reason ?? null,
        });
      },
    });

  adminChange(app, deps, {
    method: 'POST',
    url: '/products/:id/offers',
    summary: 'Adds a size (quantity 0: stock comes through the ledger)',
    permission: 'products:write',
    params: IdParams,
    body: OfferCreateBody,
    response: ProductOneResponse,
    run: async ({ tx, params, body }) => {
      const r = await addOffer(tx, params.id, body);
      if (!r.ok) return refusal(r);
      return changed(tx, params.id, {
        action: 'offer.create',
        entityType: 'offer',
        entityId: r.offerId,
        before: null,
        after: { product_id: params.id, ...r.after },
      });
    },
  });

  adminChange(app, deps, {
    method: 'PATCH',
    url: '/products/:id/offers/:offer_id',
    summary: "Changes a size's own price (empty: the product's), pre-order flag, barcode or order",
    permission: 'products:write',
    params: OfferParams,
    body: OfferPatchBody,
    response: ProductOneResponse,
    run: async ({ tx, params, body }) => {
      const r = await updateOffer(tx, params.id, params.offer_id, body);
      if (!r.ok) return refusal(r);
      return changed(tx, params.id, {
        action: 'offer.update',
        entityType: 'offer',
        entityId: params.offer_id,
        before: r.before,
        after: r.after,
      });
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/products/:id/offers/:offer_id/remove',
    summary: 'Removes a size no order holds and whose stock never moved',
    permission: 'products:write',
    params: OfferParams,
    body: z.object({}),
    response: ProductOneResponse,
    run: async ({ tx, params }) => {
      const r = await removeOffer(tx, params.id, params.offer_id);
      if (!r.ok) return refusal(r);
      return changed(tx, params.id, {
        action: 'offer.remove',
        entityType: 'offer',
        entityId: params.offer_id,
        before: { product_id: params.id, ...r.before },
        after: null,
      });
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/products/:id/photos',
    summary:
      'Uploads photos (multipart/form-data: files, alt per file): JPEG, PNG, WebP or AVIF; all checked before any is stored, each at a new address',
    permission: 'photos:write',
    params: IdParams,
    body: UploadBody,
    multipart: { docBody: UploadDocBody },
    response: ProductOneResponse,
    run: async ({ tx, params, body, req }) => {
      const store = deps.productPhotos;
      if (!store) return refusal({ status: 503, field: 'files', error: 'Загрузка фотографий не настроена' });
      const bytes = req.uploads ?? [];
      const files = body.files as UploadedFileInfo[];
      if (files.length > store.limits.maxFiles)
        return refusal({ status: 400, field: 'files', error: `Не больше ${store.limits.maxFiles} файлов за раз` });
      const prepared = await store.prepare(
        files.map((f, i) => ({ name: f.name, bytes: bytes[i] ?? new Uint8Array() })),
      );
      if (!prepared.ok) return refusal({ status: 400, field: 'files', error: prepared.error });
      const stored = await store.store(prepared.photos);
      const undo = () => store.remove(stored.map((s) => s.path));
      try {
        const r = await addPhotos(
          tx,
          params.id,
          stored.map((s, i) => ({ ...s, alt: body.alt[i] ?? '' })),
        );
        if (!r.ok) {
          await undo();
          return refusal(r);
        }
        return await changed(
          tx,
          params.id,
          { action: 'product.photos_add', before: r.before, after: r.after },
          { onRollback: undo },
        );
      } catch (err) {
        await undo();
        throw err;
      }
    },
  });

  adminChange(app, deps, {
    method: 'PATCH',
    url: '/products/:id/photos/:photo_id',
    summary: "Changes a photo's caption (alt text)",
    permission: 'photos:write',
    params: PhotoParams,
    body: PhotoPatchBody,
    response: ProductOneResponse,
    run: async ({ tx, params, body }) => {
      const r = await setPhotoAlt(tx, params.id, params.photo_id, body.alt);
      if (!r.ok) return refusal(r);
      return changed(tx, params.id, { action: 'product.photo_alt', before: r.before, after: r.after });
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/products/:id/photos/order',
    summary: "Puts the product's photos in the given order (every photo's id once; the first is the card's)",
    permission: 'photos:write',
    params: IdParams,
    body: PhotoOrderBody,
    response: ProductOneResponse,
    run: async ({ tx, params, body }) => {
      const r = await orderPhotos(tx, params.id, body.ids);
      if (!r.ok) return refusal(r);
      return changed(tx, params.id, { action: 'product.photos_order', before: r.before, after: r.after });
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/products/:id/photos/:photo_id/remove',
    summary: 'Removes a photo (its file goes after the commit)',
    permission: 'photos:write',
    params: PhotoParams,
    body: z.object({}),
    response: ProductOneResponse,
    run: async ({ tx, params }) => {
      const r = await removePhoto(tx, params.id, params.photo_id);
      if (!r.ok) return refusal(r);
      const paths = r.removedPaths;
      return changed(
        tx,
        params.id,
        { action: 'product.photo_remove', before: r.before, after: null },
        {
          afterCommit: async () => {
            await fresh();
            if (paths.length) await deps.productPhotos?.remove(paths);
          },
        },
      );
    },
  });
}
