import { z } from 'zod';
import { AuditItem } from './admin-contract';

// Promotions and money in the back office (issue #30, docs/back-office.md "Promotions and money"):
// promo codes, gift certificates, the loyalty programme's parameters. Same conventions as
// admin-contract.ts. Money leaves as integer kopecks and comes in as text in roubles ('1 500',
// '990,50'), parsed exactly (core/money.ts parseRoublesToKopecks).

const roubles = (what: string) =>
  z
    .string({ error: `${what}: укажите сумму в рублях` })
    .trim()
    .max(20, `${what}: слишком длинное число`)
    .refine((v) => /^\d[\d\s\u00a0]*(?:[.,]\d{1,2})?$/.test(v), `${what}: рубли, до двух знаков после запятой`);
const optionalRoubles = (what: string) => z.union([roubles(what), z.literal(''), z.null()]).optional();
const limit = (what: string) =>
  z
    .number({ error: `${what}: целое число` })
    .int(`${what}: целое число`)
    .min(1, `${what}: не меньше 1`)
    .max(1_000_000, `${what}: не больше 1 000 000`)
    .nullable()
    .optional();
const when = (what: string) =>
  z.union([z.iso.datetime({ offset: true, error: `${what}: дата и время` }), z.literal(''), z.null()]).optional();

export const PromoTermsBody = z
  .object({
    kind: z.enum(['percent', 'fixed'], { error: 'Выберите вид скидки: процент или сумма' }),
    percent: z
      .number({ error: 'Процент: целое число' })
      .int('Процент: целое число')
      .min(1, 'Процент: от 1 до 100')
      .max(100, 'Процент: от 1 до 100')
      .nullable()
      .optional(),
    amount: optionalRoubles('Сумма скидки'),
    min_basket: optionalRoubles('Минимальная сумма заказа'),
    valid_from: when('Начало'),
    valid_to: when('Окончание'),
    total_limit: limit('Общий лимит'),
    per_customer_limit: limit('Лимит на покупателя'),
  })
  .strict();
export type PromoTermsBody = z.infer<typeof PromoTermsBody>;
export const PromoCreateBody = PromoTermsBody.extend({
  code: z
    .string({ error: 'Укажите промокод' })
    .trim()
    .min(1, 'Укажите промокод')
    .max(64, 'Промокод: не длиннее 32 знаков'),
}).strict();
export const PromoExpireBody = z.object({ reason: z.string().trim().max(500).optional() }).strict();
export const PromoCodeParams = z.object({ code: z.string().min(1).max(64) });

export const PromoItem = z.object({
  id: z.string(),
  code: z.string(),
  kind: z.enum(['percent', 'fixed']),
  percent: z.number().int().nullable(),
  amount_kopecks: z.number().int().nullable(),
  min_basket_kopecks: z.number().int(),
  valid_from: z.string().nullable(),
  valid_to: z.string().nullable(),
  total_limit: z.number().int().nullable(),
  per_customer_limit: z.number().int().nullable(),
  used_count: z.number().int(),
  exclude_sale: z.boolean(),
  active: z.boolean(),
  expired_at: z.string().nullable(),
  created_at: z.string(),
  state: z.enum(['active', 'scheduled', 'expired']),
  state_label: z.string(),
  terms: z.string(),
  orders: z.number().int(),
  revenue_kopecks: z.number().int(),
  discount_kopecks: z.number().int(),
});
export type PromoItem = z.infer<typeof PromoItem>;
export const PromoListResponse = z.object({ data: z.array(PromoItem), total: z.number().int() });
export const PromoOneResponse = z.object({
  data: PromoItem.extend({ audit: z.array(AuditItem), removable: z.boolean() }),
});
export type PromoDetail = z.infer<typeof PromoOneResponse>['data'];
export const PromoRemoveResponse = z.object({ data: z.object({ id: z.string(), removed: z.literal(true) }) });

export const CertificateItem = z.object({
  id: z.number().int(),
  code: z.string(),
  code_formatted: z.string(),
  kind: z.enum(['electronic', 'plastic']),
  kind_label: z.string(),
  nominal_kopecks: z.number().int(),
  balance_kopecks: z.number().int(),
  order_id: z.number().int().nullable(),
  email: z.string(),
  issued_at: z.string(),
  expires_at: z.string(),
  voided_at: z.string().nullable(),
  void_reason: z.string().nullable(),
  issued_by_staff_id: z.number().int().nullable(),
  issue_note: z.string().nullable(),
  state: z.enum(['active', 'spent', 'expired', 'voided']),
  state_label: z.string(),
});
export type CertificateItem = z.infer<typeof CertificateItem>;
export const CertificateListResponse = z.object({ data: z.array(CertificateItem), total: z.number().int() });
export const CertificateMoveItem = z.object({
  id: z.number().int(),
  kind: z.string(),
  kind_label: z.string(),
  amount_kopecks: z.number().int(),
  order_id: z.number().int().nullable(),
  return_request_id: z.number().int().nullable(),
  at: z.string(),
});
export const CertificateOneResponse = z.object({
  data: CertificateItem.extend({ moves: z.array(CertificateMoveItem), audit: z.array(AuditItem) }),
});
export type CertificateDetail = z.infer<typeof CertificateOneResponse>['data'];
export const CertificateOptionsResponse = z.object({
  data: z.object({
    nominals_kopecks: z.array(z.number().int()),
    min_kopecks: z.number().int(),
    max_kopecks: z.number().int(),
  }),
});
export const CertificateIssueBody = z
  .object({
    kind: z.enum(['electronic', 'plastic'], { error: 'Выберите вид: электронный или пластиковый' }),
    amount: roubles('Сумма сертификата'),
    email: z.string().trim().max(200, 'E-mail: не длиннее 200 знаков').nullable().optional(),
    note: z.string({ error: 'Укажите причину выпуска' }).trim().min(3, 'Укажите причину выпуска').max(500),
  })
  .strict();
export const CertificateVoidBody = z
  .object({ reason: z.string({ error: 'Укажите причину' }).trim().min(3, 'Укажите причину').max(500) })
  .strict();

export const LoyaltyParam = z.object({ key: z.string(), label: z.string(), value: z.string(), page: z.string() });
export const LoyaltyResponse = z.object({
  data: z.object({ id: z.literal('loyalty'), params: z.array(LoyaltyParam), source: z.string() }),
});
