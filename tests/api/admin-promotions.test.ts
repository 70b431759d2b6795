import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '~/db/client.server';
import { certificateMoves, giftCertificates, jobs, orders, products, promoCodes } from '~/db/schema';
import { CERTIFICATE_TEXT, formatCertificateCode, newCertificateCode } from '~/core/gift-certificates';
import { LOYALTY } from '~/core/loyalty';
import { PROMO_ERROR_LIMIT_REACHED, PROMO_ERROR_SALE_EXCLUDED } from '~/core/promo';
import {
  CertificateListResponse,
  CertificateOneResponse,
  CertificateOptionsResponse,
  LoyaltyResponse,
  PromoListResponse,
  PromoOneResponse,
} from '~/shared/admin-promotions-contract';
import { CheckoutOrderResponse } from '~/shared/contract';
import { setUpTestShop } from '~/tests/support/server';
import { expectContract, getJson, postForm } from '~/tests/support/api';
import { admin, staffSession, testClock, type AnyBody } from '~/tests/support/admin';
import { courierForm, offerPicker } from '~/tests/support/checkout';
import { customerMaker } from '~/tests/support/session';

// Promotions and money in the back office (issue #30) over HTTP, on PGlite and (TEST_DATABASE_URL)
// PostgreSQL: promo codes (roles, normalised codes, a taken code refused in Russian, terms checked,
// usage figures from the orders, a used code expired but never removed, a limit of 1 used once by
// two checkouts at once), gift certificates (issued by hand once per client key, also twice at
// once; voided once by two staff at once; a voided one cannot pay), the loyalty parameters.

const clock = testClock();
const shop = setUpTestShop({ clock: clock.now });
const db = () => shop.database.db;
const freshOffer = offerPicker(shop);
const customer = customerMaker(shop, '7995');

type Role = 'admin' | 'manager' | 'warehouse' | 'content';
const sessions: Partial<Record<Role, Awaited<ReturnType<typeof staffSession>>>> = {};
async function as(role: Role, n = '') {
  const k = `${role}${n}` as Role;
  sessions[k] ??= await staffSession(shop, clock, { email: `${role}${n}@promo.example`, role });
  return sessions[k];
}
async function call(role: Role, p: string, body?: unknown, extra: { method?: 'POST' | 'PATCH'; key?: string } = {}) {
  const { cookie } = await as(role);
  return admin(shop, p, {
    cookie,
    body,
    ...(extra.method ? { method: extra.method } : {}),
    ...(extra.key ? { key: extra.key } : {}),
  });
}
const auditOf = (type: string, id: string | number) =>
  queryRows<{ action: string; staff_id: number | null; before: AnyBody; after: AnyBody; reason: string | null }>(
    db(),
    sql`select action, staff_id, before, after, reason from audit_events where entity_type = ${type} and entity_id = ${String(id)} order by id`,
  );
const postOrder = (fields: Record<string, string>) =>
  getJson(`${shop.baseUrl}/backend`, '/api/catalog/order.php', CheckoutOrderResponse, { init: postForm(fields) });

let seq = 0;
const uniqueCode = (p = 'TEST') => `${p}${Date.now().toString(36).toUpperCase()}${++seq}`;

