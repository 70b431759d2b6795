import { z } from 'zod';
import { AuditItem } from './admin-contract';

// The back office's catalogue (issue #30, docs/back-office.md "The catalogue"): products with
// their sizes (offers) and photos, and the section tree. Same conventions as admin-contract.ts:
// lists `{ data, total }`, named POSTs with an Idempotency-Key, PATCH of plain fields, errors
// `{ error, field }` in Russian. Money leaves as integer kopecks and comes in as text in roubles
// ('12 990,50'), parsed exactly (core/money.ts parseRoublesToKopecks), never through a float.

const MAX_PRICE_KOPECKS = 100_000_000; // 1 000 000 ₽

const roublesText = (what: string) =>
  z
    .string({ error: `${what}: укажите сумму в рублях` })
    .trim()
    .max(20, `${what}: слишком длинное число`)
    .refine((v) => /^\d[\d\s\u00a0]*(?:[.,]\d{1,2})?$/.test(v), `${what}: рубли, до двух знаков после запятой`);

/** A price in roubles as typed ('12 990', '12990,5'): required, 0 < price ≤ 1 000 000 ₽. */
export const PriceText = roublesText('Цена');
/** An old price: empty or null for none. */
export const OldPriceText = z.union([roublesText('Старая цена'), z.literal(''), z.null()]);
export { MAX_PRICE_KOPECKS };

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slug = z
  .string()
  .trim()
  .max(120, 'Адрес: не длиннее 120 знаков')
  .regex(SLUG_PATTERN, 'Адрес: латинские буквы в нижнем регистре, цифры и дефисы');
const article = z
  .string()
  .trim()
  .min(2, 'Укажите артикул')
  .max(50, 'Артикул: не длиннее 50 знаков')
  .regex(/^[A-Za-z0-9._-]+$/, 'Артикул: латинские буквы, цифры, точка, дефис, подчёркивание');
const name = z.string().trim().min(1, 'Укажите название').max(200, 'Название: не длиннее 200 знаков');
const propertyCode = z
  .string()
  .trim()
  .regex(/^[A-Z0-9_]{2,40}$/, 'Код свойства: заглавные латинские буквы, цифры, подчёркивание');

export const ProductProperty = z.object({
  code: propertyCode,
  name: z.string().trim().min(1, 'Укажите название свойства').max(100),
  value: z.string().trim().min(1, 'Укажите значение свойства').max(500),
  description: z.string().trim().max(500).optional(),
});

/** A page's SEO fields (stored as the page's page_meta row; empty everywhere: the template). */
export const SeoFields = z.object({
  title: z.string().trim().max(200, 'Заголовок: не длиннее 200 знаков').default(''),
  description: z.string().trim().max(500, 'Описание: не длиннее 500 знаков').default(''),
  keywords: z.string().trim().max(500, 'Ключевые слова: не длиннее 500 знаков').default(''),
  /** The text under the listing (a section) or the product's own text. */
  text: z.string().trim().max(5000, 'Текст: не длиннее 5000 знаков').default(''),
});
export type SeoFields = z.infer<typeof SeoFields>;

const sectionId = z.number({ error: 'Выберите раздел' }).int().min(1, 'Выберите раздел');
const hex = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, 'Цвет: #rrggbb');

const productFields = {
  name,
  article,
  slug,
  description: z.string().trim().max(5000, 'Описание: не длиннее 5000 знаков'),
  /** SPEC's SOSTAV. */
  composition: z.string().trim().max(500, 'Состав: не длиннее 500 знаков'),
  /** SPEC's REKOMENDATSII_PO_UKHODU. */
  care: z.string().trim().max(1000, 'Уход: не длиннее 1000 знаков'),
  /** The other SPEC properties (lining, padding, the model's measurements…). */
  properties: z.array(ProductProperty).max(30, 'Не больше 30 свойств'),
  /** The section that makes its address. */
  section_id: sectionId,
  /** Further sections whose listings show it too. */
  section_ids: z.array(sectionId).max(10, 'Не больше 10 дополнительных разделов'),
  /** Products with one group are the colour variants of one model. */
  group_key: slug,
  color_name: z.string().trim().min(1, 'Укажите цвет').max(60),
  color_hex: hex,
  kind: z.string().trim().min(1, 'Выберите вид изделия'),
  price: PriceText,
  old_price: OldPriceText,
  is_new: z.boolean(),
  seo: SeoFields,
};

