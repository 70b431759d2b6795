// Preloaded (`node --import tsx --import ./server/production-env.ts ...`) so that React and
// React Router, which read process.env.NODE_ENV once when first imported, run their
// production builds unless told otherwise. Without it, server rendering ran React's
// development build: several times slower.
process.env.NODE_ENV ??= 'production';
