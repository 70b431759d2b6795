import type { FastifyInstance } from 'fastify';

// Server rendering calls the API in the same process: Fastify's inject runs the whole request
// lifecycle (filter, validation, handlers) without a socket.
export function createInProcessFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const sent = Object.fromEntries(request.headers);
    const res = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: sent,
      // The shopper's address (set by the server from the page request, never taken from a
      // browser here) becomes the socket's, so the API's per-IP limits count the shopper.
      ...(sent['x-real-ip'] ? { remoteAddress: sent['x-real-ip'] } : {}),
      ...(body ? { payload: body } : {}),
    });
    const headers = new Headers();
    for (const [key, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.append(key, v);
      else headers.set(key, String(value));
    }
    const nullBody = res.statusCode === 204 || res.statusCode === 304 || request.method === 'HEAD';
    return new Response(nullBody ? null : new Uint8Array(res.rawPayload), { status: res.statusCode, headers });
  };
}
