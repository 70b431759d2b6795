import type { ApiClient } from './api-client';

export interface PublicEnv {
  API_BASE_URL: string;
  PUBLIC_CHAT_URL: string;
  /** Yandex Metrika counter; unset, no analytics loads. */
  PUBLIC_METRIKA_ID?: string | undefined;
}

/** What the HTTP server hands every loader and action. */
export interface ShopLoadContext {
  api: ApiClient;
  siteUrl: string;
  publicEnv: PublicEnv;
}

declare module 'react-router' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends ShopLoadContext {}
}