describe('promo codes', () => {
  it('manager and admin make and change them; warehouse and content are refused, and nobody without a session', async () => {
    for (const role of ['manager', 'admin'] as const) {
      const r = await call(role, '/promo-codes', { code: uniqueCode(), kind: 'percent', percent: 10 });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    for (const role of ['warehouse', 'content'] as const) {
      const read = await call(role, '/promo-codes');
      expect(read.status, role).toBe(403);
      const made = await call(role, '/promo-codes', { code: uniqueCode(), kind: 'percent', percent: 10 });
      expect(made.status, role).toBe(403);
      expect(made.body.error).toBe('Недостаточно прав для этого действия');
    }
    expect((await admin(shop, '/promo-codes')).status).toBe(401);
  });

  it('a code is normalised as shoppers type it; a taken one is refused in Russian; bad terms are refused and write nothing', async () => {
    const code = uniqueCode('ЛЕТО');
    const made = await call('manager', '/promo-codes', {
      code: `  ${code.toLowerCase()} `,
      kind: 'fixed',
      amount: '1 000',
      min_basket: '5000,50',
      total_limit: 100,
      per_customer_limit: 1,
      valid_from: '2026-01-01T00:00:00+03:00',
      valid_to: '2030-12-31T23:59:59+03:00',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const item = expectContract(PromoOneResponse, made.body).data;
    expect(item).toMatchObject({
      code,
      kind: 'fixed',
      amount_kopecks: 100_000,
      min_basket_kopecks: 500_050,
      total_limit: 100,
      per_customer_limit: 1,
      exclude_sale: true,
      state: 'active',
    });
    const again = await call('admin', '/promo-codes', { code: code.toLowerCase(), kind: 'percent', percent: 5 });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: `Промокод ${code} уже есть: придумайте другой`, field: 'code' });

    const bad = [
      [{ code: 'плохой код!', kind: 'percent', percent: 5 }, 'code', /Промокод: латинские или русские буквы/],
      [{ code: uniqueCode(), kind: 'percent', percent: 0 }, 'percent', /Процент: от 1 до 100/],
      [{ code: uniqueCode(), kind: 'percent' }, 'percent', /Укажите процент скидки от 1 до 100/],
      [{ code: uniqueCode(), kind: 'fixed', amount: 'десять' }, 'amount', /Сумма скидки: рубли/],
      [{ code: uniqueCode(), kind: 'fixed' }, 'amount', /Укажите сумму скидки/],
      [
        {
          code: uniqueCode(),
          kind: 'percent',
          percent: 5,
          valid_from: '2030-01-02T00:00:00Z',
          valid_to: '2030-01-01T00:00:00Z',
        },
        'valid_to',
        /Дата окончания раньше даты начала/,
      ],
      [
        { code: uniqueCode(), kind: 'percent', percent: 5, total_limit: 1, per_customer_limit: 2 },
        'per_customer_limit',
        /больше общего лимита/,
      ],
      [{ code: uniqueCode(), kind: 'percent', percent: 5, exclude_sale: false }, '', /exclude_sale|Неверный запрос/],
    ] as const;
    const before = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(promoCodes);
    for (const [body, field, error] of bad) {
      const r = await call('manager', '/promo-codes', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error, JSON.stringify(body)).toMatch(error);
      if (field) expect(r.body.field).toBe(field);
    }
    const after = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(promoCodes);
    expect(after).toEqual(before);

    // The audit row: who, and the terms.
    const audit = await auditOf('promo', code);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'promo.create',
      before: null,
      after: { kind: 'fixed', amount_kopecks: 100_000 },
    });
  });

  it('an edit audits only what changed; nothing changed is 409; the total limit never goes below the uses', async () => {
    const code = uniqueCode();
    await call('manager', '/promo-codes', { code, kind: 'percent', percent: 10 });
    const patched = await call(
      'manager',
      `/promo-codes/${code}`,
      { kind: 'percent', percent: 15, total_limit: 5 },
      { method: 'PATCH' },
    );
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ percent: 15, total_limit: 5 });
    const same = await call(
      'manager',
      `/promo-codes/${code}`,
      { kind: 'percent', percent: 15, total_limit: 5 },
      { method: 'PATCH' },
    );
    expect(same.status).toBe(409);
    expect(same.body.error).toBe('Ничего не изменилось');
    await db().update(promoCodes).set({ usedCount: 3 }).where(eq(promoCodes.code, code));
    const low = await call(
      'manager',
      `/promo-codes/${code}`,
      { kind: 'percent', percent: 15, total_limit: 2 },
      { method: 'PATCH' },
    );
    expect(low.status).toBe(409);
    expect(low.body.error).toBe('Промокод уже использован 3 раз: общий лимит не может быть меньше');
    const audit = await auditOf('promo', code);
    expect(audit.map((a) => a.action)).toEqual(['promo.create', 'promo.update']);
    expect(audit[1]).toMatchObject({
      before: { percent: 10, total_limit: null },
      after: { percent: 15, total_limit: 5 },
    });
    const notFound = await call(
      'manager',
      '/promo-codes/NOSUCHCODE1',
      { kind: 'percent', percent: 5 },
      { method: 'PATCH' },
    );
    expect(notFound.status).toBe(404);
  });

  it('usage figures come from the orders; a used code cannot be removed, only expired, and then no basket takes it', async () => {
    const code = uniqueCode();
    await call('manager', '/promo-codes', { code, kind: 'percent', percent: 10 });
    const offer = await freshOffer({ min: 100_000, max: 3_000_000 });
    const { token } = await customer();
    const placed = await postOrder(courierForm(token, `${offer.id}:1`, { promo_code: code.toLowerCase() }));
    if (!placed.success) throw new Error(JSON.stringify(placed.data));
    const [order] = await db().select().from(orders).where(eq(orders.id, placed.order_id));
    expect(order?.discountKopecks).toBe(Math.floor(offer.price / 10));

    const one = expectContract(PromoOneResponse, (await call('manager', `/promo-codes/${code}`)).body).data;
    expect(one).toMatchObject({
      orders: 1,
      revenue_kopecks: order?.totalKopecks,
      discount_kopecks: order?.discountKopecks,
      used_count: 1,
      removable: false,
    });
    const listed = expectContract(
      PromoListResponse,
      (await call('manager', `/promo-codes?q=${code.slice(0, -1).toLowerCase()}`)).body,
    );
    expect(listed.data.find((p) => p.code === code)).toMatchObject({ orders: 1 });

    const removed = await call('manager', `/promo-codes/${code}/remove`, {});
    expect(removed.status).toBe(409);
    expect(removed.body.error).toBe('Промокод уже использован в заказах: его нельзя удалить, только завершить');

    const expired = await call('manager', `/promo-codes/${code}/expire`, { reason: 'Акция закончилась' });
    expect(expired.status, JSON.stringify(expired.body)).toBe(200);
    expect(expired.body.data).toMatchObject({ state: 'expired', active: false });
    const twice = await call('manager', `/promo-codes/${code}/expire`, {});
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe('Промокод уже завершён');

    const active = expectContract(
      PromoListResponse,
      (await call('manager', `/promo-codes?state=active&q=${code}`)).body,
    );
    expect(active.data).toEqual([]);
    const ended = expectContract(
      PromoListResponse,
      (await call('manager', `/promo-codes?state=expired&q=${code}`)).body,
    );
    expect(ended.data.map((p) => p.code)).toEqual([code]);

    const next = await postOrder(
      courierForm((await customer()).token, `${(await freshOffer({ min: 100_000 })).id}:1`, { promo_code: code }),
    );
    expect(next.success).toBe(false);

    const audit = await auditOf('promo', code);
    expect(audit.map((a) => a.action)).toEqual(['promo.create', 'promo.expire']);
    expect(audit[1]).toMatchObject({ reason: 'Акция закончилась', before: { active: true }, after: { active: false } });
  });

  it('an unused code is removed, audited with what it was', async () => {
    const code = uniqueCode();
    await call('manager', '/promo-codes', { code, kind: 'percent', percent: 7 });
    const r = await call('manager', `/promo-codes/${code}/remove`, { reason: 'Опечатка' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await db().select().from(promoCodes).where(eq(promoCodes.code, code))).toEqual([]);
    expect((await call('manager', `/promo-codes/${code}`)).status).toBe(404);
    const audit = await auditOf('promo', code);
    expect(audit[1]).toMatchObject({ action: 'promo.remove', before: { percent: 7 }, after: null });
  });

  it('a staff-made code never applies to sale items, as content/pages/promo.md promises', async () => {
    const code = uniqueCode();
    await call('manager', '/promo-codes', { code, kind: 'percent', percent: 10 });
    const [sale] = await db()
      .select({ id: products.id })
      .from(products)
      .where(and(sql`${products.oldPriceKopecks} is not null`, eq(products.active, true)))
      .limit(1);
    if (!sale) throw new Error('the seed has no sale product');
    const [row] = await db().select().from(promoCodes).where(eq(promoCodes.code, code));
    expect(row?.excludeSale).toBe(true);
    // The rule itself (core/promo.ts) with this code's row: the basket test covers the HTTP side.
    const { evaluatePromo } = await import('~/core/promo');
    const { toPromoCode } = await import('~/models/promo.server');
    const r = evaluatePromo({
      promo: toPromoCode(row as NonNullable<typeof row>, 0),
      lines: [{ key: '1', priceKopecks: 500_000, quantity: 1, onSale: true }],
      now: new Date(),
    });
    expect(r).toEqual({ status: 'invalid', error: PROMO_ERROR_SALE_EXCLUDED });
  });

  it('a code with a total limit of 1, used by two checkouts at once, gives one order with the discount', async () => {
    const code = uniqueCode('ONE');
    expect((await call('manager', '/promo-codes', { code, kind: 'percent', percent: 20, total_limit: 1 })).status).toBe(
      201,
    );
    const [o1, o2] = [
      await freshOffer({ min: 100_000, max: 3_000_000 }),
      await freshOffer({ min: 100_000, max: 3_000_000 }),
    ];
    const [c1, c2] = [await customer(), await customer()];
    const answers = await Promise.all([
      postOrder(courierForm(c1.token, `${o1.id}:1`, { promo_code: code })),
      postOrder(courierForm(c2.token, `${o2.id}:1`, { promo_code: code })),
    ]);
    const placed = answers.filter((a) => a.success);
    expect(placed).toHaveLength(1);
    const refused = answers.find((a) => !a.success);
    expect(refused && !refused.success && refused.data.promo_code).toBe(PROMO_ERROR_LIMIT_REACHED);
    const withCode = await db().select().from(orders).where(eq(orders.promoCode, code));
    expect(withCode).toHaveLength(1);
    expect(withCode[0]?.discountKopecks).toBeGreaterThan(0);
    const one = expectContract(PromoOneResponse, (await call('manager', `/promo-codes/${code}`)).body).data;
    expect(one).toMatchObject({ used_count: 1, orders: 1, state: 'expired' });
  });
});

