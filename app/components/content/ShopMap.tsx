import type { ReactNode } from 'react';
import type { Shop } from '~/app/lib/shop-info';

// A drawn schematic of the way from the metro to a shop: no map tiles, no scripts, nothing
// that can fail to load. The real map is one link away (Yandex Maps, new tab).

export function yandexMapsUrl(shop: Shop): string {
  return `https://yandex.ru/maps/?text=${encodeURIComponent(`${shop.city}, ${shop.address}`)}`;
}

export function ShopMap({ shop }: { shop: Shop }) {
  const plan = PLANS[shop.city] ?? genericPlan;
  return (
    <figure className="shop-map">
      <svg
        className="shop-map__plan"
        viewBox="0 0 480 320"
        role="img"
        aria-label={`Схема проезда: ${shop.city}, ${shop.address}, от метро «${shop.metro}»`}
        preserveAspectRatio="xMidYMid slice"
      >
        <rect width="480" height="320" className="map-ground" />
        {plan(shop)}
      </svg>
      <figcaption className="shop-map__caption">
        <span className="shop-map__address">
          {shop.city}, {shop.address}
        </span>
        <span className="shop-map__metro">м. «{shop.metro}»</span>
        <a className="shop-map__link" href={yandexMapsUrl(shop)} target="_blank" rel="noopener noreferrer">
          Открыть в Яндекс Картах<span className="visually-hidden"> ({shop.city}, в новой вкладке)</span>
        </a>
      </figcaption>
    </figure>
  );
}

function Label({ x, y, children, rotate, anchor = 'start', className = 'map-label' }: { x: number; y: number; children: ReactNode; rotate?: number; anchor?: 'start' | 'middle' | 'end'; className?: string }) {
  return (
    <text x={x} y={y} className={className} textAnchor={anchor} transform={rotate ? `rotate(${rotate} ${x} ${y})` : undefined}>
      {children}
    </text>
  );
}

function Metro({ x, y, name, color, labelX, labelY, anchor = 'start' }: { x: number; y: number; name: string; color: string; labelX: number; labelY: number; anchor?: 'start' | 'end' }) {
  return (
    <g>
      <circle cx={x} cy={y} r="11" fill={color} stroke="#fff" strokeWidth="2.5" />
      <text x={x} y={y + 4.5} className="map-metro-letter" textAnchor="middle">
        М
      </text>
      <Label x={labelX} y={labelY} anchor={anchor} className="map-label map-label--strong">
        {name}
      </Label>
    </g>
  );
}

function Pin({ x, y, label, labelSide = 'right' }: { x: number; y: number; label: string; labelSide?: 'left' | 'right' }) {
  return (
    <g>
      <path d={`M${x} ${y} c-3-9-13-14-13-25a13 13 0 1 1 26 0c0 11-10 16-13 25z`} className="map-pin" />
      <circle cx={x} cy={y - 25} r="5" fill="#fff" />
      <Label x={labelSide === 'right' ? x + 18 : x - 18} y={y - 20} anchor={labelSide === 'right' ? 'start' : 'end'} className="map-label map-label--shop">
        {label}
      </Label>
    </g>
  );
}

function Blocks({ rects }: { rects: ReadonlyArray<readonly [number, number, number, number]> }) {
  return (
    <g className="map-block">
      {rects.map(([x, y, w, h]) => (
        <rect key={`${x}-${y}`} x={x} y={y} width={w} height={h} rx="3" />
      ))}
    </g>
  );
}

const PLANS: Record<string, (shop: Shop) => ReactNode> = {
  // Patriarch's Ponds: from Mayakovskaya along Bolshaya Sadovaya, down Yermolayevsky Lane, round the pond.
  Москва: (shop) => (
    <>
      <Blocks
        rects={[
          [18, 82, 150, 44],
          [228, 80, 96, 70],
          [18, 150, 80, 150],
          [272, 168, 60, 130],
          [352, 90, 40, 70],
          [120, 248, 130, 60],
        ]}
      />
      <rect x="118" y="140" width="118" height="78" rx="10" className="map-park" />
      <rect x="138" y="155" width="78" height="48" rx="8" className="map-water" />
      <path d="M0 62 L480 48" className="map-road map-road--major" />
      <path d="M352 0 L480 250" className="map-road map-road--major" />
      <path d="M206 58 L206 140" className="map-road" />
      <path d="M104 136 L104 320" className="map-road" />
      <path d="M104 232 L262 232 L262 320" className="map-road" />
      <path d="M344 66 L344 320" className="map-road" />
      <path d="M385 58 L206 58 L206 232 L246 232" className="map-route" />
      <Label x={24} y={52}>
        Б. Садовая ул.
      </Label>
      <Label x={432} y={168} rotate={63}>
        Тверская ул.
      </Label>
      <Label x={177} y={184} anchor="middle" className="map-label map-label--water">
        Патриаршие
      </Label>
      <Label x={177} y={197} anchor="middle" className="map-label map-label--water">
        пруды
      </Label>
      <Label x={140} y={252}>
        М. Бронная ул.
      </Label>
      <Label x={352} y={314} rotate={-90}>
        Б. Бронная
      </Label>
      <Metro x={392} y={56} name={shop.metro} color="#a1281e" labelX={376} labelY={88} anchor="end" />
      <Pin x={246} y={232} label="Vitrina" />
    </>
  ),
  // Nevsky Prospekt: west along Nevsky from the Griboyedov Canal, right into Bolshaya Konyushennaya.
  'Санкт-Петербург': (shop) => (
    <>
      <Blocks
        rects={[
          [150, 20, 76, 160],
          [282, 20, 60, 70],
          [282, 110, 60, 70],
          [150, 232, 120, 80],
          [300, 232, 50, 80],
          [20, 20, 70, 150],
        ]}
      />
      <path d="M118 0 C132 80 100 150 122 210 C138 260 112 300 120 320" className="map-river" />
      <path d="M392 0 C372 70 410 140 384 205 C366 250 402 290 392 320" className="map-river map-river--canal" />
      <path d="M0 214 L480 200" className="map-road map-road--major" />
      <path d="M254 0 L254 207" className="map-road" />
      <path d="M0 60 L480 60" className="map-road map-road--minor" />
      <path d="M366 203 L254 206 L254 104" className="map-route" />
      <Label x={16} y={240}>
        Невский пр.
      </Label>
      <Label x={246} y={150} rotate={-90} anchor="middle">
        Б. Конюшенная ул.
      </Label>
      <Label x={100} y={170} rotate={-82} className="map-label map-label--water">
        р. Мойка
      </Label>
      <Label x={418} y={180} rotate={-82} className="map-label map-label--water">
        кан. Грибоедова
      </Label>
      <Metro x={372} y={226} name={shop.metro} color="#1f5aa6" labelX={356} labelY={262} anchor="end" />
      <Pin x={262} y={104} label="Vitrina" />
    </>
  ),
};

function genericPlan(shop: Shop): ReactNode {
  return (
    <>
      <Blocks
        rects={[
          [20, 20, 180, 110],
          [260, 20, 200, 110],
          [20, 190, 180, 110],
          [260, 190, 200, 110],
        ]}
      />
      <path d="M0 160 L480 160" className="map-road map-road--major" />
      <path d="M230 0 L230 320" className="map-road" />
      <Metro x={120} y={160} name={shop.metro} color="#151515" labelX={120} labelY={190} />
      <path d="M132 160 L300 160" className="map-route" />
      <Pin x={300} y={160} label="Vitrina" />
    </>
  );
}
