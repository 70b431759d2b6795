import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import { FEED_CHANNELS, FeedSettings, type FeedChannel, type StaffFeedsResponse } from '~/shared/contract';
import { mergeFeedSettings } from '~/core/feeds';
import { feedsStatus, readFeedState, saveFeedSettings } from '~/models/feeds.server';
import { actionHandler, lastValue, type ActionResult } from '~/api/http.server';

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

  app.get('/staff/feeds/', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return status();
  });

  app.post(
    '/staff/feeds/',
    actionHandler({
      // The whole body is read as JSON: { action: 'settings', settings: { channels: { vk: { utm: {...} } } } }.
      settings: {
        schema: z.object({ settings: z.unknown() }),
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
    }),
  );
}
