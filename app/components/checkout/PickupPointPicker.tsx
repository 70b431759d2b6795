import { useDeferredValue, useId, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { pluralRu } from '~/core/plural';
import type { PickupPoint } from '~/shared/contract';
import type { MapTiles } from '~/shared/context';
import { ChevronIcon } from '~/app/ui/icons';
import { telHref } from '~/app/lib/shop-info';
import { PickupMap } from './PickupMap';

// SPEC §4 Pickup selection and §5 (pickup list search): the content of the pickup-point modal
// (opened through app/ui/ModalHost.tsx, see PickupPointModal.tsx). List and map show the same
// filtered points; choosing one shows its details with 'Выбрать пункт выдачи'.

export const NOTHING_FOUND = 'Ничего не найдено';
export const CHOOSE_LABEL = 'Выбрать пункт выдачи';

export interface PickupPointPickerProps {
  /** The city's pickup points (DeliveryMethod.PVZS of method '139'). */
  points: readonly PickupPoint[];
  /** The point chosen earlier in the form, marked in the list and on the map. */
  selectedCode: string | null;
  cityName: string;
  /** The map's tile source (PUBLIC_MAP_TILE_*); null: no map view, the list alone. */
  tiles: MapTiles | null;
  onChoose(point: PickupPoint): void;
}

type View = 'list' | 'map';

/** Lower case, 'ё' as 'е', single spaces: shoppers type 'Семеновская' for 'Семёновская'. */
export function normalizeAddress(text: string): string {
  return text.toLocaleLowerCase('ru-RU').replace(/ё/g, 'е').replace(/\s+/g, ' ').trim();
}

/**
 * The points whose full address contains every word of the query (SPEC §5: by full address,
 * case-insensitive). Words in any order, so 'тверская 12' finds 'ул. Тверская, 12'.
 */
export function filterPickupPoints(points: readonly PickupPoint[], query: string): readonly PickupPoint[] {
  const words = normalizeAddress(query).split(' ').filter(Boolean);
  if (words.length === 0) return points;
  return points.filter((point) => {
    const address = normalizeAddress(point.location.address_full);
    return words.every((word) => address.includes(word));
  });
}

export function pickupTypeLabel(point: PickupPoint): string {
  return point.type === 'POSTAMAT' ? 'Постамат' : 'Пункт выдачи';
}

function pointsCount(n: number): string {
  return `${n} ${pluralRu(n, 'пункт', 'пункта', 'пунктов')}`;
}

export function PickupPointPicker({ points, selectedCode, cityName, tiles, onChoose }: PickupPointPickerProps) {
  const searchId = useId();
  const [view, setView] = useState<View>('list');
  // The map (and Leaflet) loads the first time its view is shown, then stays mounted so its
  // zoom and position survive switching views and opening a point.
  const [mapMounted, setMapMounted] = useState(false);
  const [query, setQuery] = useState('');
  const [opened, setOpened] = useState<{ code: string; from: View } | null>(null);
  // Moscow has over a thousand points: typing stays responsive while the list catches up.
  const deferredQuery = useDeferredValue(query);
  const found = useMemo(() => filterPickupPoints(points, deferredQuery), [points, deferredQuery]);
  const listView = useRef<HTMLDivElement>(null);
  const mapView = useRef<HTMLDivElement>(null);
  const detailsHeading = useRef<HTMLHeadingElement>(null);

  const openedPoint = opened ? (points.find((p) => p.code === opened.code) ?? null) : null;

  function showView(next: View) {
    setView(next);
    if (next === 'map') setMapMounted(true);
  }

  function openPoint(point: PickupPoint, from: View) {
    // Rendered now, so focus can move to the details for keyboard and screen-reader users.
    flushSync(() => setOpened({ code: point.code, from }));
    detailsHeading.current?.focus();
  }

  function back() {
    if (!opened) return;
    const { code, from } = opened;
    flushSync(() => setOpened(null));
    // Focus returns to the point the shopper came from (its list line or its marker).
    const container = from === 'map' ? mapView.current : listView.current;
    const origin = container?.querySelector<HTMLElement>(`[data-pickup-code="${CSS.escape(code)}"]`);
    (origin ?? container)?.focus({ preventScroll: from === 'map' });
  }

  const status =
    points.length === 0
      ? `В городе ${cityName} нет пунктов выдачи СДЭК`
      : found.length === 0
        ? NOTHING_FOUND
        : deferredQuery.trim()
          ? `Найдено: ${pointsCount(found.length)}`
          : '';

  return (
    <div className="pickup">
      <div className="pickup__main" hidden={openedPoint !== null}>
        <p className="pickup__lead">
          {cityName}: {pointsCount(points.length)} СДЭК
        </p>
        <div className="pickup__tools">
          <label className="visually-hidden" htmlFor={searchId}>
            Поиск по адресу
          </label>
          <input
            id={searchId}
            className="field__input pickup__search"
            type="search"
            placeholder="Поиск по адресу"
            autoComplete="off"
            enterKeyHint="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          {tiles ? (
            <div className="pickup__tabs" role="group" aria-label="Как показать пункты">
              <button
                type="button"
                className="pickup__tab"
                aria-pressed={view === 'list'}
                onClick={() => showView('list')}
              >
                Списком
              </button>
              <button
                type="button"
                className="pickup__tab"
                aria-pressed={view === 'map'}
                onClick={() => showView('map')}
              >
                На карте
              </button>
            </div>
          ) : null}
        </div>
        {/* One live region: the count while searching, 'Ничего не найдено' when nothing matches. */}
        <p className="pickup__status" role="status">
          {status}
        </p>
        <div className="pickup__view" hidden={view !== 'list'} ref={listView} tabIndex={-1}>
          <PickupPointList points={found} selectedCode={selectedCode} onOpen={(point) => openPoint(point, 'list')} />
        </div>
        {mapMounted && tiles ? (
          <div className="pickup__view" hidden={view !== 'map'} ref={mapView} tabIndex={-1}>
            <PickupMap
              tiles={tiles}
              points={found}
              selectedCode={selectedCode}
              active={view === 'map' && openedPoint === null}
              onOpen={(point) => openPoint(point, 'map')}
              fallback={
                <PickupPointList
                  points={found}
                  selectedCode={selectedCode}
                  onOpen={(point) => openPoint(point, 'map')}
                />
              }
            />
          </div>
        ) : null}
      </div>
      {openedPoint ? (
        <PickupPointDetails
          point={openedPoint}
          selected={openedPoint.code === selectedCode}
          backLabel={opened?.from === 'map' ? 'Назад к карте' : 'Назад к списку'}
          headingRef={detailsHeading}
          onBack={back}
          onChoose={() => onChoose(openedPoint)}
        />
      ) : null}
    </div>
  );
}

