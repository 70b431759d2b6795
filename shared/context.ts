import type { ApiClient } from './api-client';

/** A tile source of the pickup maps (core/map-tiles.ts resolves it from PUBLIC_MAP_TILE_*). */
export interface MapTiles {
  /** A Leaflet URL template: {z}, {x}, {y}, optionally {s} (a subdomain) and {r} (@2x on retina). */
  url: string;
  /** HTML shown in the map's corner, as the provider's terms require. */
  attribution: string;
  /** The letters or digits {s} takes, e.g. 'abc' or '0123'. */
  subdomains: string;
  maxZoom: number;
  /** Yandex's raster tiles are in the elliptical Mercator projection (EPSG:3395); most others in EPSG:3857. */
  crs: 'EPSG3857' | 'EPSG3395';
}

export interface PublicEnv {
  API_BASE_URL: string;
  PUBLIC_CHAT_URL: string;
  /** Yandex Metrika counter; unset, no analytics loads. */
  PUBLIC_METRIKA_ID?: string | undefined;
  /** CAPTCHA_PROVIDER: which widget the browser asks for a token (app/lib/captcha.ts); 'off' sends 'offline-ok'. */
  PUBLIC_CAPTCHA_PROVIDER?: 'off' | 'recaptcha' | 'smartcaptcha' | undefined;
  PUBLIC_RECAPTCHA_SITE_KEY?: string | undefined;
  PUBLIC_SMARTCAPTCHA_SITE_KEY?: string | undefined;
  /** Card or instalment payments run on their offline stand-ins: the pay page says nobody is charged. */
  PAYMENTS_SIMULATED?: boolean | undefined;
  /** The pickup maps' tiles (PUBLIC_MAP_TILE_*); null: no map, the list alone. */
  PUBLIC_MAP_TILES?: MapTiles | null | undefined;
}

/**
 * The server's logger as loaders and actions see it: the request's own (pino, its lines carry the
 * request id). The storefront's server code logs here, never to the console (eslint.config.js).
 */
export interface ShopLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** What the HTTP server hands every loader and action. */
export interface ShopLoadContext {
  api: ApiClient;
  log: ShopLog;
  siteUrl: string;
  publicEnv: PublicEnv;
  /**
   * Set by the server's adapter (server/react-router.server.ts): app/entry.server.tsx hands it a
   * rendered document's bytes, which are sent as they are, instead of wrapping them in a
   * Response body (a stream, and two copies, read back at once: issue #13).
   */
  sendDocument?: (bytes: Buffer) => void;
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends ShopLoadContext {}
}
