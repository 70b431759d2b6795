import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { LOYALTY_TEXT, parseBirthday } from '~/core/loyalty';
import { bonusMoveText, lastBonusDay } from '~/core/loyalty-account';
import { formatRussianDate } from '~/core/dates';
import { moscowNow } from '~/core/working-days';
import type { BirthdayResponse, BonusesResponse } from '~/shared/contract';
import { getBonusAccount, setBirthday } from '~/models/loyalty-account.server';
import { lastValue } from '~/api/http.server';
import { requireCustomer, tokenField } from './require-customer.server';

// The loyalty programme in the personal account (content/pages/loyalty.md): bonuses.php (the
// balance, the history, the bonuses to come) and birthday.php (set once). Like the other
// account paths: the customer comes from the token's session only; a dead token is a 401.

export interface LoyaltyRoutesDeps {
  db: Database;
  authSecret: string;
}

const TokenOnly = z.object({ token: tokenField() });
const BirthdayBody = z.object({
  token: tokenField(),
  birthday: z.preprocess(lastValue, z.string().max(40).optional()),
});

const russianDay = (at: Date) => formatRussianDate(moscowNow(at).date);
const roubles = (kopecks: number) => Math.trunc(kopecks / 100);

export async function loyaltyRoutes(app: FastifyInstance, { db, authSecret }: LoyaltyRoutesDeps): Promise<void> {
  const auth = { db, secret: authSecret };
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.post('/api/personal/bonuses.php', async (req, reply) => {
    const session = await requireCustomer(auth, TokenOnly, req, reply);
    if (!session) return reply;
    const account = await getBonusAccount({ db, customerId: session.customerId });
    return {
      balance: roubles(account.balanceKopecks),
      birthday: account.birthday,
      history: account.history.map((e) => ({
        date: russianDay(e.at),
        kind: e.kind,
        text: bonusMoveText(e),
        amount: roubles(e.amountKopecks),
        expires: e.expiresAt ? formatRussianDate(lastBonusDay(e.expiresAt)) : null,
      })),
      pending: account.pending.map((p) => ({
        order_id: p.orderId,
        amount: roubles(p.amountKopecks),
        date: russianDay(p.dueAt),
      })),
    } satisfies BonusesResponse;
  });

  app.post('/api/personal/birthday.php', async (req, reply) => {
    const session = await requireCustomer(auth, BirthdayBody, req, reply);
    if (!session) return reply;
    const now = new Date();
    const birthday = parseBirthday(session.body.birthday ?? '', now);
    if (!birthday)
      return { success: false, error: LOYALTY_TEXT.badBirthday, field: 'birthday' } satisfies BirthdayResponse;
    const set = await setBirthday({ db, customerId: session.customerId, birthday, now });
    if (!set.ok)
      return { success: false, error: LOYALTY_TEXT.birthdayOnce, field: 'birthday' } satisfies BirthdayResponse;
    return { success: true, birthday: set.birthday, granted: set.granted } satisfies BirthdayResponse;
  });
}
