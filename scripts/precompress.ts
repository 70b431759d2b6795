// Compresses the hashed client assets once, at build time, with the slowest and smallest
// settings (brotli 11, gzip 9). @fastify/static serves the .br/.gz sibling to browsers that
// accept it, so a page's scripts cost no compression work per request and about 9% fewer bytes
// than the on-the-fly brotli 5 that other responses get.
//   node --import tsx scripts/precompress.ts [dir]   (default build/client/assets and build/admin/assets)
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text types worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|map)$/;
/** Below this, compression saves less than the headers it adds. */
const MIN_BYTES = 1024;

export async function precompress(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const names = (await fs.readdir(dir)).filter((name) => COMPRESSIBLE.test(name));
  let files = 0;
  let bytes = 0;
  let brotliBytes = 0;
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const source = await fs.readFile(file);
      if (source.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(source, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        }),
        gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
      files += 1;
      bytes += source.length;
      brotliBytes += br.length;
    }),
  );
  return { files, bytes, brotliBytes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // The storefront's assets, and the back office's (its own build, docs/back-office.md).
  const dirs = process.argv[2] ? [process.argv[2]] : ['build/client/assets', 'build/admin/assets'];
  for (const dir of dirs.map((d) => path.resolve(d))) {
    const { files, bytes, brotliBytes } = await precompress(dir);
    console.log(
      `precompressed ${files} assets in ${path.relative(process.cwd(), dir)}: ${(bytes / 1024).toFixed(0)} KB → ${(brotliBytes / 1024).toFixed(0)} KB brotli`,
    );
  }
}
