import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { formatRub, parseRoublesToKopecks } from '~/core/money';
import { normalizePromoCode, PROMO_MAX_LENGTH } from '~/core/promo';
import { formatCertificateCode } from '~/core/gift-certificates';
import { LOYALTY, loyaltyParams } from '~/core/loyalty';
import { entityAudit } from '~/models/audit.server';
import {
  certificateNominals,
  certificateSnapshot,
  createPromo,
  expirePromo,
  getCertificateRow,
  getPromoRow,
  issueCertificateByHand,
  listCertificateRows,
  listPromoRows,
  MANUAL_CERTIFICATE_RANGE,
  promoState,
  promoStats,
  removePromo,
  updatePromo,
  voidCertificate,
  type CertificateRow,
  type PromoRow,
  type PromoStats,
  type PromoTerms,
} from '~/models/admin-promotions.server';
import {
  CertificateIssueBody,
  CertificateListResponse,
  CertificateOneResponse,
  CertificateOptionsResponse,
  CertificateVoidBody,
  LoyaltyResponse,
  PromoCodeParams,
  PromoCreateBody,
  PromoExpireBody,
  PromoListResponse,
  PromoOneResponse,
  PromoRemoveResponse,
  PromoTermsBody,
  type CertificateItem,
  type PromoItem,
} from '~/shared/admin-promotions-contract';
import { notFound } from '~/api/http.server';
import { adminChange, adminRead, filterValue, IdParams, listQuery, refusal } from './action.server';
import { auditItem } from './mappers';
import type { AdminDeps } from './context.server';

// Promotions and money (issue #30, docs/back-office.md "Promotions and money"): promo codes,
// gift certificates, the loyalty programme's parameters. promo:* and certificates:* are the
// manager's and the admin's (core/staff-roles.ts); bonuses:read shows the loyalty parameters.

const PROMO_STATE_LABELS = { active: 'Действует', scheduled: 'Ещё не начался', expired: 'Завершён' } as const;
const CERT_STATE_LABELS = {
  active: 'Действует',
  spent: 'Израсходован',
  expired: 'Истёк',
  voided: 'Аннулирован',
} as const;
const CERT_KIND_LABELS = { electronic: 'Электронный', plastic: 'Пластиковый' } as const;
const MOVE_LABELS: Record<string, string> = {
  issue: 'Выпуск',
  redeem: 'Оплата заказа',
  release: 'Возврат: заказ не оплачен',
  refund: 'Возврат покупки',
  void: 'Аннулирование',
  fitting: 'Возврат после примерки',
};

function promoTermsText(r: PromoRow): string {
  const value = r.kind === 'percent' ? `${r.percent ?? 0}%` : formatRub(r.amountKopecks ?? 0);
  return [
    value,
    r.minBasketKopecks > 0 ? `от ${formatRub(r.minBasketKopecks)}` : null,
    r.excludeSale ? 'без вещей со скидкой' : 'и на вещи со скидкой',
  ]
    .filter(Boolean)
    .join(', ');
}

function promoItem(r: PromoRow, stats: PromoStats | undefined, now: Date): PromoItem {
  const state = promoState(r, now);
  return {
    id: r.code,
    code: r.code,
    kind: r.kind,
    percent: r.percent,
    amount_kopecks: r.amountKopecks,
    min_basket_kopecks: r.minBasketKopecks,
    valid_from: r.validFrom?.toISOString() ?? null,
    valid_to: r.validTo?.toISOString() ?? null,
    total_limit: r.totalLimit,
    per_customer_limit: r.perCustomerLimit,
    used_count: r.usedCount,
    exclude_sale: r.excludeSale,
    active: r.active,
    expired_at: r.expiredAt?.toISOString() ?? null,
    created_at: r.createdAt.toISOString(),
    state,
    state_label: PROMO_STATE_LABELS[state],
    terms: promoTermsText(r),
    orders: stats?.orders ?? 0,
    revenue_kopecks: stats?.revenueKopecks ?? 0,
    discount_kopecks: stats?.discountKopecks ?? 0,
  };
}

