import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazySchemaCompilers } from './schema-compilers.server';

describe('lazySchemaCompilers', () => {
  it("validates and serializes with Fastify's own compilers once a route gives a schema", async () => {
    const app = Fastify({ schemaController: { compilersFactory: lazySchemaCompilers() } });
    app.get(
      '/sum',
      {
        schema: {
          querystring: {
            type: 'object',
            properties: { a: { type: 'integer' }, b: { type: 'integer' } },
            required: ['a', 'b'],
          },
          response: { 200: { type: 'object', properties: { sum: { type: 'integer' } } } },
        },
      },
      async (req) => {
        const { a, b } = req.query as { a: number; b: number };
        // `secret` is not in the response schema: the serializer leaves it out.
        return { sum: a + b, secret: 'x' };
      },
    );
    app.get('/plain', async () => ({ plain: true }));
    const ok = await app.inject('/sum?a=2&b=3');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ sum: 5 });
    const bad = await app.inject('/sum?a=two&b=3');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/querystring\/a must be integer/);
    expect((await app.inject('/plain')).json()).toEqual({ plain: true });
    await app.close();
  });
});
