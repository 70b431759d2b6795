// The client build's chunk files of lazily loaded modules, for the server (vite.config.ts, vitrina:page-chunks).
declare module 'virtual:vitrina/page-chunks' {
  /** The URLs of a lazily loaded module's chunk and of the chunks it imports; `source` is its path from the project root. */
  export function chunksOf(source: string): string[];
}
