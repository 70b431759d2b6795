import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SiteSettingsPatchBody, SiteSettingsRecord } from '~/shared/site-settings';
import { AuditItem } from '~/shared/admin-contract';
import { readSiteSettings, saveSiteSettings, SITE_SETTINGS_KEY } from '~/models/site-settings.server';
import { entityAudit } from '~/models/audit.server';
import type { Database } from '~/db/client.server';
import { notFound } from '~/api/http.server';
import { auditItem } from './mappers';
import { adminChange, adminRead, refusal } from './action.server';
import type { AdminDeps } from './context.server';

// «Тексты сайта» (issue #30 "The site's words", last bullet): the top banner, the home page's
// texts, the shops, the stylist chat. One record (id 'storefront'); a save carries the version the
// form opened (409 with a Russian message over a colleague's newer save) and is audited with the
// whole before and after in its transaction. Roles content and admin (pages:write).

const KeyParams = z.object({ id: z.string().max(100) });
const OneResponse = z.object({ data: SiteSettingsRecord.extend({ audit: z.array(AuditItem) }) });

async function answer(db: Database) {
  const cur = await readSiteSettings(db);
  return {
    data: {
      id: SITE_SETTINGS_KEY,
      ...cur.value,
      version: cur.version,
      updated_at: cur.updatedAt?.toISOString() ?? null,
      audit: (await entityAudit(db, 'site_settings', SITE_SETTINGS_KEY)).map(auditItem),
    },
  };
}

export async function adminSiteSettingsRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db } = deps;

  adminRead(app, deps, {
    url: '/site-settings/:id',
    summary: "The site's texts (id storefront): top banner, home page, shops, stylist chat, with their history",
    permission: 'pages:write',
    params: KeyParams,
    response: OneResponse,
    handler: async ({ params, reply }) => (params.id === SITE_SETTINGS_KEY ? answer(db) : notFound(reply)),
  });

  adminChange(app, deps, {
    method: 'PATCH',
    url: '/site-settings/:id',
    summary: "Saves groups of the site's texts (each group whole) against the version the form opened",
    permission: 'pages:write',
    params: KeyParams,
    body: SiteSettingsPatchBody,
    response: OneResponse,
    run: async ({ tx, params, body }) => {
      if (params.id !== SITE_SETTINGS_KEY) return refusal({ status: 404, field: 'id', error: 'Таких настроек нет' });
      const { version, ...changes } = body;
      const r = await saveSiteSettings(tx, changes, version);
      if (!r.ok) return refusal(r);
      return {
        ok: true,
        body: await answer(tx),
        audit: {
          action: 'site_settings.update',
          entityType: 'site_settings',
          entityId: SITE_SETTINGS_KEY,
          before: { ...r.before, version },
          after: { ...r.after, version: r.version },
        },
      };
    },
  });
}
