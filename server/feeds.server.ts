// Product feeds (issue #32, docs/feeds.md): GET /feeds/yandex.yml, /feeds/google.xml and
// /feeds/vk.yml. Each is built once per catalogue version, settings and site address into a
// file under DATA_DIR/cache/feeds (with its gzip and brotli siblings, made in the same pass),
// and every request streams the file: a 100 000-offer feed never sits in memory, and a
// conditional request gets 304 from the build's tag. The catalogue is read in batches
// (models/feeds.server.ts), each product turned into offers by core/feeds.ts.
import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '~/db/client.server';
import { FEED_CHANNELS, type FeedBuildReport, type FeedChannel, type FeedLeftOutReason } from '~/shared/contract';
import {
  etagMatches,
  FEED_CHANNEL_INFO,
  FEED_MAX_AGE_MS,
  FEED_LEFT_OUT_SAMPLE,
  FEED_LEFT_OUT_TEXT,
  GOOGLE_TAIL,
  googleHead,
  googleItem,
  planProduct,
  YML_TAIL,
  ymlHead,
  ymlOffer,
  type FeedBuildContext,
  type FeedLeftOutEntry,
} from '~/core/feeds';
import {
  feedBuildKey,
  feedProductBatches,
  loadFeedGroups,
  loadFeedSections,
  readFeedState,
  saveFeedReport,
  type FeedState,
} from '~/models/feeds.server';
import { chooseEncoding } from './page-cache.server';

/**
 * How long a request waits for a new build when an earlier one (less than a day old) is there:
 * past it, the earlier one is served and the build goes on for the next request. A robot's
 * fetch never waits longer than this for a large catalogue (20–25 s at 100 000 offers here);
 * a first build, with nothing earlier, is waited for.
 */
export const FEED_WAIT_MS = 15_000;
/** Products read per query while building. */
const BATCH = 500;
/** Text handed to the files at a time (characters; Cyrillic takes two bytes). */
const CHUNK_CHARS = 128 * 1024;
/** Browsers and robots may keep a feed this long before asking again (then a 304 is cheap). */
const CACHE_CONTROL = 'public, max-age=300';

export interface BuiltFeed {
  channel: FeedChannel;
  /** channel-version-settings: the file's name. */
  key: string;
  catalogVersion: number;
  /** sha1 of the document (base64url): the ETag of its plain form; gzip and brotli add -gz, -br. */
  tag: string;
  builtAt: number;
  bytes: number;
  gzipBytes: number;
  brBytes: number;
}

export interface FeedService {
  /** The channel's current build, made now if the catalogue, the settings or the day moved on; null when the channel is off. */
  current(channel: FeedChannel): Promise<BuiltFeed | null>;
  /** Builds the channel now whatever is on disk (the staff API's 'build'). */
  rebuild(channel: FeedChannel): Promise<BuiltFeed | null>;
  /** Forgets the channel's build kept in memory (its file went missing). */
  forget(channel: FeedChannel): void;
  /** Where a build's file of an encoding lies. */
  fileOf(feed: BuiltFeed, encoding: 'br' | 'gzip' | 'identity'): string;
  readonly dir: string;
}

export interface FeedServiceOptions {
  db: Database;
  dataDir: string;
  siteUrl: string;
  log: FastifyBaseLogger;
  maxAgeMs?: number;
  waitMs?: number;
  now?: () => number;
}

const EXT = { identity: '.xml', gzip: '.xml.gz', br: '.xml.br' } as const;