describe('gift certificates', () => {
  it('the nominals come from the certificate products; manager issues one by hand, once per client key, also twice at once', async () => {
    const opts = expectContract(CertificateOptionsResponse, (await call('manager', '/certificates/options')).body).data;
    expect(opts.nominals_kopecks).toEqual([500_000, 1_000_000, 1_500_000, 2_500_000, 5_000_000]);
    const key = `issue-${Date.now()}-${++seq}`;
    const body = {
      kind: 'electronic',
      amount: '10 000',
      email: 'gift@example.ru',
      note: 'Компенсация за задержку заказа',
    };
    const [a, b] = await Promise.all([
      call('manager', '/certificates', body, { key }),
      call('manager', '/certificates', body, { key }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).toBe(b.body.data.id);
    const again = await call('manager', '/certificates', body, { key });
    expect(again.body.data.id).toBe(a.body.data.id);
    const id = a.body.data.id as number;
    const rows = await db().select().from(giftCertificates).where(eq(giftCertificates.id, id));
    expect(rows[0]).toMatchObject({
      nominalKopecks: 1_000_000,
      balanceKopecks: 1_000_000,
      orderId: null,
      email: 'gift@example.ru',
    });
    expect(rows[0]?.code).toMatch(/^\d{16}$/);
    // Its letter is queued once, as for a bought one.
    const letters = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'certificate.mail'), sql`${jobs.payload}->>'certificateId' = ${String(id)}`));
    expect(letters).toHaveLength(1);
    const detail = expectContract(CertificateOneResponse, (await call('manager', `/certificates/${id}`)).body).data;
    expect(detail.moves.map((m) => [m.kind, m.amount_kopecks])).toEqual([['issue', 1_000_000]]);
    expect(detail.audit.map((x) => x.action)).toEqual(['certificate.issue']);
    expect(detail.audit[0]?.reason).toBe('Компенсация за задержку заказа');

    // A stated amount in range is fine; outside it, refused in Russian, nothing written.
    const odd = await call('manager', '/certificates', { kind: 'plastic', amount: '3 000', note: 'Жест доброй воли' });
    expect(odd.status).toBe(201);
    const count = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(giftCertificates);
    for (const [bad, error] of [
      [{ kind: 'electronic', amount: '50', note: 'Проверка' }, /один из номиналов или от 1 000 до 100 000/],
      [{ kind: 'electronic', amount: '5000,50', note: 'Проверка' }, /один из номиналов/],
      [{ kind: 'electronic', amount: '5000', note: '' }, /Укажите причину выпуска/],
      [{ kind: 'electronic', amount: '5000', email: 'not-an-email', note: 'Проверка' }, /Проверьте e-mail/],
    ] as const) {
      const r = await call('manager', '/certificates', bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error).toMatch(error);
    }
    expect(
      await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(giftCertificates),
    ).toEqual(count);
    for (const role of ['warehouse', 'content'] as const) {
      expect((await call(role, '/certificates', body)).status, role).toBe(403);
      expect((await call(role, '/certificates')).status, role).toBe(403);
    }
  });

  it('are found by their number or its beginning', async () => {
    const code = newCertificateCode((n) => randomBytes(n));
    const [row] = await db()
      .insert(giftCertificates)
      .values({
        code,
        kind: 'plastic',
        nominalKopecks: 500_000,
        balanceKopecks: 500_000,
        issueKey: `test:${code}`,
        expiresAt: new Date(Date.now() + 86_400_000 * 300),
      })
      .returning();
    const full = expectContract(
      CertificateListResponse,
      (await call('manager', `/certificates?q=${encodeURIComponent(formatCertificateCode(code))}`)).body,
    );
    expect(full.data.map((c) => c.id)).toEqual([row?.id]);
    const prefix = expectContract(
      CertificateListResponse,
      (await call('manager', `/certificates?q=${code.slice(0, 10)}`)).body,
    );
    expect(prefix.data.map((c) => c.id)).toContain(row?.id);
    expect(prefix.data.every((c) => c.code.startsWith(code.slice(0, 10)))).toBe(true);
    const bad = await call('manager', '/certificates?q=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Номер сертификата: до 16 цифр/);
  });

  it('two staff voiding one at once void it once; a voided certificate cannot pay at checkout', async () => {
    const issued = await call('manager', '/certificates', {
      kind: 'electronic',
      amount: '5 000',
      note: 'Для проверки аннулирования',
    });
    const id = issued.body.data.id as number;
    const code = issued.body.data.code as string;
    const manager2 = await as('manager', '2');
    const [a, b] = await Promise.all([
      call('manager', `/certificates/${id}/void`, { reason: 'Выпущен по ошибке' }),
      admin(shop, `/certificates/${id}/void`, { cookie: manager2.cookie, body: { reason: 'Дубль' } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a, b].find((r) => r.status === 409)?.body.error).toBe('Сертификат уже аннулирован');
    const moves = await db().select().from(certificateMoves).where(eq(certificateMoves.certificateId, id));
    expect(moves.map((m) => [m.kind, m.amountKopecks])).toEqual([
      ['issue', 500_000],
      ['void', -500_000],
    ]);
    const audit = await auditOf('certificate', id);
    expect(audit.map((x) => x.action)).toEqual(['certificate.issue', 'certificate.void']);
    expect(audit[1]).toMatchObject({ before: { balance_kopecks: 500_000 }, after: { balance_kopecks: 0 } });
    expect((await call('manager', `/certificates/${id}/void`, { reason: '' })).status).toBe(400);

    const offer = await freshOffer({ min: 100_000, max: 3_000_000 });
    const { token } = await customer();
    const answer = await postOrder(courierForm(token, `${offer.id}:1`, { certificates: code }));
    expect(answer).toEqual({
      success: false,
      data: { certificates: `${formatCertificateCode(code)}: ${CERTIFICATE_TEXT.voided}` },
    });
    const voided = expectContract(
      CertificateListResponse,
      (await call('manager', `/certificates?state=voided&q=${code}`)).body,
    );
    expect(voided.data[0]).toMatchObject({ id, state: 'voided', balance_kopecks: 0 });
  });
});

describe('loyalty', () => {
  it("shows the programme's parameters from core/loyalty.ts to those who read bonuses", async () => {
    const r = expectContract(LoyaltyResponse, (await call('manager', '/loyalty')).body).data;
    expect(r.params.find((p) => p.key === 'accrualPercent')?.value).toBe(
      `${LOYALTY.accrualPercent}% от оплаченной суммы`,
    );
    expect(r.params).toHaveLength(Object.keys(LOYALTY).length);
    expect((await call('content', '/loyalty')).status).toBe(403);
  });
});

// BENCH_CERTIFICATES=1: 100 000 certificates more, then the list's first page, a search by a
// full number and by its first 8 digits, timed over HTTP (figures in docs/back-office.md).
describe.runIf(process.env.BENCH_CERTIFICATES)('certificates at 100 000', () => {
  it('the list and the search by number stay fast', { timeout: 600_000 }, async () => {
    await db().execute(sql`
      insert into gift_certificates (code, kind, nominal_kopecks, balance_kopecks, issue_key, expires_at)
      select lpad((g * 7919 + 1000000000000000)::text, 16, '0'), 'electronic', 500000, 500000, 'bench:' || g, now() + interval '300 days'
      from generate_series(1, 100000) g`);
    await db().execute(sql`analyze gift_certificates`);
    const [sample] = await db()
      .select({ code: giftCertificates.code })
      .from(giftCertificates)
      .where(sql`issue_key = 'bench:54321'`);
    const code = sample?.code ?? '';
    const time = async (p: string) => {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        const r = await call('manager', p);
        expect(r.status).toBe(200);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      return { p50: times[10]?.toFixed(1), p95: times[18]?.toFixed(1) };
    };
    const figures = {
      list: await time('/certificates'),
      full: await time(`/certificates?q=${code}`),
      prefix: await time(`/certificates?q=${code.slice(0, 8)}`),
    };
    console.log('certificates at 100 000 (ms):', JSON.stringify(figures));
  });
});
