import type { FastifyInstance } from 'fastify';
import { AdminFeedsResponse, FeedSettings } from '~/shared/contract';
import { feedsStatus, lockFeedSettings, saveFeedSettings } from '~/models/feeds.server';
import { adminChange, adminRead } from './action.server';
import type { AdminDeps } from './context.server';

// Product feeds in the back office (issue #32, docs/feeds.md): the addresses to paste into Яндекс
// Директ, Маркет, VK and Google Merchant Center, each feed's last build with what it left out and
// why, and the settings (which sections and products go in, UTM tags, shop names). Roles admin and
// content (feeds:read, feeds:write). A saved change reaches each feed on its next request: the
// build key holds the settings (models/feeds.server.ts feedBuildKey).

export async function adminFeedRoutes(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { db, siteUrl } = deps;

  adminRead(app, deps, {
    url: '/feeds',
    summary: "The feeds' addresses, settings and last builds (with the offers each left out, and why)",
    permission: 'feeds:read',
    response: AdminFeedsResponse,
    handler: async () => ({ data: { id: 'feeds' as const, ...(await feedsStatus(db, siteUrl)) } }),
  });

  adminChange(app, deps, {
    method: 'POST',
    url: '/feeds/settings',
    summary: "Replaces the feeds' settings (the whole object, as GET /feeds gives it)",
    permission: 'feeds:write',
    body: FeedSettings,
    response: AdminFeedsResponse,
    run: async ({ tx, body }) => {
      const before = await lockFeedSettings(tx);
      await saveFeedSettings(tx, body);
      return {
        ok: true,
        body: { data: { id: 'feeds' as const, ...(await feedsStatus(tx, siteUrl)) } },
        audit: {
          action: 'feeds.settings',
          entityType: 'settings',
          entityId: 'feeds',
          before,
          after: body,
          reason: null,
        },
      };
    },
  });
}
