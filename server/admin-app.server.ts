import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

// The back office's single-page app (docs/back-office.md): its own build in build/admin, served
// at /admin/ by this process. Hashed assets for a year; every other address under /admin is the
// app's page (its router knows the screens), answered with:
// - a strict Content-Security-Policy: scripts, styles, fonts, images and calls from this origin
//   only; Material UI's run-time <style> elements carry this answer's nonce (admin/main.tsx reads
//   it from the page), so no 'unsafe-inline'; no framing, no <base>, no plugins;
// - X-Robots-Tag: noindex (and the page's robots meta), Cache-Control: no-store (the nonce is per answer).

export function adminContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    // data: for the enrolment page's QR code (an SVG the API made).
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export async function adminAppRoutes(
  app: FastifyInstance,
  { dir, apiBase }: { dir: string; apiBase: string },
): Promise<void> {
  const indexFile = path.join(dir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ dir }, 'back office: no build at this folder (npm run build makes it); /admin is not served');
    return;
  }
  // Read once: the build does not change under a running process.
  const page = fs.readFileSync(indexFile, 'utf8').replace('__ADMIN_API__', `${apiBase.replace(/\/+$/, '')}/admin`);

  await app.register(fastifyStatic, {
    root: path.join(dir, 'assets'),
    prefix: '/admin/assets/',
    wildcard: false,
    index: false,
    preCompressed: true,
    decorateReply: false,
    cacheControl: false,
    etag: false,
    lastModified: false,
    acceptRanges: false,
    setHeaders(res, filePath) {
      res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      res.setHeader('x-robots-tag', 'noindex, nofollow');
      if (/\.(?:br|gz)$/.test(filePath)) res.setHeader('vary', 'Accept-Encoding');
    },
  });

  const answer = async (req: FastifyRequest, reply: FastifyReply) => {
    // A missing hashed file is a 404, never the app's page (a stale tab asking an old chunk).
    if (req.url.startsWith('/admin/assets/'))
      return reply.code(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found');
    const nonce = crypto.randomBytes(16).toString('base64');
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex, nofollow')
      .header('content-security-policy', adminContentSecurityPolicy(nonce))
      .header('cross-origin-opener-policy', 'same-origin')
      .send(page.replace('__CSP_NONCE__', nonce));
  };
  app.get('/admin', answer);
  app.get('/admin/*', answer);
}
