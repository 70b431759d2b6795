import { Buffer as NodeBuffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { plainBufferGlobal } from './plain-globals';

describe('plainBufferGlobal', () => {
  it('turns the Buffer getter into a data property holding the same constructor', () => {
    plainBufferGlobal();
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'Buffer');
    expect(descriptor?.get).toBeUndefined();
    expect(descriptor?.value).toBe(NodeBuffer);
    expect(descriptor?.writable).toBe(true);
    expect(descriptor?.configurable).toBe(true);
    expect(Buffer.byteLength('Привет', 'utf8')).toBe(12);
  });

  it('is harmless when called again', () => {
    plainBufferGlobal();
    plainBufferGlobal();
    expect(globalThis.Buffer).toBe(NodeBuffer);
  });
});
