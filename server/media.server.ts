import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from '~/db/client.server';
import { getPhotoArt } from '~/models/photos.server';
import { isGarmentArt, renderGarmentJpeg } from '~/media/garment-art';
import { BRAND_PALETTE } from '~/media/palette';
import { SECTION_ART } from '~/shared/art';

const SAFE_MEDIA_PATH = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*\/?[a-z0-9_-]+\.(jpg|jpeg|png|webp)$/;

/** Whether a media path has the one shape the store serves (no traversal, no junk); the image server checks it too. */
export function isMediaPath(mediaPath: string): boolean {
  return mediaPath.length <= 300 && SAFE_MEDIA_PATH.test(mediaPath);
}

export interface MediaStore {
  /** The original file of a media path, drawing a generated demo photo on first use; null if unknown. */
  getOriginal(mediaPath: string): Promise<string | null>;
}

export function createMediaStore({ db, root }: { db: Database; root: string }): MediaStore {
  const inFlight = new Map<string, Promise<string | null>>();

  async function produce(mediaPath: string): Promise<string | null> {
    const file = path.join(root, mediaPath);
    try {
      await fs.access(file);
      return file;
    } catch {
      // Not on disk yet: maybe a generated demo photo.
    }
    // Content illustrations (blog, home page) carry their drawing in the path: art/{kind}/{hex6}/{view}.jpg.
    const art = mediaPath.startsWith('art/') ? await contentArt(mediaPath) : await getPhotoArt({ db, path: mediaPath });
    if (!isGarmentArt(art)) return null;
    const jpeg = await renderGarmentJpeg(art);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a concurrent reader never sees half a file.
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(tmp, jpeg);
    await fs.rename(tmp, file);
    return file;
  }

  return {
    async getOriginal(mediaPath) {
      if (!SAFE_MEDIA_PATH.test(mediaPath) || mediaPath.length > 300) return null;
      let pending = inFlight.get(mediaPath);
      if (!pending) {
        pending = produce(mediaPath).finally(() => inFlight.delete(mediaPath));
        inFlight.set(mediaPath, pending);
      }
      return pending;
    },
  };
}

export async function mediaRoutes(app: FastifyInstance, { store }: { store: MediaStore }): Promise<void> {
  app.get('/media/*', async (req, reply) => {
    const mediaPath = (req.params as { '*': string })['*'];
    const file = await store.getOriginal(mediaPath);
    if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    const body = await fs.readFile(file);
    const ext = path.extname(file).slice(1);
    return (
      reply
        .type(ext === 'png' ? 'image/png' : ext === 'webp' ? 'image/webp' : 'image/jpeg')
        // Media paths never change content: a new photo gets a new path.
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(body)
    );
  });
}

/**
 * What `art/{kind}/{hex6}/{view}.jpg` asks to draw (the caller validates it with isGarmentArt);
 * the colour seeds the variations. Only colours the shop itself uses are drawn — the
 * catalogue palette, the section illustrations and colours named in content files — so no
 * one can make the server draw and store an unbounded number of images.
 */
async function contentArt(mediaPath: string): Promise<unknown> {
  const m = /^art\/([a-z-]+)\/([0-9a-f]{6})\/([0-4])\.jpg$/.exec(mediaPath);
  if (!m || !(await knownArtColors()).has(m[2] as string)) return null;
  return { kind: m[1], color: `#${m[2]}`, view: Number(m[3]), seed: parseInt(m[2] ?? '0', 16) };
}

const CONTENT_DIR = path.resolve('content');
const RESCAN_MS = 60_000;
let colorScan: { at: number; colors: Promise<Set<string>> } | null = null;

async function knownArtColors(): Promise<Set<string>> {
  if (colorScan && Date.now() - colorScan.at < RESCAN_MS) return colorScan.colors;
  const colors = (async () => {
    const found = new Set<string>(
      [...BRAND_PALETTE.map(([, hex]) => hex), ...Object.values(SECTION_ART).map((a) => a.color)].map(normalizeHex),
    );
    for (const sub of ['pages', 'blog']) {
      const dir = path.join(CONTENT_DIR, sub);
      const files = await fs.readdir(dir).catch(() => [] as string[]);
      for (const f of files.filter((x) => x.endsWith('.md'))) {
        const text = await fs.readFile(path.join(dir, f), 'utf8').catch(() => '');
        for (const hex of text.match(/#[0-9a-fA-F]{6}\b/g) ?? []) found.add(normalizeHex(hex));
      }
    }
    return found;
  })();
  colorScan = { at: Date.now(), colors };
  return colors;
}

function normalizeHex(hex: string): string {
  return hex.replace(/^#/, '').toLowerCase();
}
