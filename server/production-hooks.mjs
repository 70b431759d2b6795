// Node module resolution hooks, registered by server/production-env.ts when NODE_ENV is
// production. React Router's package exports map every condition (node, import, default) to its
// development build, so `import 'react-router'` in Node ran the development code (warnings,
// invariant messages, extra checks) on every server render. This points the same specifiers at the
// production build the package ships beside it, for the whole process: the storefront build
// (which keeps react-router external), the Fastify adapter and @react-router/node share it.
const PACKAGES = new Set(['react-router', 'react-router/dom']);

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!PACKAGES.has(specifier)) return resolved;
  return {
    ...resolved,
    url: resolved.url.replace('/react-router/dist/development/', '/react-router/dist/production/'),
  };
}