function certItem(r: CertificateRow, now: Date): CertificateItem {
  const state = r.voidedAt
    ? 'voided'
    : r.expiresAt.getTime() <= now.getTime()
      ? 'expired'
      : r.balanceKopecks <= 0
        ? 'spent'
        : 'active';
  return {
    id: r.id,
    code: r.code,
    code_formatted: formatCertificateCode(r.code),
    kind: r.kind,
    kind_label: CERT_KIND_LABELS[r.kind],
    nominal_kopecks: r.nominalKopecks,
    balance_kopecks: r.balanceKopecks,
    order_id: r.orderId,
    email: r.email,
    issued_at: r.issuedAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
    voided_at: r.voidedAt?.toISOString() ?? null,
    void_reason: r.voidReason,
    issued_by_staff_id: r.issuedByStaffId,
    issue_note: r.issueNote,
    state,
    state_label: CERT_STATE_LABELS[state],
  };
}

type Terms = z.infer<typeof PromoTermsBody>;
/** The body's terms as the model takes them, or the Russian refusal. */
function parseTerms(b: Terms): PromoTerms | { ok: false; status: number; field: string; error: string } {
  const money = (v: string | null | undefined, field: string, what: string) => {
    if (v === undefined || v === null || v === '') return { v: null as number | null };
    const k = parseRoublesToKopecks(v);
    if (k === null || k > 100_000_000)
      return { bad: { ok: false as const, status: 400, field, error: `${what}: до 1 000 000 ₽` } };
    return { v: k };
  };
  const amount = money(b.amount, 'amount', 'Сумма скидки');
  if (amount.bad) return amount.bad;
  const min = money(b.min_basket, 'min_basket', 'Минимальная сумма заказа');
  if (min.bad) return min.bad;
  const date = (v: string | null | undefined) => (v ? new Date(v) : null);
  return {
    kind: b.kind,
    percent: b.percent ?? null,
    amountKopecks: amount.v ?? null,
    minBasketKopecks: min.v ?? 0,
    validFrom: date(b.valid_from),
    validTo: date(b.valid_to),
    totalLimit: b.total_limit ?? null,
    perCustomerLimit: b.per_customer_limit ?? null,
  };
}
const isRefusal = (v: unknown): v is { ok: false; status: number; field: string; error: string } =>
  typeof v === 'object' && v !== null && (v as { ok?: unknown }).ok === false;

const PromoListQuery = listQuery(
  ['code', 'created_at', 'valid_to'],
  { sort: 'created_at', order: 'desc' },
  {
    q: filterValue(z.string().trim().max(PROMO_MAX_LENGTH)),
    state: filterValue(z.enum(['active', 'expired'])),
  },
);
const CertificateListQuery = listQuery(
  ['id'],
  { sort: 'id', order: 'desc' },
  {
    // A number or its beginning, spaces allowed ('1234 5678').
    q: filterValue(
      z
        .string()
        .transform((v) => v.replace(/[\s-]/g, ''))
        .pipe(z.string().regex(/^\d{0,16}$/, 'Номер сертификата: до 16 цифр')),
    ),
    state: filterValue(z.enum(['active', 'voided', 'manual'])),
  },
);

