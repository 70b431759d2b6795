import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { PickupPoint } from '~/shared/contract';
import type { MapTiles } from '~/shared/context';
import { OSM_DEV_TILES } from '~/core/map-tiles';
import {
  filterPickupPoints,
  NOTHING_FOUND,
  PickupPointDetails,
  PickupPointList,
  PickupPointPicker,
} from './PickupPointPicker';

function point(
  code: string,
  overrides: Partial<Omit<PickupPoint, 'location'>> & { address: string; address_full: string },
): PickupPoint {
  const { address, address_full, ...rest } = overrides;
  return {
    code,
    name: `ПВЗ ${code}`,
    type: 'PVZ',
    work_time: 'Пн-Пт 10:00-20:00, Сб-Вс 10:00-18:00',
    address_comment: '',
    nearest_metro_station: null,
    is_dressing_room: false,
    phones: [],
    ...rest,
    location: {
      city: 'Москва',
      city_code: 44,
      postal_code: '101000',
      address,
      address_full,
      address_small: `Москва, ${address}`,
      latitude: 55.75,
      longitude: 37.61,
    },
  };
}

const TVERSKAYA = point('MSK1', {
  name: 'На Тверской',
  address: 'ул. Тверская, 12',
  address_full: 'Россия, Москва, 125009, ул. Тверская, 12',
  nearest_metro_station: 'Пушкинская',
  is_dressing_room: true,
  address_comment: 'Вход со двора',
  phones: ['+7 (495) 123-45-67'],
});
const SEMYONOVSKAYA = point('MSK2', {
  name: 'Семёновская',
  type: 'POSTAMAT',
  address: 'Семёновская пл., 1',
  address_full: 'Россия, Москва, 107023, Семёновская пл., 1',
});
const LENINA = point('MSK3', { address: 'пр. Ленина, 5', address_full: 'Россия, Москва, 115000, пр. ЛЕНИНА, 5' });
const POINTS = [TVERSKAYA, SEMYONOVSKAYA, LENINA];

const codes = (points: readonly PickupPoint[]) => points.map((p) => p.code);

describe('filterPickupPoints', () => {
  it('returns every point for an empty or blank query', () => {
    expect(filterPickupPoints(POINTS, '')).toBe(POINTS);
    expect(filterPickupPoints(POINTS, '   ')).toBe(POINTS);
  });

  it('matches the full address whatever the case', () => {
    expect(codes(filterPickupPoints(POINTS, 'тверская'))).toEqual(['MSK1']);
    expect(codes(filterPickupPoints(POINTS, 'ТВЕРСКАЯ'))).toEqual(['MSK1']);
    expect(codes(filterPickupPoints(POINTS, 'ленина'))).toEqual(['MSK3']);
    // The postal code is part of the full address, not of the short one.
    expect(codes(filterPickupPoints(POINTS, '107023'))).toEqual(['MSK2']);
    expect(codes(filterPickupPoints(POINTS, 'москва'))).toEqual(['MSK1', 'MSK2', 'MSK3']);
  });

  it('treats ё and е as the same letter, both ways', () => {
    expect(codes(filterPickupPoints(POINTS, 'семеновская'))).toEqual(['MSK2']);
    expect(codes(filterPickupPoints(POINTS, 'СЕМЁНОВСКАЯ'))).toEqual(['MSK2']);
    const plain = point('X', { address: 'ул. Семеновская', address_full: 'Россия, Москва, ул. Семеновская' });
    expect(codes(filterPickupPoints([plain], 'семёновская'))).toEqual(['X']);
  });

  it('needs every word, in any order', () => {
    expect(codes(filterPickupPoints(POINTS, 'тверская 12'))).toEqual(['MSK1']);
    expect(codes(filterPickupPoints(POINTS, '12   тверская'))).toEqual(['MSK1']);
    expect(filterPickupPoints(POINTS, 'тверская 99')).toEqual([]);
  });

  it('does not search the name or the metro', () => {
    expect(filterPickupPoints(POINTS, 'Пушкинская')).toEqual([]);
    expect(filterPickupPoints(POINTS, 'ПВЗ')).toEqual([]);
  });
});

describe('PickupPointPicker', () => {
  const render = (
    selectedCode: string | null = null,
    points: readonly PickupPoint[] = POINTS,
    tiles: MapTiles | null = OSM_DEV_TILES,
  ) =>
    renderToStaticMarkup(
      <PickupPointPicker
        points={points}
        selectedCode={selectedCode}
        cityName="Москва"
        tiles={tiles}
        onChoose={() => {}}
      />,
    );

  it('shows the search, the two views and one button per point', () => {
    const html = render();
    expect(html).toContain('placeholder="Поиск по адресу"');
    expect(html).toContain('>Списком</button>');
    expect(html).toContain('>На карте</button>');
    expect(html).toContain('Москва: 3 пункта СДЭК');
    expect(html.match(/data-pickup-code=/g)).toHaveLength(3);
    // The list is the first view; the map (and Leaflet) waits until it is asked for.
    expect(html).toContain('aria-pressed="true">Списком');
    expect(html).not.toContain('pickup-map');
  });

  it('without a tile source (production with no PUBLIC_MAP_TILE_URL) shows the list alone, no map view', () => {
    const html = render(null, POINTS, null);
    expect(html).not.toContain('На карте');
    expect(html).not.toContain('Списком');
    expect(html.match(/data-pickup-code=/g)).toHaveLength(3);
  });

  it('describes each point: name, short address, hours, metro, type and fitting room', () => {
    const html = render();
    expect(html).toContain('На Тверской');
    expect(html).toContain('Москва, ул. Тверская, 12');
    expect(html).toContain('м. Пушкинская');
    expect(html).toContain('Пн-Пт 10:00-20:00, Сб-Вс 10:00-18:00');
    expect(html.split('>Пункт выдачи<')).toHaveLength(3); // two PVZ
    expect(html.split('>Постамат<')).toHaveLength(2);
    expect(html.split('Есть примерочная')).toHaveLength(2); // only Tverskaya
  });

  it('marks the point chosen earlier', () => {
    const html = render('MSK2');
    expect(html).toMatch(/data-pickup-code="MSK2" aria-current="true"/);
    expect(html.split('aria-current="true"')).toHaveLength(2);
    expect(html).toContain('>Выбран<');
    expect(render()).not.toContain('>Выбран<');
  });

  it('says when the city has no pickup points', () => {
    expect(render(null, [])).toContain('В городе Москва нет пунктов выдачи СДЭК');
  });
});

describe('PickupPointList', () => {
  it('renders nothing for no points (the picker then says Ничего не найдено)', () => {
    expect(renderToStaticMarkup(<PickupPointList points={[]} selectedCode={null} onOpen={() => {}} />)).toBe('');
    expect(NOTHING_FOUND).toBe('Ничего не найдено');
  });
});

describe('PickupPointDetails', () => {
  it('shows the full address, hours, directions, phones, metro and the confirm button', () => {
    const html = renderToStaticMarkup(
      <PickupPointDetails
        point={TVERSKAYA}
        selected={false}
        backLabel="Назад к списку"
        onBack={() => {}}
        onChoose={() => {}}
      />,
    );
    expect(html).toContain('aria-label="Назад к списку"');
    expect(html).toContain('Россия, Москва, 125009, ул. Тверская, 12');
    expect(html).toContain('Вход со двора');
    expect(html).toContain('href="tel:+74951234567"');
    expect(html).toContain('Пушкинская');
    expect(html).toContain('Есть примерочная');
    expect(html).toContain('>Выбрать пункт выдачи</button>');
  });
});