export function createFeedService({
  db,
  dataDir,
  siteUrl,
  log,
  maxAgeMs = FEED_MAX_AGE_MS,
  waitMs = FEED_WAIT_MS,
  now = Date.now,
}: FeedServiceOptions): FeedService {
  const dir = path.join(dataDir, 'cache', 'feeds');
  const latest = new Map<FeedChannel, BuiltFeed>();
  // One build per key at a time in this process: simultaneous requests share it.
  const building = new Map<string, Promise<BuiltFeed>>();
  const fileOf = (feed: Pick<BuiltFeed, 'key'>, encoding: keyof typeof EXT) => path.join(dir, feed.key + EXT[encoding]);
  const metaFile = (key: string) => path.join(dir, `${key}.json`);
  const fresh = (feed: BuiltFeed) => now() - feed.builtAt < maxAgeMs;

  function keyOf(channel: FeedChannel, state: FeedState): string {
    return `${channel}-${state.catalogVersion}-${feedBuildKey(channel, state.settings, siteUrl)}`;
  }

  /** A build another process (or this one before a restart) left on disk: its meta file is written last. */
  async function fromDisk(key: string): Promise<BuiltFeed | null> {
    try {
      const feed = JSON.parse(await fsp.readFile(metaFile(key), 'utf8')) as BuiltFeed;
      return feed.key === key ? feed : null;
    } catch {
      return null;
    }
  }

  function startBuild(channel: FeedChannel, key: string, state: FeedState): Promise<BuiltFeed> {
    let job = building.get(key);
    if (!job) {
      job = buildFeed({ db, dir, siteUrl, channel, key, state, builtAt: now(), log })
        .then(async (feed) => {
          latest.set(channel, feed);
          await removeOlder(dir, channel, key, log);
          return feed;
        })
        .catch((err: unknown) => {
          log.error({ err, channel }, 'feed build failed');
          throw err;
        })
        .finally(() => building.delete(key));
      building.set(key, job);
    }
    return job;
  }

  return {
    dir,
    fileOf,
    forget: (channel) => void latest.delete(channel),
    async current(channel) {
      const state = await readFeedState(db);
      if (!state.settings.channels[channel].enabled) return null;
      const key = keyOf(channel, state);
      const have = latest.get(channel);
      if (have && have.key === key && fresh(have)) return have;
      const onDisk = await fromDisk(key);
      if (onDisk && fresh(onDisk)) {
        latest.set(channel, onDisk);
        return onDisk;
      }
      const job = startBuild(channel, key, state);
      const earlier = have && fresh(have) ? have : null;
      if (!earlier) return job;
      // The new build if it is ready in time (or the earlier one if it failed), else the earlier one.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<null>((resolve) => (timer = setTimeout(resolve, waitMs, null)));
      try {
        return (await Promise.race([job.catch(() => null), late])) ?? earlier;
      } finally {
        clearTimeout(timer);
      }
    },
    async rebuild(channel) {
      const state = await readFeedState(db);
      if (!state.settings.channels[channel].enabled) return null;
      const key = keyOf(channel, state);
      // A build of this key under way is as good as a new one.
      return building.get(key) ?? startBuild(channel, key, state);
    },
  };
}

/** Files of the channel's earlier builds (a request still streaming one keeps reading it: unlinking leaves open files be). */
async function removeOlder(dir: string, channel: FeedChannel, key: string, log: FastifyBaseLogger): Promise<void> {
  try {
    for (const name of await fsp.readdir(dir)) {
      if (name.startsWith(`${channel}-`) && !name.startsWith(`${key}.`) && !name.endsWith('.tmp'))
        await fsp.rm(path.join(dir, name), { force: true });
    }
  } catch (err) {
    log.warn({ err }, 'feeds: old builds not removed');
  }
}

interface BuildInput {
  db: Database;
  dir: string;
  siteUrl: string;
  channel: FeedChannel;
  key: string;
  state: FeedState;
  builtAt: number;
  log: FastifyBaseLogger;
}

