import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { approveReturn, markTransferDone, rejectReturn, type ApproveReturnResult } from '~/models/returns.server';
import { formatRub } from '~/core/money';
import { lastValue } from '~/api/http.server';
import { actionRoute } from '~/api/route.server';
import { staffDoc } from './staff-doc';
import { noteReason, scriptChange } from './script-audit.server';

// Return requests from the command line (`npm run return`; models/returns.server.ts, the same
// functions as the back office's api/admin/returns.routes.server.ts). Registered inside
// staffRoutes, so its staff-key check guards these paths too. Each decision is one transaction
// with its audit row (`return.approve`, `return.reject`, `return.transferred`, the script the actor):
// the model's own transaction becomes a savepoint of scriptChange's.

const intParam = (min: number, max: number) =>
  z.preprocess((v) => {
    const s = lastValue(v);
    return typeof s === 'string' && /^-?\d{1,9}$/.test(s) ? Number(s) : s;
  }, z.number().int().min(min).max(max));

const optionalText = (max: number) =>
  z.preprocess((v) => (lastValue(v) === '' ? undefined : lastValue(v)), z.string().trim().max(max).optional());

const ApproveBody = z.object({
  request_id: intParam(1, 2_147_483_647),
  // '1': the delivery is refunded too (our error or a defect, content/pages/return.md).
  delivery: z.preprocess(lastValue, z.enum(['0', '1']).optional()),
  note: optionalText(500),
});
const RejectBody = z.object({ request_id: intParam(1, 2_147_483_647), note: optionalText(500) });
const TransferredBody = z.object({ request_id: intParam(1, 2_147_483_647) });

/** `POST /staff/returns/`: the request after the decision, with its refunds (money in kopecks). */
export const StaffReturnResponse = z.object({
  data: z
    .object({
      request_id: z.number().int(),
      order_id: z.number().int(),
      status: z.string(),
      refunds: z.array(
        z.object({ id: z.number().int(), means: z.string(), amount_kopecks: z.number().int(), status: z.string() }),
      ),
      delivery_refunded: z.boolean(),
      accrual_cancelled_kopecks: z.number().int(),
    })
    .nullable(),
  errors: z.record(z.string(), z.string()),
  warnings: z.array(z.string()),
});
export type StaffReturnResponse = z.infer<typeof StaffReturnResponse>;

const refused = (field: string, error: string): StaffReturnResponse => ({
  data: null,
  errors: { [field]: error },
  warnings: [],
});

function approveAnswer(r: ApproveReturnResult): StaffReturnResponse {
  if (!r.ok) return refused(r.field, r.error);
  const transfer = r.refunds.find((x) => x.means === 'transfer');
  return {
    data: {
      request_id: r.requestId,
      order_id: r.orderId,
      status: r.status,
      refunds: r.refunds.map((x) => ({ id: x.id, means: x.means, amount_kopecks: x.amountKopecks, status: x.status })),
      delivery_refunded: r.deliveryRefunded,
      accrual_cancelled_kopecks: r.accrualCancelledKopecks,
    },
    errors: {},
    // Paid on receipt: no provider to refund through; staff pay by bank transfer (return.md: the form asks for the details).
    warnings: transfer
      ? [`Оплата при получении: переведите покупателю ${formatRub(transfer.amountKopecks)} по реквизитам из заявления`]
      : [],
  };
}

/**
 * 'approve' refunds the request (certificates and bonuses at once, the card or the instalment
 * service by a job, pay on receipt by a transfer staff make), 'reject' says why (the customer
 * sees it), 'transferred' records that staff made the bank transfer.
 */
export async function staffReturnRoutes(
  app: FastifyInstance,
  { db, now }: { db: Database; now: () => Date },
): Promise<void> {
  const audit = (action: string, requestId: number, note?: string | null) => ({
    action: `return.${action}`,
    entityType: 'return',
    entityId: requestId,
    reason: noteReason(note),
  });
  actionRoute(app, {
    url: '/staff/returns/',
    summary:
      'Approve a return request (refunds: certificate and bonuses at once, card or instalments by a job, pay on receipt by a manual transfer), reject it with a reason, or record the transfer made',
    ...staffDoc(StaffReturnResponse, 'The request after the decision, with its refunds'),
    actions: {
      approve: {
        schema: ApproveBody,
        run: (input: z.infer<typeof ApproveBody>, req) =>
          scriptChange<StaffReturnResponse>(
            db,
            req,
            audit('approve', input.request_id, input.note),
            async (tx) => ({
              answer: approveAnswer(
                await approveReturn({
                  db: tx,
                  requestId: input.request_id,
                  refundDelivery: input.delivery === '1',
                  note: input.note ?? null,
                  now: now(),
                }),
              ),
            }),
            now(),
          ),
      },
      reject: {
        schema: RejectBody,
        run: (input: z.infer<typeof RejectBody>, req) =>
          scriptChange<StaffReturnResponse>(
            db,
            req,
            audit('reject', input.request_id, input.note),
            async (tx) => {
              const r = await rejectReturn({
                db: tx,
                requestId: input.request_id,
                note: input.note ?? null,
                now: now(),
              });
              if (!r.ok) return { answer: refused(r.field, r.error) };
              return {
                answer: {
                  data: {
                    request_id: r.requestId,
                    order_id: r.orderId,
                    status: r.status,
                    refunds: [],
                    delivery_refunded: false,
                    accrual_cancelled_kopecks: 0,
                  },
                  errors: {},
                  warnings: [],
                },
              };
            },
            now(),
          ),
      },
      transferred: {
        schema: TransferredBody,
        run: (input: z.infer<typeof TransferredBody>, req) =>
          scriptChange<StaffReturnResponse>(
            db,
            req,
            audit('transferred', input.request_id),
            async (tx) => {
              const r = await markTransferDone({ db: tx, requestId: input.request_id, now: now() });
              if (!r.ok) return { answer: refused(r.field, r.error) };
              return {
                answer: {
                  data: {
                    request_id: r.requestId,
                    order_id: r.orderId,
                    status: r.status,
                    refunds: [{ id: r.refundId, means: 'transfer', amount_kopecks: r.amountKopecks, status: 'done' }],
                    delivery_refunded: false,
                    accrual_cancelled_kopecks: 0,
                  },
                  errors: {},
                  warnings: [],
                },
              };
            },
            now(),
          ),
      },
    },
  });
}
