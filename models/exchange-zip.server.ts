import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { safeExchangeName } from '~/core/commerceml';

// Archives 1C sends when init answered zip=yes (issue #31, docs/exchange-1c.md): unpacked as a
// stream (yauzl: one entry at a time, never the whole archive in memory) into the session's
// folder. Refused whole, with nothing of it left in the folder: an entry whose path would leave
// the folder (zip slip: '..', an absolute path, a drive letter, a backslash), a symbolic link,
// more entries or more unpacked bytes than the limits (zip bomb; the bytes are counted as they
// are inflated, not taken from the archive's headers), a damaged archive.

export class ZipRefused extends Error {}

export interface UnzipLimits {
  /** Unpacked bytes of all entries together. */
  maxBytes: number;
  maxEntries: number;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: true, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => (error || !zip ? reject(error ?? new Error('no archive')) : resolve(zip)),
    ),
  );

/** An entry's name as the archive wrote it: UTF-8 when flagged, else the DOS code page 1C's Windows zips use. */
function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  const utf8 = (entry.generalPurposeBitFlag & 0x800) !== 0;
  try {
    return new TextDecoder(utf8 ? 'utf-8' : 'ibm866', { fatal: true }).decode(raw);
  } catch {
    return raw.toString('latin1');
  }
}

/**
 * Unpacks `zipFile` into `destDir`: first into a hidden folder beside the files, then, when every
 * entry passed, each file moved into place. Returns the files' relative paths.
 */
export async function unpackArchive({
  zipFile,
  destDir,
  limits,
}: {
  zipFile: string;
  destDir: string;
  limits: UnzipLimits;
}): Promise<string[]> {
  const label = path.basename(zipFile);
  const tmp = path.join(destDir, `.unzip-${crypto.randomBytes(6).toString('hex')}`);
  await fs.promises.mkdir(tmp, { recursive: true });
  const files: string[] = [];
  try {
    let zip: yauzl.ZipFile;
    try {
      zip = await openZip(zipFile);
    } catch (error) {
      throw new ZipRefused(`архив ${label} повреждён или не zip (${(error as Error).message})`);
    }
    if (zip.entryCount > limits.maxEntries)
      throw new ZipRefused(`в архиве ${label} больше ${limits.maxEntries} файлов`);
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown) => {
        zip.close();
        reject(error instanceof ZipRefused ? error : new ZipRefused(`архив ${label}: ${(error as Error).message}`));
      };
      zip.on('error', fail);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        void (async () => {
          const raw = entryName(entry);
          const isDir = raw.endsWith('/');
          const name = safeExchangeName(isDir ? raw.slice(0, -1) : raw);
          if (!name || /^[A-Za-z]:/.test(raw) || name.split('/').some((p) => p.startsWith('.')))
            throw new ZipRefused(`в архиве ${label} недопустимый путь «${raw}» (вне папки обмена)`);
          const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
          if (mode === S_IFLNK) throw new ZipRefused(`в архиве ${label} символическая ссылка «${raw}»`);
          if (isDir) return;
          total += entry.uncompressedSize;
          if (total > limits.maxBytes)
            throw new ZipRefused(
              `архив ${label} распаковывается больше чем в ${Math.round(limits.maxBytes / 1048576)} МБ`,
            );
          const target = path.join(tmp, name);
          await fs.promises.mkdir(path.dirname(target), { recursive: true });
          const stream = await new Promise<NodeJS.ReadableStream>((ok, no) =>
            zip.openReadStream(entry, (error, s) => (error || !s ? no(error ?? new Error('no stream')) : ok(s))),
          );
          // The headers may lie (validateEntrySizes stops a mismatch too): count what inflates.
          let seen = 0;
          const counter = new Transform({
            transform(chunk: Buffer, _enc, done) {
              seen += chunk.length;
              if (seen > entry.uncompressedSize) done(new ZipRefused(`архив ${label}: «${raw}» больше заявленного`));
              else done(null, chunk);
            },
          });
          await pipeline(stream, counter, fs.createWriteStream(target, { flags: 'wx' }));
          files.push(name);
        })().then(() => zip.readEntry(), fail);
      });
      zip.readEntry();
    });
    for (const name of files) {
      const to = path.join(destDir, name);
      await fs.promises.mkdir(path.dirname(to), { recursive: true });
      await fs.promises.rename(path.join(tmp, name), to);
    }
    return files;
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true });
  }
}
