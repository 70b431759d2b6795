import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import type { SmsGateway } from '~/integrations/sms/sms';
import type { StockChangeResponse } from '~/shared/contract';
import { changeStock } from '~/models/stock.server';
import { actionHandler, lastValue } from '~/api/http.server';

// Staff-only paths, until the back office exists: authenticated by the staff secret
// (STAFF_TOKEN) as a bearer token. `npm run stock` calls these on the running shop, so the
// embedded database (owned by that one process) can be changed while the shop runs.

export interface StaffDeps {
  db: Database;
  sms: SmsGateway;
  staffToken: string;
  siteUrl: string;
}

const intParam = (min: number, max: number) =>
  z.preprocess((v) => {
    const s = lastValue(v);
    return typeof s === 'string' && /^-?\d{1,9}$/.test(s) ? Number(s) : s;
  }, z.number().int().min(min).max(max));

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export async function staffRoutes(app: FastifyInstance, { db, sms, staffToken, siteUrl }: StaffDeps): Promise<void> {
  app.addHook('onRequest', async (req, reply) => {
    const header = req.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    if (!given || !sameSecret(given, staffToken)) {
      return reply.code(401).header('cache-control', 'no-store').send({ error: 'Нужен ключ сотрудника' });
    }
  });

  // One mutation endpoint for stock: 'set' an offer's quantity, or 'add' to it (negative takes away).
  app.post(
    '/staff/stock/',
    actionHandler({
      set: {
        schema: z.object({ offer_id: intParam(1, 2_147_483_647), quantity: intParam(0, 1_000_000) }),
        run: async (input: { offer_id: number; quantity: number }, req) =>
          result(await changeStock({ db, sms, log: req.log, siteUrl, offerId: input.offer_id, set: input.quantity })),
      },
      add: {
        schema: z.object({ offer_id: intParam(1, 2_147_483_647), quantity: intParam(-1_000_000, 1_000_000) }),
        run: async (input: { offer_id: number; quantity: number }, req) =>
          result(await changeStock({ db, sms, log: req.log, siteUrl, offerId: input.offer_id, delta: input.quantity })),
      },
    }),
  );
}

function result(change: Awaited<ReturnType<typeof changeStock>>): StockChangeResponse {
  if (!change) return { data: null, errors: { offer_id: 'Нет такого предложения' }, warnings: [] };
  return {
    data: { offer_id: change.offerId, previous: change.previous, quantity: change.quantity, notified: change.notified },
    errors: {},
    warnings: change.notified ? [`Сообщили о поступлении: ${change.notified}`] : [],
  };
}
