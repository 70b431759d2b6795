import { createRequire } from 'node:module';
import type { FastifyServerOptions } from 'fastify';

/**
 * Fastify's own schema compilers (Ajv for validation, fast-json-stringify for answers), loaded
 * the first time a route hands Fastify a schema rather than at every start (about a tenth of a
 * start's CPU): no route does now, `defineRoute` validates with zod. Fastify counts compilers
 * given here as custom ones: a `headers` schema is then compiled as written, not lower-cased.
 */
export function lazySchemaCompilers(): CompilersFactory {
  // Fastify's own dependencies, as Fastify would require them.
  const fromFastify = (name: string) => createRequire(createRequire(import.meta.url).resolve('fastify'))(name);
  const lazy = <F extends (...args: never[]) => unknown>(name: string): F => {
    let factory: F | null = null;
    return ((...args: Parameters<F>) => (factory ??= (fromFastify(name) as () => F)())(...args)) as F;
  };
  return {
    buildValidator: lazy<NonNullable<CompilersFactory['buildValidator']>>('@fastify/ajv-compiler'),
    buildSerializer: lazy<NonNullable<CompilersFactory['buildSerializer']>>('@fastify/fast-json-stringify-compiler'),
  };
}
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