/** One button per point; an empty list renders nothing (the picker's status says why). */
export function PickupPointList({
  points,
  selectedCode,
  onOpen,
}: {
  points: readonly PickupPoint[];
  selectedCode: string | null;
  onOpen(point: PickupPoint): void;
}) {
  if (points.length === 0) return null;
  return (
    <ul className="pickup__list" aria-label="Пункты выдачи">
      {points.map((point) => {
        const selected = point.code === selectedCode;
        return (
          <li key={point.code}>
            <button
              type="button"
              className={selected ? 'pickup-item pickup-item--selected' : 'pickup-item'}
              data-pickup-code={point.code}
              aria-current={selected ? 'true' : undefined}
              onClick={() => onOpen(point)}
            >
              <span className="pickup-item__name">{point.name}</span>
              <span className="pickup-item__address">{point.location.address_small}</span>
              {point.nearest_metro_station ? (
                <span className="pickup-item__meta">м. {point.nearest_metro_station}</span>
              ) : null}
              <span className="pickup-item__meta">{point.work_time}</span>
              <span className="pickup-item__tags">
                <span className="pickup-item__tag">{pickupTypeLabel(point)}</span>
                {point.is_dressing_room ? <span className="pickup-item__tag">Есть примерочная</span> : null}
                {selected ? <span className="pickup-item__tag pickup-item__tag--selected">Выбран</span> : null}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function PickupPointDetails({
  point,
  selected,
  backLabel,
  headingRef,
  onBack,
  onChoose,
}: {
  point: PickupPoint;
  selected: boolean;
  backLabel: string;
  headingRef?: React.Ref<HTMLHeadingElement>;
  onBack(): void;
  onChoose(): void;
}) {
  const headingId = useId();
  return (
    <section className="pickup-details" aria-labelledby={headingId}>
      <div className="pickup-details__head">
        <button type="button" className="icon-button pickup-details__back" aria-label={backLabel} onClick={onBack}>
          <ChevronIcon />
        </button>
        <h2 className="pickup-details__title" id={headingId} tabIndex={-1} ref={headingRef}>
          {point.name}
        </h2>
      </div>
      <p className="pickup-details__type">
        {pickupTypeLabel(point)} СДЭК{selected ? ' · выбран сейчас' : ''}
      </p>
      <dl className="pickup-details__facts">
        <dt>Адрес</dt>
        <dd>{point.location.address_full}</dd>
        <dt>Время работы</dt>
        <dd>{point.work_time}</dd>
        {point.address_comment ? (
          <>
            <dt>Как найти</dt>
            <dd>{point.address_comment}</dd>
          </>
        ) : null}
        {point.nearest_metro_station ? (
          <>
            <dt>Метро</dt>
            <dd>{point.nearest_metro_station}</dd>
          </>
        ) : null}
        {point.phones.length > 0 ? (
          <>
            <dt>{point.phones.length > 1 ? 'Телефоны' : 'Телефон'}</dt>
            <dd>
              {point.phones.map((phone) => (
                <a key={phone} className="pickup-details__phone" href={telHref(phone)}>
                  {phone}
                </a>
              ))}
            </dd>
          </>
        ) : null}
        <dt>Примерочная</dt>
        <dd>{point.is_dressing_room ? 'Есть примерочная' : 'Нет'}</dd>
      </dl>
      <button type="button" className="button pickup-details__choose" onClick={onChoose}>
        {CHOOSE_LABEL}
      </button>
    </section>
  );
}