export async function adminPromotionRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;

  // ---- Promo codes ----
  adminRead(app, deps, {
    url: '/promo-codes',
    summary:
      'Promo codes with their usage (orders, revenue, discount given): q (part of the code), state active|expired',
    permission: 'promo:read',
    query: PromoListQuery,
    response: PromoListResponse,
    handler: async ({ query }) => {
      const now = deps.now();
      const q = query.q ? query.q.toUpperCase() : undefined;
      const { rows, total } = await listPromoRows(db, { ...query, q, now });
      const stats = await promoStats(
        db,
        rows.map((r) => r.code),
      );
      return { data: rows.map((r) => promoItem(r, stats.get(r.code), now)), total };
    },
  });

  const promoDetail = async (code: string) => {
    const row = await getPromoRow(db, code);
    if (!row) return null;
    const stats = (await promoStats(db, [code])).get(code);
    const audit = await entityAudit(db, 'promo', code);
    return {
      data: {
        ...promoItem(row, stats, deps.now()),
        audit: audit.map(auditItem),
        removable: row.usedCount === 0 && (stats?.orders ?? 0) === 0,
      },
    };
  };

  adminRead(app, deps, {
    url: '/promo-codes/:code',
    summary: 'One promo code with its usage and history',
    permission: 'promo:read',
    params: PromoCodeParams,
    response: PromoOneResponse,
    handler: async ({ params, reply }) => {
      const code = normalizePromoCode(params.code);
      const one = code ? await promoDetail(code) : null;
      return one ?? notFound(reply);
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/promo-codes',
    summary: 'Makes a promo code (normalised as shoppers type it; a taken code is refused)',
    permission: 'promo:write',
    body: PromoCreateBody,
    response: PromoOneResponse,
    run: async ({ tx, body, now }) => {
      const code = normalizePromoCode(body.code);
      if (!code)
        return refusal({
          status: 400,
          field: 'code',
          error: `Промокод: латинские или русские буквы, цифры, «-» и «_», до ${PROMO_MAX_LENGTH} знаков`,
        });
      const terms = parseTerms(body);
      if (isRefusal(terms)) return refusal(terms);
      const r = await createPromo(tx, { code, terms, now });
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        status: 201,
        body: { data: { ...promoItem(r.row, undefined, now), audit: [], removable: true } },
        audit: { action: 'promo.create', entityType: 'promo', entityId: code, before: null, after: r.after },
      };
    },
  });

  adminChange(app, deps, {
    method: 'PATCH',
    url: '/promo-codes/:code',
    summary: "Changes a promo code's terms (never below its uses; sale items stay excluded, content/pages/promo.md)",
    permission: 'promo:write',
    params: PromoCodeParams,
    body: PromoTermsBody,
    response: PromoOneResponse,
    run: async ({ tx, params, body, now }) => {
      const code = normalizePromoCode(params.code) ?? '';
      const terms = parseTerms(body);
      if (isRefusal(terms)) return refusal(terms);
      const r = await updatePromo(tx, { code, terms });
      if (!r.ok) return refusal(r);
      const stats = (await promoStats(tx, [code])).get(code);
      return {
        ok: true,
        body: { data: { ...promoItem(r.row, stats, now), audit: [], removable: r.row.usedCount === 0 } },
        audit: { action: 'promo.update', entityType: 'promo', entityId: code, before: r.before, after: r.after },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/promo-codes/:code/expire',
    summary: 'Ends a promo code now (orders placed with it keep it)',
    permission: 'promo:write',
    params: PromoCodeParams,
    body: PromoExpireBody,
    response: PromoOneResponse,
    run: async ({ tx, params, body, now }) => {
      const code = normalizePromoCode(params.code) ?? '';
      const r = await expirePromo(tx, { code, now });
      if (!r.ok) return refusal(r);
      const stats = (await promoStats(tx, [code])).get(code);
      return {
        ok: true,
        body: { data: { ...promoItem(r.row, stats, now), audit: [], removable: false } },
        audit: {
          action: 'promo.expire',
          entityType: 'promo',
          entityId: code,
          before: r.before,
          after: r.after,
          reason: body.reason || null,
        },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/promo-codes/:code/remove',
    summary: 'Removes a promo code no order used (a used one can only be expired)',
    permission: 'promo:write',
    params: PromoCodeParams,
    body: PromoExpireBody,
    response: PromoRemoveResponse,
    run: async ({ tx, params, body }) => {
      const code = normalizePromoCode(params.code) ?? '';
      const r = await removePromo(tx, code);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: { data: { id: code, removed: true as const } },
        audit: {
          action: 'promo.remove',
          entityType: 'promo',
          entityId: code,
          before: r.before,
          after: null,
          reason: body.reason || null,
        },
      };
    },
  });

  // ---- Gift certificates ----
  adminRead(app, deps, {
    url: '/certificates',
    summary: 'Gift certificates, newest first: q (the number or its beginning), state active|voided|manual',
    permission: 'certificates:read',
    query: CertificateListQuery,
    response: CertificateListResponse,
    handler: async ({ query }) => {
      const now = deps.now();
      const { rows, total } = await listCertificateRows(db, { ...query, q: query.q || undefined });
      return { data: rows.map((r) => certItem(r, now)), total };
    },
  });

  adminRead(app, deps, {
    url: '/certificates/options',
    summary:
      "What a certificate issued by hand may be: the certificate products' nominals, or a whole-rouble amount in a range",
    permission: 'certificates:read',
    response: CertificateOptionsResponse,
    handler: async () => ({
      data: {
        nominals_kopecks: await certificateNominals(db),
        min_kopecks: MANUAL_CERTIFICATE_RANGE.minKopecks,
        max_kopecks: MANUAL_CERTIFICATE_RANGE.maxKopecks,
      },
    }),
  });

  const certDetail = async (id: number) => {
    const one = await getCertificateRow(db, id);
    if (!one) return null;
    const audit = await entityAudit(db, 'certificate', id);
    return {
      data: {
        ...certItem(one.row, deps.now()),
        moves: one.moves.map((m) => ({
          id: m.id,
          kind: m.kind,
          kind_label: MOVE_LABELS[m.kind] ?? m.kind,
          amount_kopecks: m.amountKopecks,
          order_id: m.orderId,
          return_request_id: m.returnRequestId,
          at: m.createdAt.toISOString(),
        })),
        audit: audit.map(auditItem),
      },
    };
  };

  adminRead(app, deps, {
    url: '/certificates/:id',
    summary: 'One certificate with its balance history (the certificate ledger) and audit rows',
    permission: 'certificates:read',
    params: IdParams,
    response: CertificateOneResponse,
    handler: async ({ params, reply }) => (await certDetail(params.id)) ?? notFound(reply),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/certificates',
    summary:
      'Issues one certificate by hand (customer service); the Idempotency-Key is also its issue key, so a double click issues one',
    permission: 'certificates:write',
    body: CertificateIssueBody,
    response: CertificateOneResponse,
    run: async ({ tx, body, now, staff, req }) => {
      const amount = parseRoublesToKopecks(body.amount);
      if (amount === null || amount <= 0)
        return refusal({ status: 400, field: 'amount', error: 'Сумма сертификата: укажите сумму в рублях' });
      const clientKey = String(req.headers['idempotency-key']);
      const r = await issueCertificateByHand(tx, {
        clientKey,
        staffId: staff.id,
        kind: body.kind,
        nominalKopecks: amount,
        email: body.email ?? '',
        note: body.note,
        now,
      });
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        status: 201,
        body: { data: { ...certItem(r.row, now), moves: [], audit: [] } },
        audit: {
          action: 'certificate.issue',
          entityType: 'certificate',
          entityId: r.row.id,
          before: null,
          after: { ...certificateSnapshot(r.row), code_last4: r.row.code.slice(-4) },
          reason: body.note,
        },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/certificates/:id/void',
    summary: 'Voids a certificate: its balance goes (a void move) and it never pays again',
    permission: 'certificates:write',
    params: IdParams,
    body: CertificateVoidBody,
    response: CertificateOneResponse,
    run: async ({ tx, params, body, now }) => {
      const r = await voidCertificate(tx, { id: params.id, reason: body.reason, now });
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: { data: { ...certItem(r.row, now), moves: [], audit: [] } },
        audit: {
          action: 'certificate.void',
          entityType: 'certificate',
          entityId: params.id,
          before: { balance_kopecks: r.before.balanceKopecks, voided_at: null },
          after: { balance_kopecks: 0, voided_at: now.toISOString() },
          reason: body.reason,
        },
      };
    },
  });

  // ---- Loyalty ----
  adminRead(app, deps, {
    url: '/loyalty',
    summary:
      "The loyalty programme's parameters (core/loyalty.ts LOYALTY, as content/pages/loyalty.md states them); read only",
    permission: 'bonuses:read',
    response: LoyaltyResponse,
    handler: async () => ({
      data: {
        id: 'loyalty' as const,
        params: loyaltyParams().map(({ key, label, value, page }) => ({ key, label, value, page })),
        source: `core/loyalty.ts LOYALTY (${Object.keys(LOYALTY).length} параметров); страница /loyalty/`,
      },
    }),
  });
}