/** A file written whole or not at all: written under a temporary name, renamed at the end. */
function tmpName(file: string): string {
  return `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Writes the document in one pass over the catalogue into the plain file, a gzip (level 6) and a
 * brotli (quality 5) sibling, hashing it on the way; then the meta file, then the build report.
 */
export async function buildFeed({
  db,
  dir,
  siteUrl,
  channel,
  key,
  state,
  builtAt,
  log,
}: BuildInput): Promise<BuiltFeed> {
  const started = performance.now();
  await fsp.mkdir(dir, { recursive: true });
  const info = FEED_CHANNEL_INFO[channel];
  const [sections, groups] = await Promise.all([loadFeedSections(db), loadFeedGroups(db)]);
  const ctx: FeedBuildContext = {
    channel,
    settings: state.settings,
    siteUrl,
    builtAt: new Date(builtAt),
    sections: new Map(sections.map((s) => [s.id, s])),
  };
  const files = {
    identity: path.join(dir, key + EXT.identity),
    gzip: path.join(dir, key + EXT.gzip),
    br: path.join(dir, key + EXT.br),
  };
  const tmp = { identity: tmpName(files.identity), gzip: tmpName(files.gzip), br: tmpName(files.br) };
  const plain = fs.createWriteStream(tmp.identity);
  const gzipFile = fs.createWriteStream(tmp.gzip);
  const brFile = fs.createWriteStream(tmp.br);
  const gzip = zlib.createGzip({ level: 6 });
  const br = zlib.createBrotliCompress({
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  });
  gzip.pipe(gzipFile);
  br.pipe(brFile);
  const sinks = [plain, gzip, br];
  const hash = crypto.createHash('sha1');
  let bytes = 0;
  const write = async (text: string) => {
    const chunk = Buffer.from(text, 'utf8');
    hash.update(chunk);
    bytes += chunk.length;
    // Waits for whichever sink is full: memory holds about one batch, whatever the catalogue's size.
    await Promise.all(sinks.filter((s) => !s.write(chunk)).map((s) => once(s, 'drain')));
  };

  const counts: Partial<Record<FeedLeftOutReason, number>> = {};
  const samples: FeedLeftOutEntry[] = [];
  const sampled: Partial<Record<FeedLeftOutReason, number>> = {};
  let products = 0;
  let offers = 0;
  try {
    await write(info.format === 'yml' ? ymlHead(ctx) : googleHead(ctx));
    for await (const batch of feedProductBatches(db, groups, BATCH)) {
      let text = '';
      for (const product of batch) {
        const { items, leftOut } = planProduct(product, ctx);
        if (items.length) products++;
        offers += items.length;
        for (const item of items) text += info.format === 'yml' ? ymlOffer(item) : googleItem(item, ctx);
        // Small pieces: strings past the young generation's size would live until a full collection.
        if (text.length >= CHUNK_CHARS) {
          await write(text);
          text = '';
        }
        for (const entry of leftOut) {
          counts[entry.reason] = (counts[entry.reason] ?? 0) + entry.offers;
          if ((sampled[entry.reason] ?? 0) < FEED_LEFT_OUT_SAMPLE) {
            sampled[entry.reason] = (sampled[entry.reason] ?? 0) + 1;
            samples.push(entry);
          }
        }
      }
      if (text) await write(text);
    }
    await write(info.format === 'yml' ? YML_TAIL : GOOGLE_TAIL);
    for (const s of sinks) s.end();
    await Promise.all([finished(plain), finished(gzipFile), finished(brFile)]);
    await Promise.all((Object.keys(files) as Array<keyof typeof files>).map((e) => fsp.rename(tmp[e], files[e])));
  } catch (err) {
    for (const s of [...sinks, gzipFile, brFile]) s.destroy();
    await Promise.all(Object.values(tmp).map((f) => fsp.rm(f, { force: true })));
    throw err;
  }

  const [gzipStat, brStat] = await Promise.all([fsp.stat(files.gzip), fsp.stat(files.br)]);
  const feed: BuiltFeed = {
    channel,
    key,
    catalogVersion: state.catalogVersion,
    tag: hash.digest('base64url').slice(0, 27),
    builtAt,
    bytes,
    gzipBytes: gzipStat.size,
    brBytes: brStat.size,
  };
  const meta = path.join(dir, `${key}.json`);
  const metaTmp = tmpName(meta);
  await fsp.writeFile(metaTmp, JSON.stringify(feed));
  await fsp.rename(metaTmp, meta);

  const durationMs = Math.round(performance.now() - started);
  const report: FeedBuildReport = {
    channel,
    built_at: new Date(builtAt).toISOString(),
    catalog_version: state.catalogVersion,
    settings_key: key.slice(key.lastIndexOf('-') + 1),
    duration_ms: durationMs,
    products,
    offers,
    bytes,
    gzip_bytes: feed.gzipBytes,
    br_bytes: feed.brBytes,
    left_out_counts: counts,
    left_out_total: Object.values(counts).reduce((a, b) => a + b, 0),
    left_out: samples.map((e) => ({
      product_id: e.productId,
      offer_id: e.offerId,
      name: e.name,
      reason: e.reason,
      reason_text: FEED_LEFT_OUT_TEXT[e.reason],
    })),
  };
  // The report is for staff: a failure to store it never takes the feed down.
  await saveFeedReport(db, report).catch((err: unknown) =>
    log.error({ err, channel }, 'feeds: build report not stored'),
  );
  log.info({ channel, offers, products, bytes, durationMs, leftOut: report.left_out_total }, 'feed built');
  return feed;
}

/** Whether the request already holds this build: If-None-Match first, else If-Modified-Since (whole seconds). */
function notModified(req: FastifyRequest, feed: BuiltFeed): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) return etagMatches(inm, feed.tag);
  const ims = req.headers['if-modified-since'];
  if (!ims) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(feed.builtAt / 1000) * 1000 <= since;
}

const TAG_SUFFIX = { identity: '', gzip: '-gz', br: '-br' } as const;

async function serveFeed(
  service: FeedService,
  channel: FeedChannel,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  reply.header('cache-control', 'no-store');
  for (let attempt = 0; ; attempt++) {
    let feed: BuiltFeed | null;
    try {
      feed = await service.current(channel);
    } catch {
      // Logged by the build.
      return reply
        .code(503)
        .header('retry-after', '60')
        .type('text/plain; charset=utf-8')
        .send('Фид временно недоступен');
    }
    if (!feed) return reply.code(404).type('text/plain; charset=utf-8').send('Фид выключен');
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    reply
      .header('content-type', FEED_CHANNEL_INFO[channel].contentType)
      .header('cache-control', CACHE_CONTROL)
      .header('vary', 'Accept-Encoding')
      .header('last-modified', new Date(feed.builtAt).toUTCString())
      .header('etag', `"${feed.tag}${TAG_SUFFIX[encoding]}"`);
    if (notModified(req, feed)) return reply.code(304).send();
    let handle: FileHandle;
    try {
      handle = await fsp.open(service.fileOf(feed, encoding), 'r');
    } catch (err) {
      // Removed under us (another process on the same DATA_DIR built a newer one): once more.
      if (attempt === 0 && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        service.forget(channel);
        continue;
      }
      throw err;
    }
    const { size } = await handle.stat();
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    reply.header('content-length', String(size));
    if (req.method === 'HEAD') {
      await handle.close();
      return reply.send();
    }
    return reply.send(handle.createReadStream());
  }
}

/** The feed routes; compression is theirs (the files are compressed already). */
export async function feedRoutes(app: FastifyInstance, { service }: { service: FeedService }): Promise<void> {
  for (const channel of FEED_CHANNELS) {
    // HEAD of its own: Fastify's automatic one would read the whole file to throw it away.
    app.route({
      method: ['GET', 'HEAD'],
      url: FEED_CHANNEL_INFO[channel].path,
      compress: false,
      handler: (req, reply) => serveFeed(service, channel, req, reply),
    });
  }
}