/** A new product: hidden until activated; slug and colour group default from the name and colour. */
export const ProductCreateBody = z.object({
  ...productFields,
  slug: slug.optional(),
  group_key: slug.optional(),
  description: productFields.description.default(''),
  composition: productFields.composition.default(''),
  care: productFields.care.default(''),
  properties: productFields.properties.default([]),
  section_ids: productFields.section_ids.default([]),
  old_price: OldPriceText.optional(),
  is_new: z.boolean().default(false),
  seo: SeoFields.optional(),
});
export type ProductCreateBody = z.infer<typeof ProductCreateBody>;

/** Only the fields that change. */
export const ProductPatchBody = z.object(productFields).partial().strict();
export type ProductPatchBody = z.infer<typeof ProductPatchBody>;

export const ProductCopyBody = z.object({ article, slug: slug.optional(), name: name.optional() });
export const ProductActiveBody = z.object({ reason: z.string().trim().max(500).optional() });

export const SIZE_TYPES = ['clothes', 'shoes', 'none'] as const;
const barcode = z.union([
  z
    .string()
    .trim()
    .regex(/^\d{8,14}$/, 'Штрихкод: от 8 до 14 цифр'),
  z.literal(''),
  z.null(),
]);
export const OfferCreateBody = z.object({
  size_type: z.enum(SIZE_TYPES, { error: 'Шкала: одежда, обувь или без размера' }),
  size: z
    .string()
    .trim()
    .min(1, 'Укажите размер')
    .max(20, 'Размер: не длиннее 20 знаков')
    .regex(/^[\p{L}\p{N} ./-]+$/u, 'Размер: буквы, цифры, точка, дробь, дефис'),
  /** Empty or absent: the product's price. */
  price: z.union([roublesText('Цена размера'), z.literal(''), z.null()]).optional(),
  preorder: z.boolean().default(false),
  barcode: barcode.optional(),
});
export const OfferPatchBody = z
  .object({
    price: z.union([roublesText('Цена размера'), z.literal(''), z.null()]),
    preorder: z.boolean(),
    barcode,
    sort: z.number().int().min(0).max(10_000),
  })
  .partial()
  .strict();

export const ProductOffer = z.object({
  id: z.number().int(),
  size_type: z.enum(SIZE_TYPES),
  size: z.string(),
  label: z.string(),
  sort: z.number().int(),
  price_kopecks: z.number().int(),
  /** Whether its price is its own (not the product's). */
  own_price: z.boolean(),
  old_price_kopecks: z.number().int().nullable(),
  quantity: z.number().int(),
  preorder: z.boolean(),
  barcode: z.string().nullable(),
});
export type ProductOffer = z.infer<typeof ProductOffer>;

