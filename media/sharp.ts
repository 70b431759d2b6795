import type SharpModule from 'sharp';

// sharp (libvips) is loaded the first time an image is made, not at start: its native library
// and the modules it brings (semver, detect-libc, …) were a tenth of a restart's CPU time, and
// a restart answers no image before its first page. Every user takes it from here, so the
// settings the image server gives (`setSharpSettings`) hold whoever loads it first.

export type Sharp = typeof SharpModule;

let loading: Promise<Sharp> | null = null;
let loaded: Sharp | null = null;
let settings: { concurrency: number; cache: boolean } | null = null;

function apply(sharp: Sharp): void {
  if (!settings) return;
  sharp.concurrency(settings.concurrency);
  sharp.cache(settings.cache);
}

/** The sharp module, loaded once. */
export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    loaded = sharp;
    apply(sharp);
    return sharp;
  });
  return loading;
}

/** libvips threads per job and its operation cache, now or when sharp is loaded. */
export function setSharpSettings(value: { concurrency: number; cache: boolean }): void {
  settings = value;
  if (loaded) apply(loaded);
}
