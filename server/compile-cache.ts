// V8's compile cache for the built server (Node 22.1 and later; a no-op on Node 20).
//
// A restart spends a sixth of its main thread compiling the bundle's JavaScript (some 7 MB): V8
// parses it anew at every start. Node 22's module compile cache keeps V8's compiled code for each
// module on disk, keyed by the module's content (a changed file is compiled again), and the next
// start reads it instead. Node 20 has no such cache for ES modules (`vm.Script`'s cachedData is
// for scripts only), so there these calls do nothing. Measured: README, "Start times".
//
// The built entry points enable it before they import the server (scripts/build-server.ts); the
// server flushes it once it listens, so that a process that never exits cleanly still leaves it
// behind (Node otherwise writes it at exit). NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';

/** The part of `node:module` this uses, which Node 20's types (and Node 20) do not have. */
interface CompileCacheApi {
  enableCompileCache?: (cacheDir?: string) => { status: number; message?: string; directory?: string };
  flushCompileCache?: () => void;
}

const api = nodeModule as unknown as CompileCacheApi;

/** Turns the cache on for the modules loaded from now on, kept in `dir` (a URL or a path). */
export function enableCompileCache(dir: URL | string): void {
  try {
    api.enableCompileCache?.(dir instanceof URL ? fileURLToPath(dir) : dir);
  } catch {
    // A cache that cannot be used (a read-only build folder) only costs the time it would save.
  }
}

/** Writes what was compiled so far to the cache (Node 22.10 and later; a no-op without a cache). */
export function flushCompileCache(): void {
  try {
    api.flushCompileCache?.();
  } catch {
    // As above.
  }
}
