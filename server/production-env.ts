// Preloaded (`node --import tsx --import ./server/production-env.ts ...`) so that React and
// React Router, which read process.env.NODE_ENV once when first imported, run their
// production builds unless told otherwise. Without it, server rendering ran React's
// development build: several times slower.
import { register } from 'node:module';

process.env.NODE_ENV ??= 'production';
// React Router does not read NODE_ENV: its package resolves to its development build under every
// condition. In production, resolve it to its production build (server/production-hooks.mjs).
if (process.env.NODE_ENV === 'production') register('./production-hooks.mjs', import.meta.url);
