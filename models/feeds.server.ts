import crypto from 'node:crypto';
import { asc, inArray, sql } from 'drizzle-orm';
import { queryRows, type Database } from '~/db/client.server';
import { appState, sections } from '~/db/schema';
import {
  FeedBuildReport,
  FeedSettings,
  FEED_CHANNELS,
  type FeedChannel,
  type StaffFeedsResponse,
} from '~/shared/contract';
import {
  FEED_CHANNEL_INFO,
  FEED_FORMAT_VERSION,
  FEED_MAX_AGE_MS,
  stableJson,
  withFeedDefaults,
  type FeedProduct,
  type FeedSection,
} from '~/core/feeds';

// The catalogue, settings and build reports of the product feeds (issue #32, docs/feeds.md).
// Settings and reports are rows of app_state ('feed_settings', 'feed_build:<channel>'): small
// JSON every process reads, which the back office will edit through saveFeedSettings. Neither
// key is part of the page version (api/meta/data-version.server.ts), so guest pages never notice.

const SETTINGS_KEY = 'feed_settings';
const CATALOG_VERSION_KEY = 'catalog_version';
const reportKey = (channel: FeedChannel) => `feed_build:${channel}`;

export interface FeedState {
  catalogVersion: number;
  settings: FeedSettings;
  /** Why the stored settings were not usable (the defaults are used then), or null. */
  settingsProblem: string | null;
}

/** The catalogue version and the feed settings (stored over the defaults), in one query. */
export async function readFeedState(db: Database): Promise<FeedState> {
  const rows = await db
    .select({ key: appState.key, value: appState.value })
    .from(appState)
    .where(inArray(appState.key, [CATALOG_VERSION_KEY, SETTINGS_KEY]));
  const version = rows.find((r) => r.key === CATALOG_VERSION_KEY)?.value;
  const parsed = FeedSettings.safeParse(withFeedDefaults(rows.find((r) => r.key === SETTINGS_KEY)?.value));
  return {
    catalogVersion: typeof version === 'number' ? version : 0,
    settings: parsed.success ? parsed.data : FeedSettings.parse(withFeedDefaults(null)),
    settingsProblem: parsed.success
      ? null
      : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
  };
}

/** Stores validated settings whole (what the staff API and, later, the back office write). */
export async function saveFeedSettings(db: Database, settings: FeedSettings): Promise<void> {
  await db
    .insert(appState)
    .values({ key: SETTINGS_KEY, value: settings })
    .onConflictDoUpdate({ target: appState.key, set: { value: settings, updatedAt: sql`now()` } });
}

/**
 * The settings as stored now, read under a lock on their row (a back-office change: two staff
 * saving at once apply one after the other, and each audit row's "before" is what it replaced).
 */
export async function lockFeedSettings(db: Database): Promise<FeedSettings> {
  const rows = await queryRows<{ value: unknown }>(
    db,
    sql`select value from app_state where key = ${SETTINGS_KEY} for update`,
  );
  const parsed = FeedSettings.safeParse(withFeedDefaults(rows[0]?.value ?? null));
  return parsed.success ? parsed.data : FeedSettings.parse(withFeedDefaults(null));
}

/**
 * Each feed's address, whether it is on, its last build (with what it left out and why) and whether
 * that build is current (today's catalogue and settings, younger than FEED_MAX_AGE_MS).
 */
export async function feedsStatus(db: Database, siteUrl: string, now = Date.now()): Promise<StaffFeedsResponse> {
  const [state, reports] = await Promise.all([readFeedState(db), readFeedReports(db)]);
  return {
    catalog_version: state.catalogVersion,
    settings: state.settings,
    feeds: FEED_CHANNELS.map((channel) => {
      const report = reports[channel];
      const current =
        report !== null &&
        report.catalog_version === state.catalogVersion &&
        report.settings_key === feedBuildKey(channel, state.settings, siteUrl) &&
        now - Date.parse(report.built_at) < FEED_MAX_AGE_MS;
      return {
        channel,
        url: `${siteUrl}${FEED_CHANNEL_INFO[channel].path}`,
        enabled: state.settings.channels[channel].enabled,
        last_build: report,
        current,
      };
    }),
  };
}

/**
 * What a build of one channel depends on besides the catalogue: the writers' version, the site
 * address, the shared settings and that channel's own (another channel's change leaves it be).
 */
