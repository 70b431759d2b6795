import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import {
  FEED_CHANNELS,
  FeedSettings,
  StaffFeedsActionResponse,
  StaffFeedsResponse,
  type FeedChannel,
} from '~/shared/contract';
import { mergeFeedSettings } from '~/core/feeds';
import { feedsStatus, readFeedState, saveFeedSettings } from '~/models/feeds.server';
import { lastValue, type ActionResult } from '~/api/http.server';
import { actionRoute, defineRoute } from '~/api/route.server';
import { staffDoc } from './staff-doc';

// Product feeds for staff scripts (issue #32, docs/feeds.md; the back office's screen is
// api/admin/feeds.routes.server.ts): GET the feeds' addresses, settings and last builds (with what each left out and why);
// POST action 'settings' (JSON: a partial settings object over the current one) or 'build'.

/** The server's feed builder (server/feeds.server.ts): builds a channel now. */
export interface FeedBuilder {
  rebuild(channel: FeedChannel): Promise<unknown>;
}

const BuildBody = z.object({
  channel: z.preprocess(
    (v) => (lastValue(v) === '' ? undefined : lastValue(v)),
    z.enum(FEED_CHANNELS, { error: 'Фид: yandex, google или vk' }).optional(),
  ),
});

export async function staffFeedRoutes(
  app: FastifyInstance,
  { db, siteUrl, feeds }: { db: Database; siteUrl: string; feeds?: FeedBuilder },
): Promise<void> {
  const status = (): Promise<StaffFeedsResponse> => feedsStatus(db, siteUrl);

  defineRoute(app, {
    method: 'GET',
    url: '/staff/feeds/',
    summary:
      'The product feeds (docs/feeds.md): their addresses, the settings, each last build with the offers it left out and why',
    ...staffDoc(StaffFeedsResponse, 'The feeds'),
    handler: async (_input, _req, reply) => {
      reply.header('cache-control', 'no-store');
      return status();
    },
  });

  actionRoute(app, {
    url: '/staff/feeds/',
    summary:
      "'settings' stores a partial settings object over the current one (JSON: { action, settings }); 'build' builds a feed now (channel yandex, google or vk; all without it)",
    bodyType: ['json', 'form'],
    ...staffDoc(StaffFeedsActionResponse, 'The feeds after the change, or the fields refused'),
    actions: {
      // The whole body is read as JSON: { action: 'settings', settings: { channels: { vk: { utm: {...} } } } }.
      settings: {
        schema: z.object({
          settings: z.unknown().optional().meta({
            type: 'object',
            description: 'The fields to change (FeedSettings; lists and UTM tags replaced whole)',
          }),
        }),
        run: async (input: { settings: unknown }): Promise<ActionResult<StaffFeedsResponse>> => {
          const { settings: currentSettings } = await readFeedState(db);
          const parsed = FeedSettings.safeParse(mergeFeedSettings(currentSettings, input.settings));
          if (!parsed.success) {
            const errors = Object.fromEntries(
              parsed.error.issues.map((i) => [i.path.join('.') || 'settings', i.message]),
            );
            return { data: null, errors, warnings: [] };
          }
          await saveFeedSettings(db, parsed.data);
          return { data: await status(), errors: {}, warnings: ['Фиды пересоберутся при следующем запросе'] };
        },
      },
      build: {
        schema: BuildBody,
        run: async (input: z.infer<typeof BuildBody>): Promise<ActionResult<StaffFeedsResponse>> => {
          if (!feeds)
            return {
              data: null,
              errors: { action: 'Фиды собирает сервер магазина: в этом процессе их нет' },
              warnings: [],
            };
          for (const channel of input.channel ? [input.channel] : FEED_CHANNELS) await feeds.rebuild(channel);
          return { data: await status(), errors: {}, warnings: [] };
        },
      },
    },
  });
}
