/**
 * Freezes a JSON value and everything in it, so that one parsed answer can be handed to every
 * request that asks for it (server/in-process-fetch.server.ts): a reader that tried to change it
 * would throw (modules are strict) instead of changing what other requests see.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
