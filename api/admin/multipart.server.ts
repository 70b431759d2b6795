import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ProductPhotoStore } from './product-photos';

// Files sent to the admin API (issue #30: product photos). The one route that takes them is
// `POST /products/:id/photos` with multipart/form-data: `files` (one or more) and `alt` (a caption
// per file, optional). The session and permission are checked in onRequest, before the body is
// read (api/admin/plugin.server.ts); the body is capped at the store's file limits. The parsed
// body is plain data — each file's name, type, size and SHA-256, which the Idempotency-Key's
// request hash covers — and the bytes ride on the request (`req.uploads`), so nothing walks them.

// Also an article's cover (issue #30 "The site's words"): `POST /content/:id/cover`, one file.
const UPLOAD_URL = /\/(?:products\/\d{1,10}\/photos|content\/\d{1,10}\/cover)(?:\?.*)?$/;

export function isUpload(method: string, url: string, contentType: string): boolean {
  return method === 'POST' && UPLOAD_URL.test(url) && /^multipart\/form-data\s*;/i.test(contentType);
}

export function uploadBodyLimit(store: ProductPhotoStore): number {
  return store.limits.maxBytes * store.limits.maxFiles + 1024 * 1024;
}

export interface UploadedFileInfo {
  name: string;
  type: string;
  size: number;
  sha256: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The bytes of the files of a multipart admin call, in the order of its `files`. */
    uploads: Uint8Array[] | null;
  }
}

export function registerMultipart(app: FastifyInstance, bodyLimit: number): void {
  app.decorateRequest('uploads', null);
  app.addContentTypeParser(
    /^multipart\/form-data/i,
    { parseAs: 'buffer', bodyLimit: Math.max(bodyLimit, 1) },
    (req: FastifyRequest, body: Buffer | string, done: (err: Error | null, value?: unknown) => void) => {
      if (bodyLimit === 0) return done(Object.assign(new Error('uploads are off'), { statusCode: 415 }));
      const type = String(req.headers['content-type'] ?? '');
      new Response(new Uint8Array(body as Buffer), { headers: { 'content-type': type } })
        .formData()
        .then(async (form) => {
          const files: UploadedFileInfo[] = [];
          const bytes: Uint8Array[] = [];
          for (const value of form.getAll('files')) {
            if (typeof value === 'string') continue;
            const data = new Uint8Array(await value.arrayBuffer());
            files.push({
              name: value.name || 'без имени',
              type: value.type,
              size: data.byteLength,
              sha256: crypto.createHash('sha256').update(data).digest('hex'),
            });
            bytes.push(data);
          }
          req.uploads = bytes;
          const alt = form.getAll('alt').filter((v): v is string => typeof v === 'string');
          done(null, { files, alt });
        })
        .catch(() => done(Object.assign(new Error('Не удалось прочитать загруженные файлы'), { statusCode: 400 })));
    },
  );
}
