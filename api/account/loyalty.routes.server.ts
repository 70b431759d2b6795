import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { LOYALTY_TEXT, parseBirthday } from '~/core/loyalty';
import { bonusMoveText, lastBonusDay } from '~/core/loyalty-account';
import { formatRussianDate } from '~/core/dates';
import { moscowNow } from '~/core/working-days';
import { BirthdayResponse, BonusesResponse } from '~/shared/contract';
import { getBonusAccount, setBirthday } from '~/models/loyalty-account.server';
import { lastValue } from '~/api/http.server';
import { customerRoute, tokenField } from './require-customer.server';

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
  birthday: z.preprocess(lastValue, z.string().max(40).optional()).describe("'ДД.ММ.ГГГГ' or 'YYYY-MM-DD'"),
});

const russianDay = (at: Date) => formatRussianDate(moscowNow(at).date);
const roubles = (kopecks: number) => Math.trunc(kopecks / 100);

export async function loyaltyRoutes(app: FastifyInstance, { db, authSecret }: LoyaltyRoutesDeps): Promise<void> {
  const auth = { db, secret: authSecret };
  app.addHook('onSend', async (_req, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  customerRoute(app, auth, {
    url: '/api/personal/bonuses.php',
    summary:
      "The customer's bonuses (content/pages/loyalty.md): the balance to spend now (whole roubles), the birthday, the history newest first (Russian text, signed amount, the last day added bonuses can be spent) and the bonuses received orders will bring 14 days after receipt",
    body: TokenOnly,
    responses: { 200: { description: 'balance, birthday, history, pending', schema: BonusesResponse } },
    handler: async (session) => {
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
    },
  });

  customerRoute(app, auth, {
    url: '/api/personal/birthday.php',
    summary:
      "Set the customer's birthday, once (a second, different date is refused); if its bonus window (7 days before to 7 after) is open, the 2 000 bonuses are granted at once",
    body: BirthdayBody,
    responses: {
      200: { description: 'The birthday as stored, or why not (Russian)', schema: BirthdayResponse },
    },
    handler: async (session) => {
      const now = new Date();
      const birthday = parseBirthday(session.body.birthday ?? '', now);
      if (!birthday)
        return { success: false, error: LOYALTY_TEXT.badBirthday, field: 'birthday' } satisfies BirthdayResponse;
      const set = await setBirthday({ db, customerId: session.customerId, birthday, now });
      if (!set.ok)
        return { success: false, error: LOYALTY_TEXT.birthdayOnce, field: 'birthday' } satisfies BirthdayResponse;
      return { success: true, birthday: set.birthday, granted: set.granted } satisfies BirthdayResponse;
    },
  });
}
