/**
 * Node defines the global `Buffer` as a getter/setter pair, so every bare `Buffer` in a hot loop
 * calls a function. React's server renderer asks `Buffer.byteLength` of every chunk it writes
 * (about 15 000 for a category page), and that getter alone was ~1 % of a page's CPU. A data
 * property holding the same constructor reads without the call; it stays writable and
 * configurable, so code that reassigns `Buffer` behaves as before.
 */
export function plainBufferGlobal(): void {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'Buffer');
  if (!descriptor || !descriptor.get) return;
  const value: unknown = descriptor.get.call(globalThis);
  Object.defineProperty(globalThis, 'Buffer', { value, writable: true, configurable: true, enumerable: descriptor.enumerable ?? false });
}