export function feedBuildKey(channel: FeedChannel, settings: FeedSettings, siteUrl: string): string {
  const { channels, ...shared } = settings;
  const text = stableJson({ v: FEED_FORMAT_VERSION, channel, siteUrl, shared, own: channels[channel] });
  return crypto.createHash('sha1').update(text).digest('hex').slice(0, 16);
}

export async function loadFeedSections(db: Database): Promise<FeedSection[]> {
  return db
    .select({
      id: sections.id,
      code: sections.code,
      name: sections.name,
      url: sections.url,
      parentId: sections.parentId,
      kind: sections.kind,
    })
    .from(sections)
    .orderBy(asc(sections.sort), asc(sections.id));
}

interface ProductBatchRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  section_id: number;
  kind: string;
  color_name: string;
  active: boolean;
  certificate: string | null;
  article: string;
  group_key: string;
  photos: string[];
  offers: FeedProduct['offers'];
}

/**
 * Each colour group's model id: the smallest product id sharing its group key (numeric, as YML's
 * group_id must be). One row per group, read once per build (about 40 bytes a group).
 */
export async function loadFeedGroups(db: Database): Promise<Map<string, number>> {
  const rows = await queryRows<{ group_key: string; id: number }>(
    db,
    sql`select group_key, min(id)::int as id from products group by group_key`,
  );
  return new Map(rows.map((r) => [r.group_key, Number(r.id)]));
}

/**
 * Every product (inactive ones too: the report names them) with its sizes and photo paths,
 * `batchSize` at a time in id order, so a feed of any size is written without holding the
 * catalogue in memory.
 */
export async function* feedProductBatches(
  db: Database,
  groups: ReadonlyMap<string, number>,
  batchSize = 1000,
): AsyncGenerator<FeedProduct[]> {
  let after = 0;
  for (;;) {
    const rows = await queryRows<ProductBatchRow>(
      db,
      sql`select p.id, p.slug, p.name, p.description, p.section_id, p.kind, p.color_name, p.group_key, p.active, p.certificate, p.article,
        coalesce((select json_agg(pp.path order by pp.position) from product_photos pp where pp.product_id = p.id), '[]'::json) as photos,
        coalesce((select json_agg(json_build_object('id', o.id, 'size', o.size, 'sizeType', o.size_type, 'intlSize', o.intl_size,
            'priceKopecks', o.price_kopecks, 'oldPriceKopecks', o.old_price_kopecks, 'quantity', o.quantity, 'preorder', o.preorder)
            order by o.sort, o.id) from offers o where o.product_id = p.id), '[]'::json) as offers
      from products p where p.id > ${after} order by p.id limit ${batchSize}`,
    );
    if (rows.length === 0) return;
    yield rows.map((r) => ({
      id: Number(r.id),
      slug: r.slug,
      name: r.name,
      description: r.description,
      sectionId: Number(r.section_id),
      kind: r.kind,
      colorName: r.color_name,
      // A product made after the groups were read is a model of its own.
      groupId: groups.get(r.group_key) ?? Number(r.id),
      active: r.active,
      certificate: r.certificate,
      article: r.article,
      photos: r.photos,
      offers: r.offers,
    }));
    after = Number(rows[rows.length - 1]?.id);
    if (rows.length < batchSize) return;
  }
}

export async function saveFeedReport(db: Database, report: FeedBuildReport): Promise<void> {
  await db
    .insert(appState)
    .values({ key: reportKey(report.channel), value: report })
    .onConflictDoUpdate({ target: appState.key, set: { value: report, updatedAt: sql`now()` } });
}

/** Each channel's last build report (whichever process made it), or null before the first. */
export async function readFeedReports(db: Database): Promise<Record<FeedChannel, FeedBuildReport | null>> {
  const rows = await db
    .select({ key: appState.key, value: appState.value })
    .from(appState)
    .where(inArray(appState.key, FEED_CHANNELS.map(reportKey)));
  const out = Object.fromEntries(FEED_CHANNELS.map((c) => [c, null])) as Record<FeedChannel, FeedBuildReport | null>;
  for (const c of FEED_CHANNELS) {
    const parsed = FeedBuildReport.safeParse(rows.find((r) => r.key === reportKey(c))?.value);
    if (parsed.success) out[c] = parsed.data;
  }
  return out;
}
