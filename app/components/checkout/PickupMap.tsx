import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type * as Leaflet from 'leaflet';
import type { PickupPoint } from '~/shared/contract';
import type { MapTiles } from '~/shared/context';

// The map view of the pickup-point modal. Leaflet and its stylesheet are fetched only when this
// view is first shown, in the browser: they add nothing to any page's first load. Markers are
// plain DOM buttons (divIcon), so they work by keyboard and even when the tiles cannot load.
// The tiles come from the configured provider (PUBLIC_MAP_TILE_*, docs/map-tiles.md).

type LeafletModule = typeof Leaflet;

/** Where the map starts before it fits the points: the shop's home city. */
const MOSCOW: Leaflet.LatLngTuple = [55.7522, 37.6156];

let leafletLoading: Promise<LeafletModule> | null = null;

/** One download per visit; a failed one may be retried by opening the map again. */
function loadLeaflet(): Promise<LeafletModule> {
  leafletLoading ??= Promise.all([import('leaflet'), import('leaflet/dist/leaflet.css')])
    .then(([mod]) => {
      // Leaflet ships CommonJS: depending on the bundler's interop the API sits on `default`.
      const withDefault = mod as LeafletModule & { default?: LeafletModule };
      return withDefault.default ?? mod;
    })
    .catch((error: unknown) => {
      leafletLoading = null;
      throw error;
    });
  return leafletLoading;
}

export interface PickupMapProps {
  tiles: MapTiles;
  /** The points to show (already filtered by the search). */
  points: readonly PickupPoint[];
  selectedCode: string | null;
  /** Whether the map is on screen: a hidden Leaflet map cannot measure itself. */
  active: boolean;
  onOpen(point: PickupPoint): void;
  /** Shown under a short message when Leaflet cannot be loaded. */
  fallback: React.ReactNode;
}

interface LiveMap {
  L: LeafletModule;
  map: Leaflet.Map;
  markers: Leaflet.LayerGroup;
}

export function PickupMap({ tiles, points, selectedCode, active, onOpen, fallback }: PickupMapProps) {
  const canvas = useRef<HTMLDivElement>(null);
  const [live, setLive] = useState<LiveMap | null>(null);
  const [failed, setFailed] = useState(false);
  // The view fits the points once they change, but only while the map can measure itself.
  const fitPending = useRef(true);
  const openPoint = useEffectEvent((point: PickupPoint) => onOpen(point));

  useEffect(() => {
    let cancelled = false;
    let created: Leaflet.Map | null = null;
    loadLeaflet().then(
      (L) => {
        const element = canvas.current;
        if (cancelled || !element) return;
        const map = L.map(element, { zoomControl: false, center: MOSCOW, zoom: 10, crs: L.CRS[tiles.crs] });
        L.control.zoom({ zoomInTitle: 'Приблизить', zoomOutTitle: 'Отдалить' }).addTo(map);
        map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
        L.tileLayer(tiles.url, {
          attribution: tiles.attribution,
          subdomains: tiles.subdomains,
          maxZoom: tiles.maxZoom,
        }).addTo(map);
        const markers = L.layerGroup().addTo(map);
        created = map;
        setLive({ L, map, markers });
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      created?.remove();
    };
    // Once: the source is the server's setting and does not change during a visit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!live) return;
    const { L, map, markers } = live;
    markers.clearLayers();
    for (const point of points) {
      const selected = point.code === selectedCode;
      const marker = L.marker([point.location.latitude, point.location.longitude], {
        icon: markerIcon(L, point, selected),
        // The focusable element is the button inside the icon, not Leaflet's wrapper.
        keyboard: false,
        zIndexOffset: selected ? 1000 : 0,
        riseOnHover: true,
      });
      // A click on the inner button (mouse, Enter or Space) bubbles to the marker.
      marker.on('click', () => openPoint(point));
      markers.addLayer(marker);
      // Tabbing to a marker outside the view brings it into view.
      marker.getElement()?.addEventListener('focusin', () => map.panInside(marker.getLatLng(), { padding: [40, 40] }));
    }
    fitPending.current = true;
  }, [live, points, selectedCode]);

  useEffect(() => {
    if (!live || !active) return;
    live.map.invalidateSize();
    if (!fitPending.current) return;
    fitPending.current = false;
    if (points.length === 0) return;
    const bounds = live.L.latLngBounds(
      points.map((p): Leaflet.LatLngTuple => [p.location.latitude, p.location.longitude]),
    );
    live.map.fitBounds(bounds, { padding: [32, 32], maxZoom: 15, animate: false });
  }, [live, active, points]);

  if (failed) {
    return (
      <div className="pickup-map pickup-map--failed">
        <p className="pickup-map__note">Не удалось загрузить карту. Выберите пункт выдачи из списка.</p>
        {fallback}
      </div>
    );
  }

  return (
    <div className="pickup-map">
      {/* Leaflet owns the canvas's children; React keeps to the siblings. */}
      <div
        className="pickup-map__canvas"
        ref={canvas}
        role="region"
        aria-label="Карта пунктов выдачи"
        aria-busy={live === null}
      />
      {live === null ? <p className="pickup-map__loading">Загружаем карту…</p> : null}
    </div>
  );
}

/** A round pin: a real <button> named after the point, so it can be tabbed to and clicked. */
function markerIcon(L: LeafletModule, point: PickupPoint, selected: boolean): Leaflet.DivIcon {
  const button = document.createElement('button');
  const label = `${point.name}, ${point.location.address}${selected ? ' (выбранный пункт)' : ''}`;
  button.type = 'button';
  button.className = 'pickup-marker__button';
  button.title = label;
  button.setAttribute('aria-label', label);
  button.dataset.pickupCode = point.code;
  return L.divIcon({
    html: button,
    className: selected ? 'pickup-marker pickup-marker--selected' : 'pickup-marker',
    iconSize: [32, 32],
    iconAnchor: [16, 16],
  });
}
