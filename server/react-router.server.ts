import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';

// A small Fastify adapter for React Router's fetch-style request handler.
export function createReactRouterHandler(
  build: ServerBuild,
  mode: string,
  getLoadContext: (req: FastifyRequest) => unknown,
): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const handle = createRequestHandler(build, mode);
  return async (req, reply) => {
    const origin = `${req.protocol}://${req.host}`;
    const controller = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.append(key, v);
      else headers.set(key, String(value));
    }
    const init: RequestInit & { duplex?: 'half' } = { method: req.method, headers, signal: controller.signal };
    if (req.method !== 'GET' && req.method !== 'HEAD' && Buffer.isBuffer(req.body))
      init.body = new Uint8Array(req.body);
    // A document comes back through sendDocument (app/entry.server.tsx), as one buffer the guest
    // page cache also stores as is; other answers (resource routes, redirects) as a Response.
    let document: Buffer | null = null;
    const context = {
      ...(getLoadContext(req) as object),
      sendDocument: (bytes: Buffer) => {
        document = bytes;
      },
    };
    const response = await handle(new Request(new URL(req.url, origin), init), context as never);

    reply.status(response.status);
    for (const [key, value] of response.headers) {
      if (key !== 'set-cookie') reply.header(key, value);
    }
    const cookies = response.headers.getSetCookie();
    if (cookies.length) reply.header('set-cookie', cookies);
    if (document !== null && req.method !== 'HEAD') {
      await reply.send(document);
      return;
    }
    if (!response.body || req.method === 'HEAD') {
      await reply.send();
      return;
    }
    await reply.send(Readable.fromWeb(response.body as NodeReadableStream));
  };
}
