// Where the pickup-point maps (the checkout's modal and the CDEK map page) take their tiles from
// (issue #26, docs/map-tiles.md). The OpenStreetMap project's own servers are for development
// only: their usage policy does not cover a commercial site's traffic. In production a provider
// must be configured (PUBLIC_MAP_TILE_URL); without one the maps are left out and the lists of
// points work alone.

import type { MapTiles } from '~/shared/context';

export type { MapTiles };

/** The OpenStreetMap project's tile servers: development and tests only. */
export const OSM_DEV_TILES: MapTiles = {
  url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">участники OpenStreetMap</a>',
  subdomains: 'abc',
  maxZoom: 19,
  crs: 'EPSG3857',
};

export interface MapTileSettings {
  NODE_ENV: 'development' | 'production' | 'test';
  /** A template, 'off' (no map), or unset (the OSM servers outside production, no map in production). */
  PUBLIC_MAP_TILE_URL?: string | undefined;
  PUBLIC_MAP_TILE_ATTRIBUTION?: string | undefined;
  PUBLIC_MAP_TILE_SUBDOMAINS?: string | undefined;
  PUBLIC_MAP_TILE_MAX_ZOOM?: number | undefined;
  PUBLIC_MAP_TILE_CRS?: 'EPSG3857' | 'EPSG3395' | undefined;
}

/** The tiles the maps use, or null: no map, the list alone. */
export function resolveMapTiles(settings: MapTileSettings): MapTiles | null {
  const url = settings.PUBLIC_MAP_TILE_URL;
  if (url === 'off') return null;
  if (url === undefined) return settings.NODE_ENV === 'production' ? null : OSM_DEV_TILES;
  return {
    url,
    attribution: settings.PUBLIC_MAP_TILE_ATTRIBUTION ?? '',
    subdomains: settings.PUBLIC_MAP_TILE_SUBDOMAINS ?? 'abc',
    maxZoom: settings.PUBLIC_MAP_TILE_MAX_ZOOM ?? 19,
    crs: settings.PUBLIC_MAP_TILE_CRS ?? 'EPSG3857',
  };
}

/** Why a template is not usable, or null: https (http only for a local server), and {z}, {x} and {y}. */
export function mapTileUrlProblem(url: string): string | null {
  if (!/^https:\/\/[^/\s]+\//.test(url) && !/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\//.test(url))
    return 'must be an https:// URL template';
  if (!['{z}', '{x}', '{y}'].every((part) => url.includes(part))) return 'must contain {z}, {x} and {y}';
  return null;
}