export const ProductPhoto = z.object({
  id: z.number().int(),
  position: z.number().int(),
  path: z.string(),
  /** The original through the image pipeline (/img/…) at a thumbnail width. */
  thumb_url: z.string(),
  alt: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type ProductPhoto = z.infer<typeof ProductPhoto>;

export const ProductItem = z.object({
  id: z.number().int(),
  name: z.string(),
  article: z.string(),
  slug: z.string(),
  section_id: z.number().int(),
  section_name: z.string(),
  price_kopecks: z.number().int(),
  old_price_kopecks: z.number().int().nullable(),
  is_new: z.boolean(),
  active: z.boolean(),
  color_name: z.string(),
  /** The shop's address of the product (under its own section). */
  url: z.string(),
  thumb_url: z.string().nullable(),
});
export type ProductItem = z.infer<typeof ProductItem>;
export const ProductListResponse = z.object({ data: z.array(ProductItem), total: z.number().int() });
export type ProductListResponse = z.infer<typeof ProductListResponse>;

export const ProductDetail = ProductItem.extend({
  description: z.string(),
  composition: z.string(),
  care: z.string(),
  properties: z.array(ProductProperty),
  section_ids: z.array(z.number().int()),
  group_key: z.string(),
  color_hex: z.string(),
  kind: z.string(),
  /** Rouble texts of the two prices, as the form shows them ('12990,50'). */
  price: z.string(),
  old_price: z.string(),
  seo: SeoFields,
  offers: z.array(ProductOffer),
  photos: z.array(ProductPhoto),
  /** Whether an order holds one of its sizes (then it is never deleted, only hidden). */
  ordered: z.boolean(),
  audit: z.array(AuditItem),
});
export type ProductDetail = z.infer<typeof ProductDetail>;
export const ProductOneResponse = z.object({ data: ProductDetail });
export type ProductOneResponse = z.infer<typeof ProductOneResponse>;

/** What the product form chooses from. */
export const CatalogueOptionsResponse = z.object({
  data: z.object({
    colors: z.array(z.object({ name: z.string(), hex: z.string() })),
    kinds: z.array(z.object({ id: z.string(), name: z.string() })),
    sections: z.array(
      z.object({ id: z.number().int(), name: z.string(), path: z.string(), kind: z.string(), url: z.string() }),
    ),
    photo: z.object({ max_bytes: z.number().int(), max_files: z.number().int(), formats: z.array(z.string()) }),
  }),
});
export type CatalogueOptionsResponse = z.infer<typeof CatalogueOptionsResponse>;

export const PhotoPatchBody = z.object({ alt: z.string().trim().max(300, 'Подпись: не длиннее 300 знаков') }).strict();
export const PhotoOrderBody = z.object({
  ids: z.array(z.number().int().min(1)).min(1, 'Укажите порядок фотографий').max(50),
});

// --- Sections -------------------------------------------------------------------------------------

export const SectionItem = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  url: z.string(),
  parent_id: z.number().int().nullable(),
  sort: z.number().int(),
  kind: z.string(),
  in_menu: z.boolean(),
  /** Products whose own section it is. */
  products: z.number().int(),
  /** 'Женщинам / Платья' */
  path: z.string(),
});
export type SectionItem = z.infer<typeof SectionItem>;
export const SectionListResponse = z.object({ data: z.array(SectionItem), total: z.number().int() });
export type SectionListResponse = z.infer<typeof SectionListResponse>;
export const SectionOneResponse = z.object({
  data: SectionItem.extend({ seo: SeoFields, audit: z.array(AuditItem) }),
});
export type SectionOneResponse = z.infer<typeof SectionOneResponse>;

const sectionCode = z
  .string()
  .trim()
  .regex(/^[a-z0-9]+(?:[-_][a-z0-9]+)*$/, 'Код: латинские буквы в нижнем регистре, цифры, дефис, подчёркивание')
  .max(60, 'Код: не длиннее 60 знаков');
export const SectionCreateBody = z.object({
  name: z.string().trim().min(1, 'Укажите название').max(100, 'Название: не длиннее 100 знаков'),
  /** Its address is the parent's plus the code (`/catalog/woman/` + `yubki/`). */
  code: sectionCode,
  parent_id: z.number().int().min(1).nullable().default(null),
  sort: z.number().int().min(0).max(100_000).default(500),
  in_menu: z.boolean().default(true),
  seo: SeoFields.optional(),
});
export const SectionPatchBody = z
  .object({
    name: SectionCreateBody.shape.name,
    /** Moves it (its address stays: products' addresses do not change). */
    parent_id: z.number().int().min(1).nullable(),
    sort: z.number().int().min(0).max(100_000),
    in_menu: z.boolean(),
    seo: SeoFields,
  })
  .partial()
  .strict();
export const SectionOrderBody = z.object({
  /** Whose children (null: the top level). */
  parent_id: z.number().int().min(1).nullable(),
  ids: z.array(z.number().int().min(1)).min(1, 'Укажите порядок разделов').max(200),
});
