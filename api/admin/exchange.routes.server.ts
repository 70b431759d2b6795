import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  AdminExchangePasswordResponse,
  AdminExchangeResendResponse,
  AdminExchangeResponse,
  ExchangePasswordBody,
  ExchangeSettingsBody,
} from '~/shared/contract';
import {
  exchangeLog,
  lockExchangeSettings,
  resendOrders,
  saveExchangeSettings,
  setExchangePassword,
} from '~/models/exchange-admin.server';
import { adminChange, adminRead, refusal } from './action.server';
import type { AdminDeps } from './context.server';

// The 1C exchange in the back office (issue #31, docs/exchange-1c.md): the log of the sessions
// (each file with its counts, warnings and the error with the element that failed), the settings
// (price types, the size characteristic, the colour property, the fields 1C owns), and «Отправить
// заказы заново». Admin only (exchange:read, exchange:write).

export async function adminExchangeRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db, siteUrl } = deps;

  adminRead(app, deps, {
    url: '/exchange',
    summary: "The 1C exchange's sessions (files, counts, errors), its settings and the order export's mark",
    permission: 'exchange:read',
    response: AdminExchangeResponse,
    handler: async () => ({ data: await exchangeLog(db, { siteUrl }) }),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/exchange/settings',
    summary: "Replaces the 1C exchange's settings (the whole object, as GET /exchange gives it)",
    permission: 'exchange:write',
    body: ExchangeSettingsBody,
    response: AdminExchangeResponse,
    run: async ({ tx, body }) => {
      const before = await lockExchangeSettings(tx);
      await saveExchangeSettings(tx, body);
      return {
        ok: true,
        body: { data: await exchangeLog(tx, { siteUrl }) },
        audit: { action: 'exchange.settings', entityType: 'settings', entityId: 'exchange', before, after: body },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/exchange/resend-orders',
    summary:
      'Sets the confirmed order exports aside: the next mode=query sends the orders since the first session again',
    permission: 'exchange:write',
    body: z.object({}).strict(),
    response: AdminExchangeResendResponse,
    run: async ({ tx }) => {
      const done = await resendOrders(tx);
      return {
        ok: true,
        body: { data: { id: 'exchange-resend' as const, ...done } },
        audit: { action: 'exchange.resend_orders', entityType: 'settings', entityId: 'exchange', after: done },
      };
    },
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/exchange/password',
    summary:
      'A new random password for the exchange account 1C logs in with, answered once (sessions opened with the old one end); with no such account yet, `email` makes it',
    permission: 'exchange:write',
    body: ExchangePasswordBody,
    response: AdminExchangePasswordResponse,
    run: async ({ tx, body, now }) => {
      const r = await setExchangePassword(tx, { email: body.email, now });
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: { data: { id: 'exchange-password' as const, login: r.login, password: r.password, created: r.created } },
        // Never the password itself: when it changed, and whether the account was made.
        audit: {
          action: 'exchange.password',
          entityType: 'staff',
          entityId: r.id,
          before: { password_changed_at: r.before },
          after: { login: r.login, password_changed_at: r.at.toISOString(), created: r.created },
        },
      };
    },
  });
}
