import { describe, expect, it } from 'vitest';
import { OSM_DEV_TILES } from '~/core/map-tiles';
import { assertProductionReady, ConfigError, configWarnings, loadEnv, offlinePaymentProviders } from './env.server';

// The pickup maps' tile source (issue #26, docs/map-tiles.md): the OpenStreetMap project's
// servers only outside production; in production a configured provider or no map.

const base = { DATA_DIR: '/tmp/vitrina-env-test' };

describe('PUBLIC_MAP_TILE_*', () => {
  it('defaults to the OpenStreetMap servers in development and tests, with no warning', () => {
    for (const NODE_ENV of ['development', 'test']) {
      const env = loadEnv({ ...base, NODE_ENV });
      expect(env.mapTiles).toEqual(OSM_DEV_TILES);
      expect(configWarnings(env)).toEqual([]);
    }
  });

  it('in production, unset: no map at all (never tile.openstreetmap.org) and a warning at start', () => {
    const env = loadEnv({ ...base, NODE_ENV: 'production' });
    expect(env.mapTiles).toBeNull();
    expect(configWarnings(env)).toEqual([expect.stringContaining('PUBLIC_MAP_TILE_URL is not set')]);
    // An empty variable is unset.
    expect(loadEnv({ ...base, NODE_ENV: 'production', PUBLIC_MAP_TILE_URL: '' }).mapTiles).toBeNull();
  });

  it('"off" leaves the map out everywhere, quietly', () => {
    const env = loadEnv({ ...base, NODE_ENV: 'production', PUBLIC_MAP_TILE_URL: 'off' });
    expect(env.mapTiles).toBeNull();
    expect(configWarnings(env)).toEqual([]);
    expect(loadEnv({ ...base, NODE_ENV: 'development', PUBLIC_MAP_TILE_URL: 'off' }).mapTiles).toBeNull();
  });

  it('takes a provider’s template, credit, subdomains, zoom and projection', () => {
    const env = loadEnv({
      ...base,
      NODE_ENV: 'production',
      PUBLIC_MAP_TILE_URL:
        'https://core-renderer-tiles.maps.yandex.net/tiles?l=map&x={x}&y={y}&z={z}&scale=1&lang=ru_RU',
      PUBLIC_MAP_TILE_ATTRIBUTION: '&copy; <a href="https://yandex.ru/maps">Яндекс Карты</a>',
      PUBLIC_MAP_TILE_SUBDOMAINS: '',
      PUBLIC_MAP_TILE_MAX_ZOOM: '18',
      PUBLIC_MAP_TILE_CRS: 'EPSG3395',
    });
    expect(env.mapTiles).toEqual({
      url: 'https://core-renderer-tiles.maps.yandex.net/tiles?l=map&x={x}&y={y}&z={z}&scale=1&lang=ru_RU',
      attribution: '&copy; <a href="https://yandex.ru/maps">Яндекс Карты</a>',
      subdomains: 'abc',
      maxZoom: 18,
      crs: 'EPSG3395',
    });
    expect(configWarnings(env)).toEqual([]);
  });

  it('refuses a template without https or {z}/{x}/{y}, and a provider without its credit', () => {
    const fails = (vars: Record<string, string>, text: RegExp) => {
      expect(() => loadEnv({ ...base, ...vars })).toThrow(ConfigError);
      expect(() => loadEnv({ ...base, ...vars })).toThrow(text);
    };
    fails(
      { PUBLIC_MAP_TILE_URL: 'http://tiles.example.com/{z}/{x}/{y}.png', PUBLIC_MAP_TILE_ATTRIBUTION: 'x' },
      /PUBLIC_MAP_TILE_URL: must be an https/,
    );
    fails(
      { PUBLIC_MAP_TILE_URL: 'https://tiles.example.com/{z}/{x}.png', PUBLIC_MAP_TILE_ATTRIBUTION: 'x' },
      /must contain \{z\}, \{x\} and \{y\}/,
    );
    fails(
      { PUBLIC_MAP_TILE_URL: 'https://tiles.example.com/{z}/{x}/{y}.png' },
      /PUBLIC_MAP_TILE_ATTRIBUTION: is required/,
    );
    fails({ PUBLIC_MAP_TILE_CRS: 'EPSG4326' }, /PUBLIC_MAP_TILE_CRS/);
    // A local tile server may be plain http.
    expect(
      loadEnv({
        ...base,
        PUBLIC_MAP_TILE_URL: 'http://127.0.0.1:8080/{z}/{x}/{y}.png',
        PUBLIC_MAP_TILE_ATTRIBUTION: 'x',
      }).mapTiles?.url,
    ).toBe('http://127.0.0.1:8080/{z}/{x}/{y}.png');
  });
});

describe('assertProductionReady', () => {
  it('refuses production with offline payment stand-ins and names every variable to set', () => {
    const env = loadEnv({ NODE_ENV: 'production' });
    expect(offlinePaymentProviders(env)).toEqual([
      'CLOUDPAYMENTS_PROVIDER',
      'DOLYAMI_PROVIDER',
      'YANDEX_SPLIT_PROVIDER',
    ]);
    expect(() => assertProductionReady(env)).toThrow(ConfigError);
    expect(() => assertProductionReady(env)).toThrow(
      /CLOUDPAYMENTS_PROVIDER[\s\S]*DOLYAMI_PROVIDER[\s\S]*YANDEX_SPLIT_PROVIDER[\s\S]*ALLOW_OFFLINE_PAYMENTS=true/,
    );
  });

  it('lets a demo (ALLOW_OFFLINE_PAYMENTS=true) and development or tests start', () => {
    expect(() =>
      assertProductionReady(loadEnv({ NODE_ENV: 'production', ALLOW_OFFLINE_PAYMENTS: 'true' })),
    ).not.toThrow();
    expect(() => assertProductionReady(loadEnv({ NODE_ENV: 'development' }))).not.toThrow();
    expect(() => assertProductionReady(loadEnv({ NODE_ENV: 'test' }))).not.toThrow();
  });

  it('names only the providers still offline', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      CLOUDPAYMENTS_PROVIDER: 'cloudpayments',
      PUBLIC_CLOUDPAYMENTS_ID: 'pk_x',
      CLOUDPAYMENTS_API_SECRET: 'secret',
    });
    expect(offlinePaymentProviders(env)).toEqual(['DOLYAMI_PROVIDER', 'YANDEX_SPLIT_PROVIDER']);
    expect(() => assertProductionReady(env)).toThrow(/DOLYAMI_PROVIDER/);
    expect(() => assertProductionReady(env)).not.toThrow(/CLOUDPAYMENTS_PROVIDER/);
  });
});

describe('PGLITE_SHARED_BUFFERS', () => {
  it('defaults to 32MB and takes a size with its unit', () => {
    expect(loadEnv({ ...base, NODE_ENV: 'test' }).PGLITE_SHARED_BUFFERS).toBe('32MB');
    expect(loadEnv({ ...base, NODE_ENV: 'test', PGLITE_SHARED_BUFFERS: '128MB' }).PGLITE_SHARED_BUFFERS).toBe('128MB');
  });

  it('refuses a value Postgres would not take, naming the variable', () => {
    for (const bad of ['32', '32mb', '0MB', '-1MB', '32 MB', '1TB'])
      expect(() => loadEnv({ ...base, NODE_ENV: 'test', PGLITE_SHARED_BUFFERS: bad })).toThrow(/PGLITE_SHARED_BUFFERS/);
  });
});
