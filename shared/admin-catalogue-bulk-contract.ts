import { z } from 'zod';

// Bulk work on the catalogue (issue #30, docs/back-office.md "Products in a spreadsheet", "Bulk
// actions"): the import's dry run and confirmation, and the products list's bulk actions. Same
// conventions as admin-contract.ts: named POSTs with an Idempotency-Key, errors `{ error, field }`.

/** The largest file taken at once: 10 000 rows of a full export are about 1.2 MB. */
export const MAX_IMPORT_CSV_CHARS = 8_000_000;

export const ImportCheckBody = z.object({
  /** The file's text (the browser reads it as UTF-8; a byte order mark is allowed). */
  csv: z
    .string({ error: 'Выберите файл CSV' })
    .min(1, 'Файл пуст')
    .max(MAX_IMPORT_CSV_CHARS, 'Файл больше 8 МБ: разделите его на части'),
  file_name: z.string().trim().max(200).default(''),
});

const Fields = z.record(z.string(), z.unknown());
export const ImportSummary = z.object({
  rows: z.number().int(),
  unchanged: z.number().int(),
  create_rows: z.number().int(),
  change_rows: z.number().int(),
  error_rows: z.number().int(),
  creates: z.array(
    z.object({
      line: z.number().int(),
      article: z.string(),
      size: z.string(),
      name: z.string(),
      price_kopecks: z.number().int(),
      old_price_kopecks: z.number().int().nullable(),
      quantity: z.number().int(),
    }),
  ),
  changes: z.array(
    z.object({ line: z.number().int(), article: z.string(), size: z.string(), before: Fields, after: Fields }),
  ),
  errors: z.array(z.object({ line: z.number().int(), error: z.string() })),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

export const ImportCheckResponse = z.object({
  data: z.object({ id: z.number().int(), separator: z.enum([';', ',']), summary: ImportSummary }),
});
export type ImportCheckResponse = z.infer<typeof ImportCheckResponse>;

export const ImportApplyResponse = z.object({
  data: z.object({
    id: z.number().int(),
    created: z.number().int(),
    changed: z.number().int(),
    stock_moves: z.number().int(),
  }),
});
export type ImportApplyResponse = z.infer<typeof ImportApplyResponse>;

const ids = z
  .array(z.number().int().min(1).max(2_147_483_647), { error: 'Выберите товары' })
  .min(1, 'Выберите товары')
  .max(1000, 'Не больше 1 000 товаров за раз');
export const ProductBulkBody = z.discriminatedUnion(
  'action',
  [
    z.object({ action: z.literal('activate'), ids }),
    z.object({ action: z.literal('deactivate'), ids }),
    z.object({
      action: z.literal('add_section'),
      ids,
      section_id: z.number({ error: 'Выберите раздел' }).int().min(1),
    }),
    z.object({
      action: z.literal('sale'),
      ids,
      percent: z
        .number({ error: 'Укажите скидку в процентах' })
        .int('Скидка: целое число процентов')
        .min(1, 'Скидка: от 1 до 90 %')
        .max(90, 'Скидка: от 1 до 90 %'),
    }),
  ],
  { error: 'Выберите действие: показать, скрыть, добавить в раздел или скидка' },
);
export type ProductBulkBody = z.infer<typeof ProductBulkBody>;

export const ProductBulkResponse = z.object({
  data: z.object({
    changed: z.array(z.number().int()),
    skipped: z.array(z.object({ id: z.number().int(), error: z.string() })),
  }),
});
export type ProductBulkResponse = z.infer<typeof ProductBulkResponse>;
