/**
 * Demo catalogue generator: a deterministic, framework-free source of a believable
 * Russian-language catalogue for the designer clothing brand (SPEC §2, §3, §9).
 *
 * Pure data: no database, no I/O. The database seed maps `SECTIONS` and the products
 * into tables, the photo renderer draws pictures from `kind`, `colorHex` and `photoCount`.
 *
 * Determinism: everything is derived from a small seeded PRNG (mulberry32). Each model
 * (a garment with 1–3 colour variants) gets its own PRNG derived from (seed, cycle, model),
 * so product N never depends on how many products were requested:
 * `generateCatalog({ products: n })` equals the first n items of `generateProducts`.
 *
 * Layout: products come in "cycles". Cycle 0 holds exactly DEFAULT_PRODUCTS (180)
 * products with fixed per-section quotas (every section covered, gift cards once);
 * later cycles repeat the clothing quotas without gift cards. Slugs that repeat get a
 * numeric suffix (`-2`, `-3`, …) so they stay unique at any size.
 */
import type { GarmentKind } from '~/shared/art';
import { BRAND_PALETTE } from '~/media/palette';
import { slugify } from '~/core/slug';
import type { CertificateKind } from '~/core/gift-certificates';
import { CERTIFICATE_COLOR, CERTIFICATE_SECTION, CERTIFICATE_STOCK, certificateCopy } from './certificates';

// ---------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------

export interface SeedSection {
  code: string;
  name: string;
  url: string;
  parentCode: string | null;
  sort: number;
  kinds: GarmentKind[];
  /** Sections built from product flags instead of holding products. */
  sectionKind?: 'new' | 'sale';
}

export interface SeedOffer {
  sizeType: 'clothes' | 'shoes' | 'none';
  /** '44', '37', 'Единый' */
  size: string;
  /** 'S' for clothes, null otherwise */
  intlSize: string | null;
  quantity: number;
  preorder: boolean;
}

export interface SeedProperty {
  code: string;
  name: string;
  value: string;
  description?: string;
}

export interface SeedProduct {
  index: number;
  slug: string;
  name: string;
  description: string;
  sectionCode: string;
  kind: GarmentKind;
  colorName: string;
  colorCode: string;
  colorHex: string;
  groupKey: string;
  isNew: boolean;
  popularity: number;
  createdAt: string;
  priceKopecks: number;
  oldPriceKopecks: number | null;
  properties: SeedProperty[];
  offers: SeedOffer[];
  photoCount: number;
  seoDescription: string | null;
  /** Gift certificates (products.certificate): the generator's gift slots are the electronic ones. */
  certificate: CertificateKind | null;
}

export interface SeedColor {
  name: string;
  code: string;
  hex: string;
}

// ---------------------------------------------------------------------------------------
// Transliteration
// ---------------------------------------------------------------------------------------

// core/slug.ts: the one transliteration (the back office makes addresses with it too).
export { slugify };

// ---------------------------------------------------------------------------------------
// Palette
// ---------------------------------------------------------------------------------------

/** The brand palette: Russian name, latin code (used in filter URLs) and hex. */
export const COLORS: SeedColor[] = BRAND_PALETTE.map(([name, hex]) => ({ name, code: slugify(name), hex }));

const COLOR_BY_CODE = new Map(COLORS.map((c) => [c.code, c]));
function colorByCode(code: string): SeedColor {
  const color = COLOR_BY_CODE.get(code);
  if (!color) throw new Error(`unknown colour code ${code}`);
  return color;
}

const POOL_OUTER = [
  'chernyj',
  'molochnyj',
  'bezhevyj',
  'kemel',
  'korichnevyj',
  'shokoladnyj',
  'seryj',
  'grafitovyj',
  'temno-sinij',
  'olivkovyj',
  'bordovyj',
  'pesochnyj',
];
const POOL_TRENCH = ['bezhevyj', 'pesochnyj', 'khaki', 'chernyj', 'molochnyj', 'olivkovyj', 'temno-sinij'];
const POOL_PUFFER = ['chernyj', 'molochnyj', 'grafitovyj', 'khaki', 'shokoladnyj', 'temno-sinij', 'bezhevyj'];
const POOL_KNIT = [
  'chernyj',
  'molochnyj',
  'kremovyj',
  'bezhevyj',
  'kemel',
  'seryj',
  'grafitovyj',
  'temno-sinij',
  'bordovyj',
  'pudrovyj',
  'olivkovyj',
  'lavandovyj',
  'korichnevyj',
];
const POOL_LIGHT = [
  'belyj',
  'molochnyj',
  'chernyj',
  'goluboj',
  'rozovyj',
  'pudrovyj',
  'lavandovyj',
  'izumrudnyj',
  'krasnyj',
  'bezhevyj',
  'pesochnyj',
  'temno-sinij',
];
const POOL_TAILORED = [
  'chernyj',
  'molochnyj',
  'bezhevyj',
  'seryj',
  'grafitovyj',
  'temno-sinij',
  'korichnevyj',
  'kemel',
  'bordovyj',
  'izumrudnyj',
];
const POOL_DENIM = ['indigo', 'sinij', 'goluboj', 'chernyj', 'seryj', 'belyj'];
const POOL_FUR = ['chernyj', 'molochnyj', 'bezhevyj', 'kemel', 'korichnevyj', 'shokoladnyj', 'seryj'];
const POOL_LEATHER = ['chernyj', 'korichnevyj', 'kemel', 'shokoladnyj', 'bordovyj', 'molochnyj'];
const MEN_EXCLUDED_COLORS = new Set(['rozovyj', 'pudrovyj', 'lavandovyj', 'krasnyj', 'kremovyj']);

// ---------------------------------------------------------------------------------------
// Sections
// ---------------------------------------------------------------------------------------

const WOMEN_CATEGORIES: ReadonlyArray<readonly [string, string, GarmentKind[]]> = [
  ['uteplyennye_palto', 'Утеплённые пальто', ['warm-coat']],
  ['demisezonnye_palto', 'Демисезонные пальто', ['coat']],
  ['kurtki_plashchi', 'Куртки и плащи', ['trench', 'puffer']],
  ['zhakety', 'Жакеты', ['blazer']],
  ['svitery_i_dzhempery', 'Свитеры и джемперы', ['sweater', 'cardigan']],
  ['bryuki_i_shorty', 'Брюки и шорты', ['trousers', 'shorts']],
  ['yubki', 'Юбки', ['skirt']],
  ['platya_i_kombinezony', 'Платья и комбинезоны', ['dress', 'jumpsuit']],
  ['trikotazh', 'Трикотаж', ['knit-top', 'dress', 'skirt', 'trousers']],
  ['rubashki_bluzki', 'Рубашки и блузки', ['shirt', 'blouse']],
  ['futbolki_topy', 'Футболки и топы', ['tshirt', 'top']],
  ['denim', 'Деним', ['jeans', 'denim-jacket', 'skirt', 'shirt']],
  ['shuby', 'Шубы', ['fur-coat']],
  ['aksessuar', 'Аксессуары', ['bag', 'scarf', 'hat', 'belt', 'boots', 'shoes']],
];

const MEN_KINDS: GarmentKind[] = [
  'coat',
  'warm-coat',
  'puffer',
  'blazer',
  'sweater',
  'cardigan',
  'trousers',
  'shirt',
  'tshirt',
  'jeans',
  'denim-jacket',
  'scarf',
];

function uniqueKinds(lists: GarmentKind[][]): GarmentKind[] {
  return [...new Set(lists.flat())];
}

/**
 * Catalogue tree. Top level: new collection and sale (virtual: products are flagged
 * `isNew` / have `oldPriceKopecks`, kinds []), women (kinds = union of its children),
 * men, gift cards. Under 'woman' the 14 categories of SPEC §2.
 */
export const SECTIONS: SeedSection[] = [
  {
    code: 'new-collection',
    name: 'Новая коллекция',
    url: '/catalog/new-collection/',
    parentCode: null,
    sort: 10,
    kinds: [],
    sectionKind: 'new',
  },
  {
    code: 'woman',
    name: 'Женщинам',
    url: '/catalog/woman/',
    parentCode: null,
    sort: 20,
    kinds: uniqueKinds(WOMEN_CATEGORIES.map((c) => c[2])),
  },
  ...WOMEN_CATEGORIES.map(([code, name, kinds], i): SeedSection => ({
    code,
    name,
    url: `/catalog/woman/${code}/`,
    parentCode: 'woman',
    sort: (i + 1) * 10,
    kinds: [...kinds],
  })),
  {
    code: 'muzhchinam',
    name: 'Мужчинам',
    url: '/catalog/man/muzhchinam/',
    parentCode: null,
    sort: 30,
    kinds: [...MEN_KINDS],
  },
  { code: 'promo', name: 'Sale', url: '/catalog/promo/', parentCode: null, sort: 40, kinds: [], sectionKind: 'sale' },
  {
    code: CERTIFICATE_SECTION.code,
    name: CERTIFICATE_SECTION.name,
    url: CERTIFICATE_SECTION.url,
    parentCode: null,
    sort: 50,
    kinds: ['gift-card'],
  },
];

/** Gift card denominations, RUB. */
export const GIFT_CARD_NOMINALS: readonly number[] = [5_000, 10_000, 15_000, 25_000, 50_000];

export const DEFAULT_PRODUCTS = 180;
const DEFAULT_SEED = 20260901;

/** Products per section in one cycle (cycle 0 adds the 5 gift cards: 175 + 5 = 180). */
const QUOTAS: ReadonlyArray<readonly [string, number]> = [
  ['uteplyennye_palto', 12],
  ['demisezonnye_palto', 12],
  ['kurtki_plashchi', 12],
  ['zhakety', 11],
  ['svitery_i_dzhempery', 11],
  ['bryuki_i_shorty', 12],
  ['yubki', 9],
  ['platya_i_kombinezony', 14],
  ['trikotazh', 10],
  ['rubashki_bluzki', 11],
  ['futbolki_topy', 10],
  ['denim', 12],
  ['shuby', 8],
  ['aksessuar', 15],
  ['muzhchinam', 16],
];

// ---------------------------------------------------------------------------------------
// PRNG
// ---------------------------------------------------------------------------------------

function mix(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
  }
  return h >>> 0;
}

class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  /** mulberry32: uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max], inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }
  weighted<T>(items: ReadonlyArray<{ w: number; v: T }>): T {
    let total = 0;
    for (const it of items) total += it.w;
    let r = this.next() * total;
    for (const it of items) {
      r -= it.w;
      if (r < 0) return it.v;
    }
    return this.pick(items).v;
  }
  /** k distinct items (k ≤ items.length). */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = [...items];
    this.shuffle(copy);
    return copy.slice(0, Math.min(k, copy.length));
  }
  shuffle<T>(items: T[]): void {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
  }
}

// ---------------------------------------------------------------------------------------
// Vocabulary: adjectives, cuts, details, fabrics
// ---------------------------------------------------------------------------------------

type Gender = 'm' | 'f' | 'n' | 'p';
const GENDER_INDEX: Record<Gender, number> = { m: 0, f: 1, n: 2, p: 3 };
/** Conflict groups: a name never combines two modifiers of the same group. */
type Slot = 'len' | 'fit' | 'style' | 'texture' | 'rise' | 'pattern' | 'size' | 'season' | 'other';

const ADJ = {
  dvubort: { forms: ['Двубортный', 'Двубортная', 'Двубортное', 'Двубортные'], slot: 'style' },
  odnobort: { forms: ['Однобортный', 'Однобортная', 'Однобортное', 'Однобортные'], slot: 'style' },
  klassich: { forms: ['Классический', 'Классическая', 'Классическое', 'Классические'], slot: 'style' },
  bazov: { forms: ['Базовый', 'Базовая', 'Базовое', 'Базовые'], slot: 'style' },
  asimm: { forms: ['Асимметричный', 'Асимметричная', 'Асимметричное', 'Асимметричные'], slot: 'style' },
  ukoroch: { forms: ['Укороченный', 'Укороченная', 'Укороченное', 'Укороченные'], slot: 'len' },
  udlinen: { forms: ['Удлинённый', 'Удлинённая', 'Удлинённое', 'Удлинённые'], slot: 'len' },
  dlinn: { forms: ['Длинный', 'Длинная', 'Длинное', 'Длинные'], slot: 'len' },
  vysok: { forms: ['Высокий', 'Высокая', 'Высокое', 'Высокие'], slot: 'len' },
  utepl: { forms: ['Утеплённый', 'Утеплённая', 'Утеплённое', 'Утеплённые'], slot: 'season' },
  zimn: { forms: ['Зимний', 'Зимняя', 'Зимнее', 'Зимние'], slot: 'season' },
  stegan: { forms: ['Стёганый', 'Стёганая', 'Стёганое', 'Стёганые'], slot: 'texture' },
  puhov: { forms: ['Пуховый', 'Пуховая', 'Пуховое', 'Пуховые'], slot: 'season' },
  vyazan: { forms: ['Вязаный', 'Вязаная', 'Вязаное', 'Вязаные'], slot: 'texture' },
  trikotazh: { forms: ['Трикотажный', 'Трикотажная', 'Трикотажное', 'Трикотажные'], slot: 'texture' },
  plissir: { forms: ['Плиссированный', 'Плиссированная', 'Плиссированное', 'Плиссированные'], slot: 'texture' },
  obyomn: { forms: ['Объёмный', 'Объёмная', 'Объёмное', 'Объёмные'], slot: 'fit' },
  shirok: { forms: ['Широкий', 'Широкая', 'Широкое', 'Широкие'], slot: 'fit' },
  pryam: { forms: ['Прямой', 'Прямая', 'Прямое', 'Прямые'], slot: 'fit' },
  uzk: { forms: ['Узкий', 'Узкая', 'Узкое', 'Узкие'], slot: 'fit' },
  dzhins: { forms: ['Джинсовый', 'Джинсовая', 'Джинсовое', 'Джинсовые'], slot: 'other' },
  bolsh: { forms: ['Большой', 'Большая', 'Большое', 'Большие'], slot: 'size' },
  mal: { forms: ['Маленький', 'Маленькая', 'Маленькое', 'Маленькие'], slot: 'size' },
} as const satisfies Record<string, { forms: readonly [string, string, string, string]; slot: Slot }>;
type AdjKey = keyof typeof ADJ;

const CUT = {
  oversize: {
    text: 'оверсайз',
    slot: 'fit',
    story: 'Крой оверсайз с опущенной линией плеча оставляет место для многослойных образов',
    silhouette: 'Оверсайз',
  },
  pryamoj: {
    text: 'прямого кроя',
    slot: 'fit',
    story: 'Прямой крой не сковывает движений и подходит для любого типа фигуры',
    silhouette: 'Прямой',
  },
  svobodnyj: {
    text: 'свободного кроя',
    slot: 'fit',
    story: 'Свободный крой делает модель удобной на каждый день',
    silhouette: 'Свободный',
  },
  pritalen: {
    text: 'приталенного силуэта',
    slot: 'fit',
    story: 'Приталенный силуэт деликатно подчёркивает талию',
    silhouette: 'Приталенный',
  },
  flare: {
    text: 'клёш',
    slot: 'fit',
    story: 'Расклешённый низ визуально удлиняет ноги, особенно в паре с обувью на каблуке',
    silhouette: 'Клёш',
  },
  asil: {
    text: 'А-силуэта',
    slot: 'fit',
    story: 'А-силуэт мягко расширяется книзу и скрывает линию бёдер',
    silhouette: 'А-силуэт',
  },
  midi: {
    text: 'миди',
    slot: 'len',
    story: 'Длина миди универсальна: модель одинаково хорошо смотрится с ботинками и с туфлями',
    length: 'Миди',
  },
  maxi: { text: 'макси', slot: 'len', story: 'Длина макси создаёт эффектный вытянутый силуэт', length: 'Макси' },
  mini: { text: 'мини', slot: 'len', story: 'Лаконичный крой уравновешивает смелую длину мини', length: 'Мини' },
  vpol: { text: 'в пол', slot: 'len', story: 'Длина в пол делает модель по-настоящему выразительной', length: 'В пол' },
  zapah: {
    text: 'на запах',
    slot: 'style',
    story: 'Запах регулируется по фигуре и фиксируется внутренними завязками',
    silhouette: 'Запах',
  },
  muzh: {
    text: 'в мужском стиле',
    slot: 'style',
    story: 'Чёткие линии и строгие детали модели заимствованы из мужского гардероба',
  },
  pizham: {
    text: 'в пижамном стиле',
    slot: 'style',
    story: 'Мягкий пижамный стиль с контрастным кантом уместен и дома, и в городе',
  },
  rubchik: { text: 'в рубчик', slot: 'texture', story: 'Рельефный рубчик мягко облегает фигуру и хорошо тянется' },
  krupn: { text: 'крупной вязки', slot: 'texture', story: 'Крупная вязка выглядит уютно и отлично держит тепло' },
  vysPosadka: {
    text: 'с высокой посадкой',
    slot: 'rise',
    story: 'Высокая посадка подчёркивает талию и удлиняет силуэт',
  },
  sredPosadka: { text: 'со средней посадкой', slot: 'rise', story: 'Средняя посадка комфортна в течение всего дня' },
  polosku: { text: 'в полоску', slot: 'pattern', story: 'Вертикальная полоска визуально вытягивает силуэт' },
  kletku: {
    text: 'в клетку',
    slot: 'pattern',
    story: 'Клетка соткана из окрашенной пряжи, поэтому рисунок не выцветает',
  },
  cherez: {
    text: 'через плечо',
    slot: 'style',
    story: 'Регулируемый ремень позволяет носить сумку через плечо или на плече',
  },
} as const satisfies Record<string, { text: string; slot: Slot; story: string; silhouette?: string; length?: string }>;
type CutKey = keyof typeof CUT;

const DETAIL = {
  belt: ['с поясом', 'Пояс в комплекте позволяет подчеркнуть талию или носить модель свободно'],
  hood: ['с капюшоном', 'Глубокий капюшон защищает от ветра и снега'],
  furCollar: ['с меховым воротником', 'Съёмный меховой воротник пристёгивается на потайные пуговицы'],
  stand: ['с воротником-стойкой', 'Воротник-стойка закрывает шею от ветра и смотрится лаконично'],
  lapel: ['с отложным воротником', 'Широкий отложной воротник красиво обрамляет лицо'],
  patch: ['с накладными карманами', 'Объёмные накладные карманы — функциональная и заметная деталь'],
  vent: ['со шлицей', 'Шлица на спинке добавляет свободы движений при ходьбе'],
  epaulets: ['с эполетами', 'Эполеты и хлястики на рукавах отсылают к классическому военному тренчу'],
  yoke: ['с кокеткой', 'Кокетка на спинке дополнительно защищает от дождя'],
  shoulders: ['с подплечниками', 'Мягкие подплечники формируют чёткую линию плеча'],
  metalBtn: ['с металлическими пуговицами', 'Металлические пуговицы с гравировкой — узнаваемая деталь бренда'],
  noLapels: ['без лацканов', 'Лаконичный вырез без лацканов хорошо сочетается с украшениями'],
  highNeck: ['с высоким горлом', 'Высокое горло можно носить поднятым или подвернуть'],
  vNeck: ['с V-образным вырезом', 'V-образный вырез визуально вытягивает силуэт'],
  crew: ['с круглым вырезом', 'Аккуратный круглый вырез обработан эластичной бейкой'],
  cables: ['с косами', 'Рельефные косы придают вязке объём и фактуру'],
  sideSlits: ['с разрезами по бокам', 'Разрезы по бокам позволяют носить модель навыпуск или заправлять спереди'],
  pockets: ['с карманами', 'Практичные карманы в боковых швах почти незаметны'],
  pearlBtn: ['с перламутровыми пуговицами', 'Пуговицы из натурального перламутра пришиты вручную'],
  creases: ['со стрелками', 'Заутюженные стрелки визуально удлиняют ноги'],
  pleats: ['с защипами', 'Защипы у пояса добавляют свободы в бёдрах'],
  elastic: ['с эластичным поясом', 'Эластичный пояс на кулиске удобно регулируется по фигуре'],
  cargo: ['с карманами карго', 'Объёмные карманы карго делают модель функциональной и современной'],
  cuffs: ['с отворотами', 'Отвороты внизу можно отпустить и увеличить длину'],
  slit: ['с разрезом', 'Глубокий разрез добавляет свободы движений'],
  drape: ['с драпировкой', 'Мягкая драпировка выгодно подчёркивает фигуру'],
  openBack: ['с открытой спиной', 'Открытая спина превращает лаконичную модель в вечернюю'],
  puffSleeves: ['с пышными рукавами', 'Пышные рукава на узких манжетах добавляют образу романтичности'],
  straps: ['на тонких бретелях', 'Тонкие бретели регулируются по длине'],
  buttons: ['на пуговицах', 'Модель застёгивается на пуговицы по всей длине'],
  bow: ['с бантом', 'Бант на воротнике можно завязать по-разному или оставить свободно'],
  chestPockets: ['с нагрудными карманами', 'Два нагрудных кармана с клапанами — деталь в духе рабочей одежды'],
  hiddenPlacket: ['с потайной застёжкой', 'Потайная планка скрывает пуговицы и делает модель лаконичнее'],
  snaps: ['на кнопках', 'Металлические кнопки вместо пуговиц придают модели спортивный характер'],
  embroidery: ['с вышивкой', 'Вышивка выполнена вручную в нашей мастерской'],
  print: ['с принтом', 'Принт нанесён методом шелкографии и не трескается после стирки'],
  logo: ['с логотипом', 'Небольшой вышитый логотип — единственный акцент лаконичной модели'],
  halter: ['с вырезом-халтер', 'Вырез-халтер открывает плечи и завязывается на шее'],
  lace: ['с кружевом', 'Отделка тонким кружевом смягчает строгий силуэт'],
  offShoulder: ['с открытыми плечами', 'Вырез с открытыми плечами фиксируется мягкой резинкой'],
  boatNeck: ['с вырезом-лодочкой', 'Вырез-лодочка подчёркивает ключицы'],
  distressed: ['с потёртостями', 'Потёртости сделаны вручную, поэтому каждая пара немного уникальна'],
  rawHem: ['с необработанным краем', 'Необработанный край можно подрезать под свой рост'],
  contrast: ['с контрастной строчкой', 'Контрастная строчка подчёркивает классическую конструкцию'],
  sherpa: ['с подкладкой из шерпы', 'Подкладка из мягкой шерпы делает модель тёплой в межсезонье'],
  zip: ['на молнии', 'Двусторонняя молния позволяет регулировать посадку'],
  chain: ['с цепочкой', 'Съёмная цепочка позволяет носить модель на плече или в руке'],
  wideStrap: ['с широким ремнём', 'Широкий ремень регулируется по длине и отстёгивается'],
  flap: ['с клапаном', 'Клапан закрывается на магнитную кнопку'],
  fringe: ['с бахромой', 'Мягкая бахрома по краям придаёт модели законченный вид'],
  tassels: ['с кисточками', 'Кисточки на концах сделаны вручную из той же пряжи'],
  hardware: ['с металлической фурнитурой', 'Фурнитура с латунным покрытием не темнеет со временем'],
  turnUp: ['с отворотом', 'Широкий отворот можно носить поднятым или опущенным'],
  pompom: ['с помпоном', 'Помпон из экомеха пристёгивается на кнопку'],
  buckle: ['с пряжкой', 'Массивная пряжка из матового металла — главный акцент модели'],
  goldHardware: ['с золотистой фурнитурой', 'Золотистая фурнитура хорошо сочетается с украшениями'],
  eyelets: ['с люверсами', 'Металлические люверсы по всей длине позволяют точно подобрать размер'],
  heel: ['на каблуке', 'Устойчивый каблук высотой 6 см удобен на весь день'],
  flat: ['на плоской подошве', 'Плоская подошва с противоскользящим протектором удобна в городе'],
  lug: ['на тракторной подошве', 'Массивная тракторная подошва лёгкая и хорошо держит на скользких тротуарах'],
  laces: ['на шнуровке', 'Шнуровка позволяет точно подогнать модель по ноге'],
  pointed: ['с острым носом', 'Острый мыс визуально удлиняет стопу'],
  square: ['с квадратным носом', 'Квадратный мыс — актуальная деталь сезона'],
  furLined: ['на меху', 'Подкладка из натурального меха согреет в морозы'],
  platform: ['на платформе', 'Лёгкая платформа добавляет роста без потери комфорта'],
} as const satisfies Record<string, readonly [string, string]>;
type DetailKey = keyof typeof DETAIL;

type CareKey =
  | 'wool'
  | 'knit'
  | 'cotton'
  | 'denim'
  | 'linen'
  | 'silk'
  | 'viscose'
  | 'synthetic'
  | 'down'
  | 'leather'
  | 'suede'
  | 'fur'
  | 'ecofur';

const CARE: Record<CareKey, string> = {
  wool: 'Только сухая чистка. Не стирать и не отбеливать. Гладить с изнанки при температуре до 110 °C через влажную ткань. Хранить на плечиках в чехле.',
  knit: 'Ручная стирка в прохладной воде (до 30 °C) со средством для шерсти или сухая чистка. Не отжимать, сушить в расправленном виде на горизонтальной поверхности. Не отбеливать.',
  cotton: 'Стирка при 30 °C в деликатном режиме, вывернув наизнанку. Не отбеливать. Гладить при температуре до 150 °C.',
  denim:
    'Стирать при 30 °C, вывернув наизнанку, отдельно от светлых вещей. Не отбеливать и не сушить в барабане. Гладить при средней температуре.',
  linen: 'Стирка при 40 °C в деликатном режиме. Не отбеливать. Гладить слегка влажным при температуре до 200 °C.',
  silk: 'Ручная стирка в прохладной воде или сухая чистка. Не отжимать и не скручивать. Гладить с изнанки при минимальной температуре.',
  viscose: 'Деликатная стирка при 30 °C. Не отжимать в машине, сушить на плечиках. Гладить при температуре до 110 °C.',
  synthetic:
    'Деликатная стирка при 30 °C или сухая чистка. Не отбеливать. Гладить через ткань при температуре до 110 °C.',
  down: 'Деликатная стирка при 30 °C со средством для пуховых изделий. Сушить в барабане при низкой температуре с теннисными мячами. Не гладить.',
  leather:
    'Протирать мягкой влажной тканью. Беречь от прямых солнечных лучей и нагревательных приборов. Использовать средства для ухода за гладкой кожей.',
  suede: 'Чистить сухой щёткой для замши. Перед ноской обработать водоотталкивающей пропиткой. Не стирать.',
  fur: 'Только профессиональная чистка меха. Хранить в чехле из дышащей ткани на широких плечиках. Беречь от влаги и прямых солнечных лучей.',
  ecofur: 'Только сухая чистка. Не гладить. Расчёсывать ворс мягкой щёткой, хранить в чехле на плечиках.',
};

interface Fabric {
  phrase: string;
  comps: readonly string[];
  care: CareKey;
  /** 0 budget … 2 premium: moves the price within the kind's range. */
  tier: 0 | 1 | 2;
  story: readonly string[];
  /** Wool-like yarns are washed as knitwear when the garment is knitted. */
  woolly?: boolean;
}

const FABRIC = {
  wool: {
    phrase: 'из шерсти',
    comps: ['80% шерсть, 20% полиамид', '70% шерсть, 30% полиамид', '60% шерсть, 40% полиэстер'],
    care: 'wool',
    tier: 1,
    woolly: true,
    story: [
      'Плотная шерсть с добавлением полиамида хорошо держит форму и почти не мнётся',
      'Шерстяная ткань плотного плетения защищает от ветра и сохраняет тепло',
    ],
  },
  woolCashmere: {
    phrase: 'из шерсти и кашемира',
    comps: ['85% шерсть, 15% кашемир', '70% шерсть, 20% кашемир, 10% полиамид'],
    care: 'wool',
    tier: 2,
    woolly: true,
    story: ['Смесь шерсти и кашемира мягкая на ощупь и согревает без лишнего веса'],
  },
  cashmere: {
    phrase: 'из кашемира',
    comps: ['100% кашемир', '70% кашемир, 30% шерсть'],
    care: 'wool',
    tier: 2,
    woolly: true,
    story: [
      'Тонкий кашемир невероятно мягкий и тёплый, а со временем становится только приятнее',
      'Кашемир монгольских коз отличается длинным волокном и почти не скатывается',
    ],
  },
  alpaca: {
    phrase: 'из альпаки',
    comps: ['45% альпака, 35% шерсть, 20% полиамид', '50% альпака, 30% шерсть, 20% полиамид'],
    care: 'wool',
    tier: 2,
    woolly: true,
    story: ['Шерсть альпаки лёгкая, очень тёплая и совсем не колется'],
  },
  boucle: {
    phrase: 'из букле',
    comps: ['60% шерсть, 30% полиамид, 10% мохер', '55% шерсть, 45% полиэстер'],
    care: 'wool',
    tier: 1,
    story: ['Фактурное букле выглядит выразительно даже в самых простых образах'],
  },
  tweed: {
    phrase: 'из твида',
    comps: ['75% шерсть, 20% полиэстер, 5% акрил', '65% шерсть, 35% полиамид'],
    care: 'wool',
    tier: 1,
    story: ['Твид с едва заметным меланжевым узором добавляет образу винтажного настроения'],
  },
  suitingWool: {
    phrase: 'из костюмной шерсти',
    comps: ['98% шерсть, 2% эластан', '100% шерсть'],
    care: 'wool',
    tier: 2,
    story: ['Костюмная шерсть тонкого плетения дышит и выглядит благородно'],
  },
  suiting: {
    phrase: 'из костюмной ткани',
    comps: ['64% полиэстер, 32% вискоза, 4% эластан', '68% вискоза, 28% полиамид, 4% эластан'],
    care: 'synthetic',
    tier: 0,
    story: ['Костюмная ткань с эластаном не стесняет движений и не мнётся в течение дня'],
  },
  merino: {
    phrase: 'из мериноса',
    comps: ['100% шерсть мериноса', '80% шерсть мериноса, 20% полиамид'],
    care: 'knit',
    tier: 1,
    woolly: true,
    story: ['Тонкая шерсть мериноса регулирует температуру и не колется'],
  },
  mohair: {
    phrase: 'из мохера',
    comps: ['40% мохер, 35% полиамид, 25% шерсть', '30% мохер, 40% альпака, 30% полиамид'],
    care: 'knit',
    tier: 2,
    woolly: true,
    story: ['Пушистый мохер создаёт эффект дымки и невесомой фактуры'],
  },
  knit: {
    phrase: 'из трикотажа',
    comps: ['70% вискоза, 30% полиамид', '95% хлопок, 5% эластан', '80% вискоза, 20% полиэстер'],
    care: 'viscose',
    tier: 0,
    story: ['Эластичный трикотаж мягко облегает фигуру и не теряет форму после стирки'],
  },
  cotton: {
    phrase: 'из хлопка',
    comps: ['100% хлопок', '97% хлопок, 3% эластан'],
    care: 'cotton',
    tier: 0,
    story: ['Плотный хлопок приятен к телу и хорошо пропускает воздух'],
  },
  organic: {
    phrase: 'из органического хлопка',
    comps: ['100% органический хлопок'],
    care: 'cotton',
    tier: 1,
    story: ['Органический хлопок выращен без пестицидов и становится мягче с каждой стиркой'],
  },
  poplin: {
    phrase: 'из поплина',
    comps: ['100% хлопок'],
    care: 'cotton',
    tier: 0,
    story: ['Хлопковый поплин с лёгким блеском хорошо держит форму воротника и манжет'],
  },
  flannel: {
    phrase: 'из фланели',
    comps: ['100% хлопок', '80% хлопок, 20% шерсть'],
    care: 'cotton',
    tier: 0,
    story: ['Мягкая фланель с начёсом согревает в прохладную погоду'],
  },
  gabardine: {
    phrase: 'из габардина',
    comps: ['100% хлопок', '65% хлопок, 35% полиэстер'],
    care: 'cotton',
    tier: 1,
    story: ['Плотный габардин с водоотталкивающей пропиткой защищает от ветра и мороси'],
  },
  corduroy: {
    phrase: 'из вельвета',
    comps: ['100% хлопок', '98% хлопок, 2% эластан'],
    care: 'cotton',
    tier: 0,
    story: ['Мягкий вельвет в мелкий рубчик добавляет образу фактуры'],
  },
  denim: {
    phrase: 'из денима',
    comps: ['100% хлопок'],
    care: 'denim',
    tier: 0,
    story: [
      'Плотный деним из 100% хлопка без эластана со временем садится по фигуре',
      'Неэластичный деним плотностью 13 унций держит форму и красиво изнашивается',
    ],
  },
  denimJp: {
    phrase: 'из японского денима',
    comps: ['100% хлопок'],
    care: 'denim',
    tier: 2,
    story: [
      'Японский деним с кромкой селвидж соткан на старых челночных станках и со временем приобретает красивые заломы',
    ],
  },
  linen: {
    phrase: 'изо льна',
    comps: ['100% лён', '55% лён, 45% вискоза'],
    care: 'linen',
    tier: 1,
    story: ['Лён хорошо пропускает воздух, а лёгкая естественная помятость — часть его характера'],
  },
  silk: {
    phrase: 'из шёлка',
    comps: ['100% шёлк'],
    care: 'silk',
    tier: 2,
    story: ['Натуральный шёлк с мягким блеском струится по фигуре и приятно холодит кожу'],
  },
  satin: {
    phrase: 'из атласа',
    comps: ['70% ацетат, 30% вискоза', '80% ацетат, 20% шёлк'],
    care: 'silk',
    tier: 1,
    story: ['Атлас с жидким блеском красиво переливается при движении'],
  },
  viscose: {
    phrase: 'из вискозы',
    comps: ['100% вискоза', '95% вискоза, 5% эластан'],
    care: 'viscose',
    tier: 0,
    story: ['Вискоза мягко драпируется и приятна к телу даже в жаркую погоду'],
  },
  nylon: {
    phrase: 'из матового нейлона',
    comps: ['100% полиамид'],
    care: 'down',
    tier: 1,
    story: ['Матовый нейлон с водоотталкивающей пропиткой защищает от снега и ветра'],
  },
  leather: {
    phrase: 'из кожи',
    comps: ['100% натуральная кожа'],
    care: 'leather',
    tier: 2,
    story: ['Мягкая натуральная кожа со временем приобретает благородную патину'],
  },
  ecoLeather: {
    phrase: 'из экокожи',
    comps: ['100% полиуретан, основа: 100% полиэстер'],
    care: 'leather',
    tier: 0,
    story: ['Матовая экокожа выглядит как натуральная и легко чистится'],
  },
  suede: {
    phrase: 'из замши',
    comps: ['100% натуральная замша'],
    care: 'suede',
    tier: 2,
    story: ['Бархатистая натуральная замша выглядит мягко и дорого'],
  },
  sheepskin: {
    phrase: 'из овчины',
    comps: ['100% овчина (натуральный мех)'],
    care: 'fur',
    tier: 2,
    story: ['Натуральная овчина с густым ворсом согревает даже в сильный мороз'],
  },
  mouton: {
    phrase: 'из мутона',
    comps: ['100% мутон (овчина)'],
    care: 'fur',
    tier: 2,
    story: ['Мутон — обработанная овчина с гладким блестящим ворсом, которая не боится влаги'],
  },
  ecoFur: {
    phrase: 'из экомеха',
    comps: ['80% модакрил, 20% полиэстер', '70% акрил, 30% полиэстер'],
    care: 'ecofur',
    tier: 1,
    story: ['Густой экомех с длинным ворсом не уступает натуральному в тепле'],
  },
} as const satisfies Record<string, Fabric>;
type FabricKey = keyof typeof FABRIC;

// ---------------------------------------------------------------------------------------
// Garment kinds
// ---------------------------------------------------------------------------------------

interface Noun {
  w: string;
  g: Gender;
  /** Overrides of the kind's lists for this noun. */
  adjs?: AdjKey[];
  requiredAdj?: AdjKey[];
  cuts?: CutKey[];
  fabrics?: FabricKey[];
  details?: DetailKey[];
}

type SizeMode = 'clothes' | 'shoes' | 'one';

interface KindSpec {
  nouns: Noun[];
  adjs: AdjKey[];
  /** When set, the adjective slot is always filled from this list. */
  requiredAdj?: AdjKey[];
  cuts: CutKey[];
  fabrics: FabricKey[];
  /** A fabric that goes without saying (jeans are denim): never named. */
  obviousFabric?: FabricKey;
  fabricInNameP?: number;
  details: DetailKey[];
  price: readonly [number, number];
  sizes: SizeMode;
  colors: string[];
  lining?: { p: number; comps: readonly string[] };
  insulation?: readonly string[];
  season: readonly string[];
  silhouettes?: readonly string[];
  lengths?: readonly string[];
  fasteners?: readonly string[];
  stories: readonly string[];
  styling: readonly string[];
  /** Knitted garments (wool yarn is washed as knitwear). */
  knitted?: boolean;
}

const COAT_LINING = ['100% вискоза', '100% купра', '55% вискоза, 45% ацетат'];
const MEN_CUTS_EXCLUDED = new Set<CutKey>([
  'midi',
  'maxi',
  'mini',
  'vpol',
  'muzh',
  'pizham',
  'zapah',
  'asil',
  'flare',
  'pritalen',
]);
const MEN_DETAILS_EXCLUDED = new Set<DetailKey>([
  'puffSleeves',
  'openBack',
  'bow',
  'shoulders',
  'offShoulder',
  'pearlBtn',
  'belt',
  'lace',
  'halter',
  'straps',
  'slit',
  'drape',
]);
const MEN_ADJS_EXCLUDED = new Set<AdjKey>(['asimm', 'plissir', 'mal', 'ukoroch']);

// The gift garment cover is drawn (media/garment-art.ts) but never generated: it is seeded on its own.
type CatalogKind = Exclude<GarmentKind, 'garment-cover'>;
const KINDS: Record<CatalogKind, KindSpec> = {
  'warm-coat': {
    nouns: [{ w: 'Пальто', g: 'n' }],
    adjs: [],
    requiredAdj: ['utepl', 'utepl', 'zimn'],
    cuts: ['oversize', 'pryamoj', 'svobodnyj', 'pritalen', 'midi', 'maxi', 'vpol'],
    fabrics: ['wool', 'woolCashmere', 'alpaca', 'boucle', 'wool'],
    details: ['hood', 'belt', 'furCollar', 'stand', 'patch', 'lapel'],
    price: [39_800, 49_000],
    sizes: 'clothes',
    colors: POOL_OUTER,
    lining: { p: 1, comps: COAT_LINING },
    insulation: [
      '100% полиэстер (Тинсулейт), 150 г/м²',
      '100% полиэстер (Shelter), 200 г/м²',
      'Биопух, 100% полиэстер, 180 г/м²',
    ],
    season: ['Зима'],
    silhouettes: ['Прямой', 'Свободный', 'Оверсайз'],
    lengths: ['Ниже колена', 'Миди', 'Макси'],
    fasteners: ['Пуговицы', 'Потайная планка', 'Молния и ветрозащитная планка'],
    stories: [
      'Утеплённое пальто рассчитано на морозы до −20 °C и при этом не выглядит громоздким',
      'Пальто на тонком утеплителе с ветрозащитной планкой и глубокими карманами — альтернатива пуховику для городской зимы',
      'Тёплое пальто с удлинённой спинкой и внутренними трикотажными манжетами закрывает от ветра',
      'Зимнее пальто сшито в нашем ателье в Москве: утеплитель простёган с подкладкой и не сбивается',
    ],
    styling: [
      'Сочетайте с объёмным шарфом и высокими сапогами',
      'Носите с грубыми ботинками и вязаной шапкой',
      'Под пальто свободно помещается объёмный свитер',
    ],
  },
  coat: {
    nouns: [
      { w: 'Пальто', g: 'n' },
      { w: 'Пальто', g: 'n' },
      { w: 'Пальто-кокон', g: 'n', cuts: ['midi', 'maxi'], adjs: ['ukoroch', 'udlinen'] },
      { w: 'Пальто-халат', g: 'n', cuts: ['midi', 'maxi', 'vpol', 'oversize'], details: ['belt', 'lapel', 'patch'] },
      { w: 'Полупальто', g: 'n', cuts: ['oversize', 'pryamoj', 'muzh'], adjs: ['dvubort', 'odnobort'] },
    ],
    adjs: ['dvubort', 'odnobort', 'ukoroch', 'udlinen', 'klassich'],
    cuts: ['oversize', 'pryamoj', 'svobodnyj', 'pritalen', 'midi', 'maxi', 'muzh', 'zapah'],
    fabrics: ['wool', 'woolCashmere', 'cashmere', 'boucle', 'tweed', 'alpaca', 'wool'],
    details: ['belt', 'lapel', 'patch', 'vent', 'stand', 'metalBtn', 'hiddenPlacket'],
    price: [32_000, 44_800],
    sizes: 'clothes',
    colors: POOL_OUTER,
    lining: { p: 0.9, comps: COAT_LINING },
    season: ['Демисезон'],
    silhouettes: ['Прямой', 'Свободный', 'Оверсайз', 'Кокон'],
    lengths: ['До колена', 'Миди', 'Ниже колена'],
    fasteners: ['Пуговицы', 'Потайная планка', 'Без застёжки'],
    stories: [
      'Демисезонное пальто с глубокими карманами в боковых швах и аккуратно обработанными внутренними швами',
      'Пальто сшито в нашем ателье в Москве: все внутренние швы обработаны, а подкладка вшита вручную',
      'Универсальное пальто на межсезонье, которое подходит и к платью, и к джинсам',
      'Пальто с мягкой линией плеча и выверенной длиной рукава — основа осеннего гардероба',
    ],
    styling: [
      'Носите с джинсами прямого кроя и лоферами',
      'Сочетайте с трикотажным платьем и ботинками на тракторной подошве',
      'Дополните образ кашемировым шарфом в тон',
    ],
  },
  trench: {
    nouns: [
      { w: 'Тренч', g: 'm' },
      { w: 'Тренч', g: 'm' },
      { w: 'Плащ', g: 'm', details: ['belt', 'hood', 'lapel', 'vent', 'hiddenPlacket'] },
    ],
    adjs: ['dvubort', 'klassich', 'ukoroch', 'udlinen'],
    cuts: ['oversize', 'midi', 'maxi', 'svobodnyj', 'pryamoj'],
    fabrics: ['gabardine', 'gabardine', 'cotton', 'ecoLeather', 'leather'],
    details: ['belt', 'epaulets', 'yoke', 'vent', 'lapel'],
    price: [29_800, 39_800],
    sizes: 'clothes',
    colors: POOL_TRENCH,
    lining: { p: 0.6, comps: ['100% вискоза', '100% хлопок'] },
    season: ['Демисезон'],
    silhouettes: ['Прямой', 'Свободный', 'Оверсайз'],
    lengths: ['Миди', 'Ниже колена', 'Макси'],
    fasteners: ['Пуговицы', 'Потайная планка'],
    stories: [
      'Классический тренч переосмыслен в современных пропорциях',
      'Модель с ветрозащитной кокеткой, поясом и хлястиками на рукавах сохраняет все черты классического тренча',
      'Лёгкая модель на межсезонье, которую удобно носить нараспашку или с поясом',
    ],
    styling: [
      'Носите с белой рубашкой, прямыми джинсами и лоферами',
      'Сочетайте с платьем миди и ботильонами',
      'С объёмным свитером тренч подойдёт и для прохладной осени',
    ],
  },
  puffer: {
    nouns: [
      { w: 'Пуховик', g: 'm', adjs: ['ukoroch', 'udlinen', 'obyomn', 'stegan'] },
      { w: 'Куртка', g: 'f', requiredAdj: ['stegan', 'puhov', 'utepl'], cuts: ['oversize', 'svobodnyj'] },
    ],
    adjs: [],
    cuts: ['oversize', 'svobodnyj', 'midi', 'maxi'],
    fabrics: ['nylon'],
    fabricInNameP: 0.25,
    details: ['hood', 'stand', 'zip', 'belt'],
    price: [27_800, 42_800],
    sizes: 'clothes',
    colors: POOL_PUFFER,
    lining: { p: 1, comps: ['100% полиамид'] },
    insulation: ['Пух 90%, перо 10%', 'Пух 80%, перо 20%', 'Биопух, 100% полиэстер, 250 г/м²'],
    season: ['Зима'],
    silhouettes: ['Свободный', 'Оверсайз', 'Прямой'],
    lengths: ['До середины бедра', 'Миди', 'Макси'],
    fasteners: ['Молния и ветрозащитная планка на кнопках'],
    stories: [
      'Лёгкая тёплая модель с крупной стёжкой, которая не теряет объём после стирки',
      'Тёплая модель с высоким воротником и ветрозащитной планкой рассчитана на настоящую зиму',
      'Модель с внутренними трикотажными манжетами и двусторонней молнией',
    ],
    styling: ['Носите с широкими брюками и массивными ботинками', 'Сочетайте с вязаной шапкой и объёмным шарфом'],
  },
  blazer: {
    nouns: [
      { w: 'Жакет', g: 'm' },
      { w: 'Жакет', g: 'm' },
      { w: 'Пиджак', g: 'm' },
      { w: 'Блейзер', g: 'm' },
    ],
    adjs: ['dvubort', 'odnobort', 'ukoroch', 'udlinen', 'klassich'],
    cuts: ['oversize', 'pryamoj', 'pritalen', 'muzh', 'svobodnyj'],
    fabrics: ['suitingWool', 'suiting', 'tweed', 'boucle', 'linen', 'wool', 'corduroy'],
    details: ['shoulders', 'patch', 'belt', 'metalBtn', 'noLapels', 'vent'],
    price: [18_800, 29_800],
    sizes: 'clothes',
    colors: POOL_TAILORED,
    lining: { p: 0.85, comps: ['100% вискоза', '100% купра'] },
    season: ['Демисезон', 'Круглый год'],
    silhouettes: ['Прямой', 'Приталенный', 'Оверсайз'],
    lengths: ['До середины бедра', 'Удлинённая'],
    fasteners: ['Пуговицы', 'Одна пуговица', 'Без застёжки'],
    stories: [
      'Модель с выверенной посадкой по плечу, которую мы отшиваем небольшими партиями',
      'Модель с рукавами на подкладке легко надевается поверх свитера или рубашки',
      'Основа делового гардероба, которая так же хорошо смотрится с джинсами и футболкой',
    ],
    styling: [
      'Носите в комплекте с брюками из той же ткани',
      'Сочетайте с джинсами прямого кроя и белой футболкой',
      'Дополните образ платьем-комбинацией и ботильонами',
    ],
  },
  sweater: {
    nouns: [
      { w: 'Свитер', g: 'm' },
      { w: 'Свитер', g: 'm' },
      { w: 'Джемпер', g: 'm' },
      { w: 'Пуловер', g: 'm' },
      {
        w: 'Водолазка',
        g: 'f',
        cuts: ['rubchik', 'pritalen', 'svobodnyj'],
        details: ['sideSlits'],
        adjs: ['ukoroch', 'udlinen', 'bazov'],
      },
    ],
    adjs: ['vyazan', 'obyomn', 'ukoroch', 'udlinen'],
    cuts: ['oversize', 'svobodnyj', 'rubchik', 'krupn'],
    fabrics: ['merino', 'cashmere', 'mohair', 'alpaca', 'woolCashmere', 'cotton', 'merino'],
    details: ['highNeck', 'vNeck', 'crew', 'cables', 'sideSlits'],
    price: [9_800, 19_800],
    sizes: 'clothes',
    colors: POOL_KNIT,
    knitted: true,
    season: ['Осень-зима'],
    silhouettes: ['Свободный', 'Оверсайз', 'Прямой'],
    lengths: ['Стандартная', 'Укороченная', 'Удлинённая'],
    stories: [
      'Мягкая вязаная модель с плотными резинками по низу и на манжетах',
      'Модель связана на итальянском оборудовании из пряжи высокой крутки, поэтому почти не скатывается',
      'Тёплая модель с аккуратными плоскими швами, которые не ощущаются на теле',
    ],
    styling: [
      'Носите с юбкой-комбинацией или широкими брюками',
      'Заправьте спереди в джинсы с высокой посадкой',
      'Накиньте на плечи поверх рубашки',
    ],
  },
  cardigan: {
    nouns: [{ w: 'Кардиган', g: 'm' }],
    adjs: ['vyazan', 'obyomn', 'ukoroch', 'udlinen'],
    cuts: ['oversize', 'krupn', 'rubchik', 'svobodnyj'],
    fabrics: ['merino', 'cashmere', 'mohair', 'alpaca', 'woolCashmere', 'cotton'],
    details: ['vNeck', 'pockets', 'pearlBtn', 'belt', 'cables'],
    price: [10_800, 21_800],
    sizes: 'clothes',
    colors: POOL_KNIT,
    knitted: true,
    season: ['Осень-зима', 'Демисезон'],
    silhouettes: ['Свободный', 'Оверсайз', 'Прямой'],
    lengths: ['Стандартная', 'Укороченная', 'Удлинённая'],
    fasteners: ['Пуговицы'],
    stories: [
      'Кардиган можно носить застёгнутым как джемпер или нараспашку поверх платья',
      'Мягкая вязаная модель с планкой, связанной отдельно и пришитой вручную',
      'Универсальный кардиган, который заменит лёгкую куртку в тёплый осенний день',
    ],
    styling: ['Носите с шёлковой юбкой миди', 'Сочетайте с белой футболкой и прямыми джинсами'],
  },
  trousers: {
    nouns: [
      { w: 'Брюки', g: 'p' },
      { w: 'Брюки', g: 'p' },
      { w: 'Брюки-палаццо', g: 'p', adjs: ['plissir', 'klassich'], cuts: ['vysPosadka', 'pizham'] },
      { w: 'Кюлоты', g: 'p', adjs: ['plissir', 'klassich'], cuts: ['vysPosadka'] },
      {
        w: 'Брюки-чинос',
        g: 'p',
        adjs: ['ukoroch', 'klassich'],
        fabrics: ['cotton', 'linen'],
        cuts: ['pryamoj', 'svobodnyj'],
      },
    ],
    adjs: ['shirok', 'pryam', 'ukoroch', 'klassich', 'plissir'],
    cuts: ['pryamoj', 'svobodnyj', 'flare', 'vysPosadka', 'pizham', 'muzh'],
    fabrics: ['suitingWool', 'suiting', 'linen', 'cotton', 'corduroy', 'viscose', 'ecoLeather', 'silk'],
    details: ['creases', 'pleats', 'belt', 'elastic', 'cargo', 'cuffs'],
    price: [8_900, 15_800],
    sizes: 'clothes',
    colors: POOL_TAILORED,
    lining: { p: 0.2, comps: ['100% вискоза'] },
    season: ['Круглый год', 'Демисезон'],
    silhouettes: ['Прямой', 'Широкий', 'Зауженный'],
    lengths: ['В пол', 'Стандартная', 'Укороченная'],
    fasteners: ['Молния и пуговица', 'Крючок и молния', 'Эластичный пояс'],
    stories: [
      'Брюки с выверенной посадкой, которые одинаково хорошо смотрятся с кроссовками и с туфлями',
      'Модель с удобными боковыми карманами и аккуратным поясом на внутренней тесьме',
      'Брюки на каждый день, которые легко собрать в костюм с жакетом',
    ],
    styling: [
      'Носите с заправленной шёлковой блузой',
      'Сочетайте с жакетом оверсайз и лоферами',
      'С короткой футболкой и кедами получится лёгкий летний образ',
    ],
  },
  shorts: {
    nouns: [
      { w: 'Шорты', g: 'p' },
      { w: 'Шорты', g: 'p' },
      { w: 'Бермуды', g: 'p' },
    ],
    adjs: ['shirok', 'klassich'],
    cuts: ['vysPosadka', 'svobodnyj', 'muzh'],
    fabrics: ['linen', 'cotton', 'suiting', 'ecoLeather', 'suitingWool'],
    details: ['pleats', 'cuffs', 'belt', 'creases'],
    price: [6_900, 9_800],
    sizes: 'clothes',
    colors: POOL_LIGHT,
    season: ['Весна-лето'],
    silhouettes: ['Свободный', 'Прямой'],
    lengths: ['Выше колена', 'До колена'],
    fasteners: ['Молния и пуговица'],
    stories: [
      'Модель с удобной посадкой и аккуратными боковыми карманами',
      'Лёгкая модель, которую можно собрать в костюм с жакетом или рубашкой',
    ],
    styling: ['Носите с жакетом в тон и лоферами', 'Сочетайте с базовой футболкой и сандалиями'],
  },
  skirt: {
    nouns: [
      { w: 'Юбка', g: 'f' },
      { w: 'Юбка', g: 'f' },
      {
        w: 'Юбка-карандаш',
        g: 'f',
        adjs: ['klassich'],
        cuts: ['midi', 'vysPosadka'],
        fabrics: ['wool', 'suiting', 'ecoLeather', 'leather', 'tweed'],
      },
      {
        w: 'Юбка-шорты',
        g: 'f',
        adjs: ['plissir'],
        cuts: ['mini', 'vysPosadka'],
        fabrics: ['suiting', 'suitingWool', 'tweed', 'ecoLeather'],
      },
    ],
    adjs: ['plissir', 'pryam', 'asimm', 'klassich'],
    cuts: ['midi', 'maxi', 'mini', 'asil', 'zapah', 'vysPosadka'],
    fabrics: [
      'wool',
      'suiting',
      'silk',
      'satin',
      'viscose',
      'ecoLeather',
      'leather',
      'tweed',
      'boucle',
      'linen',
      'corduroy',
    ],
    details: ['slit', 'belt', 'buttons', 'drape', 'pockets'],
    price: [7_900, 14_800],
    sizes: 'clothes',
    colors: POOL_TAILORED,
    lining: { p: 0.5, comps: ['100% вискоза', '100% купра'] },
    season: ['Круглый год', 'Демисезон'],
    silhouettes: ['Прямой', 'А-силуэт', 'Карандаш'],
    lengths: ['Миди', 'Макси', 'Мини', 'До колена'],
    fasteners: ['Потайная молния', 'Пуговицы', 'Эластичный пояс'],
    stories: [
      'Юбка с аккуратным широким поясом, который не врезается в талию',
      'Модель с аккуратной посадкой на талии, которая не перекручивается при ходьбе',
      'Юбка, которую легко носить и с объёмным свитером, и с тонкой блузой',
    ],
    styling: [
      'Носите с заправленным свитером и ботильонами',
      'Сочетайте с белой футболкой и кедами',
      'Дополните образ жакетом оверсайз',
    ],
  },
  dress: {
    nouns: [
      { w: 'Платье', g: 'n' },
      { w: 'Платье', g: 'n' },
      { w: 'Платье', g: 'n' },
      {
        w: 'Платье-комбинация',
        g: 'n',
        adjs: ['asimm'],
        cuts: ['midi', 'maxi', 'vpol'],
        fabrics: ['silk', 'satin', 'viscose'],
        details: ['straps', 'openBack', 'lace', 'slit'],
      },
      {
        w: 'Платье-рубашка',
        g: 'n',
        adjs: ['udlinen'],
        cuts: ['midi', 'maxi', 'oversize', 'svobodnyj'],
        fabrics: ['poplin', 'cotton', 'linen', 'viscose', 'silk'],
        details: ['belt', 'chestPockets', 'hiddenPlacket'],
      },
      {
        w: 'Платье-футляр',
        g: 'n',
        adjs: ['klassich'],
        cuts: ['midi', 'mini'],
        fabrics: ['suiting', 'suitingWool', 'tweed', 'boucle'],
        details: ['vNeck', 'slit', 'boatNeck'],
      },
      {
        w: 'Сарафан',
        g: 'm',
        adjs: [],
        cuts: ['midi', 'maxi', 'mini', 'asil'],
        fabrics: ['linen', 'cotton', 'viscose', 'denim'],
        details: ['straps', 'buttons', 'belt', 'pockets'],
      },
    ],
    adjs: ['plissir', 'asimm'],
    cuts: ['midi', 'maxi', 'mini', 'zapah', 'asil', 'pritalen', 'vpol', 'svobodnyj'],
    fabrics: ['silk', 'satin', 'viscose', 'linen', 'cotton', 'poplin', 'wool', 'merino', 'suiting'],
    details: ['belt', 'openBack', 'puffSleeves', 'vNeck', 'drape', 'slit', 'stand'],
    price: [11_800, 24_800],
    sizes: 'clothes',
    colors: POOL_LIGHT,
    lining: { p: 0.4, comps: ['100% вискоза', '100% купра', '100% шёлк'] },
    season: ['Круглый год', 'Весна-лето', 'Демисезон'],
    silhouettes: ['Приталенный', 'Прямой', 'Свободный', 'А-силуэт'],
    lengths: ['Миди', 'Макси', 'Мини', 'До колена'],
    fasteners: ['Потайная молния', 'Пуговицы', 'Без застёжки'],
    stories: [
      'Модель, в которой одинаково уместно выглядеть в офисе и на ужине',
      'Лаконичная модель с аккуратной обработкой горловины и пройм',
      'Модель, которая станет основой гардероба и пригодится в путешествиях',
      'Вещь, которую легко собрать в образ одним аксессуаром',
    ],
    styling: [
      'Носите с ботильонами и жакетом оверсайз',
      'Дополните образ тонким кожаным поясом',
      'Сочетайте с лоферами и кардиганом на плечах',
      'С туфлями на каблуке получится вечерний образ',
    ],
  },
  jumpsuit: {
    nouns: [{ w: 'Комбинезон', g: 'm' }],
    adjs: ['klassich'],
    cuts: ['svobodnyj', 'pryamoj', 'muzh', 'zapah'],
    fabrics: ['linen', 'viscose', 'cotton', 'suiting', 'silk', 'denim'],
    details: ['belt', 'vNeck', 'cargo', 'buttons', 'openBack'],
    price: [12_800, 19_800],
    sizes: 'clothes',
    colors: POOL_TAILORED,
    season: ['Круглый год', 'Весна-лето'],
    silhouettes: ['Прямой', 'Свободный'],
    lengths: ['В пол', 'Укороченная'],
    fasteners: ['Пуговицы', 'Потайная молния'],
    stories: [
      'Комбинезон с широкими брюками, который заменяет целый комплект',
      'Комбинезон с продуманной посадкой: в нём удобно сидеть и легко двигаться',
    ],
    styling: ['Носите с лоферами или кедами', 'Дополните образ жакетом и массивными серьгами'],
  },
  'knit-top': {
    nouns: [
      { w: 'Лонгслив', g: 'm' },
      { w: 'Водолазка', g: 'f', details: ['sideSlits', 'drape'] },
      { w: 'Поло', g: 'n', details: ['buttons', 'sideSlits'], cuts: ['pritalen', 'svobodnyj', 'rubchik'] },
      { w: 'Топ', g: 'm', details: ['highNeck', 'straps', 'offShoulder', 'boatNeck', 'drape'] },
      { w: 'Боди', g: 'n', details: ['highNeck', 'boatNeck', 'vNeck'], cuts: ['rubchik'] },
    ],
    adjs: ['trikotazh', 'ukoroch', 'bazov'],
    cuts: ['rubchik', 'pritalen', 'oversize', 'svobodnyj'],
    fabrics: ['merino', 'knit', 'viscose', 'cashmere', 'knit'],
    details: ['highNeck', 'vNeck', 'boatNeck', 'offShoulder', 'sideSlits'],
    price: [5_900, 12_800],
    sizes: 'clothes',
    colors: POOL_KNIT,
    knitted: true,
    season: ['Круглый год'],
    silhouettes: ['Приталенный', 'Прямой', 'Облегающий'],
    lengths: ['Стандартная', 'Укороченная'],
    stories: [
      'Тонкая трикотажная модель, которую удобно носить самостоятельно или под жакет',
      'Базовая трикотажная вещь с аккуратными плоскими швами',
      'Модель из тонкой пряжи, которая не теряет форму после стирки',
    ],
    styling: [
      'Носите с юбкой миди и ботильонами',
      'Сочетайте с широкими брюками и жакетом',
      'Заправьте в джинсы с высокой посадкой',
    ],
  },
  shirt: {
    nouns: [{ w: 'Рубашка', g: 'f' }],
    adjs: ['klassich', 'udlinen', 'ukoroch'],
    cuts: ['oversize', 'pryamoj', 'svobodnyj', 'muzh', 'polosku', 'kletku'],
    fabrics: ['poplin', 'cotton', 'linen', 'silk', 'viscose', 'flannel', 'poplin'],
    details: ['chestPockets', 'stand', 'snaps', 'hiddenPlacket', 'embroidery'],
    price: [7_900, 12_800],
    sizes: 'clothes',
    colors: POOL_LIGHT,
    season: ['Круглый год'],
    silhouettes: ['Прямой', 'Свободный', 'Оверсайз'],
    lengths: ['Стандартная', 'Удлинённая'],
    fasteners: ['Пуговицы'],
    stories: [
      'Рубашка с аккуратным воротником на мягкой прокладке и двойными швами',
      'Рубашка с закруглённым низом, которую можно носить навыпуск или заправлять',
      'Базовая рубашка, которая работает и в офисе, и с джинсами по выходным',
    ],
    styling: [
      'Носите навыпуск с широкими брюками',
      'Накиньте поверх футболки как лёгкую куртку',
      'Сочетайте с юбкой миди и лоферами',
    ],
  },
  blouse: {
    nouns: [
      { w: 'Блуза', g: 'f' },
      { w: 'Блузка', g: 'f' },
    ],
    adjs: ['asimm', 'klassich'],
    cuts: ['oversize', 'svobodnyj', 'zapah', 'pritalen'],
    fabrics: ['silk', 'satin', 'viscose', 'cotton', 'poplin', 'linen'],
    details: ['bow', 'puffSleeves', 'stand', 'drape', 'pleats', 'vNeck', 'lace'],
    price: [7_900, 13_800],
    sizes: 'clothes',
    colors: POOL_LIGHT,
    season: ['Круглый год'],
    silhouettes: ['Свободный', 'Приталенный', 'Прямой'],
    lengths: ['Стандартная', 'Укороченная'],
    fasteners: ['Пуговицы', 'Без застёжки'],
    stories: [
      'Блуза с мягкими плечами и аккуратными французскими швами внутри',
      'Лёгкая блуза, которая добавит женственности строгому костюму',
      'Блуза с обтянутыми пуговицами на манжетах',
    ],
    styling: ['Заправьте в брюки со стрелками', 'Носите с джинсами и жакетом', 'Сочетайте с юбкой-карандашом'],
  },
  tshirt: {
    nouns: [{ w: 'Футболка', g: 'f' }],
    adjs: ['bazov', 'udlinen', 'ukoroch'],
    cuts: ['oversize', 'pryamoj', 'svobodnyj', 'pritalen', 'polosku'],
    fabrics: ['cotton', 'organic', 'linen', 'cotton'],
    details: ['crew', 'vNeck', 'embroidery', 'print', 'logo'],
    price: [3_500, 5_900],
    sizes: 'clothes',
    colors: POOL_LIGHT,
    season: ['Круглый год', 'Весна-лето'],
    silhouettes: ['Прямой', 'Свободный', 'Оверсайз'],
    lengths: ['Стандартная', 'Укороченная'],
    stories: [
      'Футболка, которая держит форму и не просвечивает даже в светлых оттенках',
      'Базовая футболка с аккуратной горловиной, которая не растягивается после стирки',
      'Футболка с плотными швами и чуть спущенной линией плеча',
    ],
    styling: ['Носите с джинсами и жакетом оверсайз', 'Заправьте в юбку миди', 'Сочетайте с широкими брюками и кедами'],
  },
  top: {
    nouns: [
      { w: 'Топ', g: 'm' },
      { w: 'Топ', g: 'm' },
      { w: 'Майка', g: 'f', details: ['lace', 'openBack'], cuts: ['rubchik', 'svobodnyj'] },
      { w: 'Кроп-топ', g: 'm', adjs: ['bazov', 'asimm'], cuts: ['rubchik', 'pritalen'] },
    ],
    adjs: ['bazov', 'ukoroch', 'asimm'],
    cuts: ['rubchik', 'pritalen', 'svobodnyj'],
    fabrics: ['silk', 'satin', 'cotton', 'viscose', 'knit'],
    details: ['straps', 'drape', 'halter', 'openBack', 'lace'],
    price: [3_900, 6_900],
    sizes: 'clothes',
    colors: POOL_LIGHT,
    season: ['Весна-лето', 'Круглый год'],
    silhouettes: ['Приталенный', 'Свободный'],
    lengths: ['Стандартная', 'Укороченная'],
    stories: [
      'Лёгкий топ, который хорошо смотрится и сам по себе, и под жакетом',
      'Лаконичная модель с аккуратной обработкой краёв',
    ],
    styling: ['Носите с широкими брюками и жакетом', 'Сочетайте с юбкой миди и сандалиями'],
  },
  jeans: {
    nouns: [
      { w: 'Джинсы', g: 'p' },
      { w: 'Джинсы', g: 'p' },
      { w: 'Джинсы-бойфренды', g: 'p', adjs: ['ukoroch'], cuts: ['sredPosadka', 'vysPosadka'] },
      { w: 'Джинсы-трубы', g: 'p', adjs: ['ukoroch', 'klassich'], cuts: ['vysPosadka', 'sredPosadka'] },
    ],
    adjs: ['shirok', 'pryam', 'ukoroch', 'klassich'],
    cuts: ['pryamoj', 'vysPosadka', 'flare', 'svobodnyj', 'sredPosadka'],
    fabrics: ['denim', 'denim', 'denimJp'],
    obviousFabric: 'denim',
    details: ['distressed', 'rawHem', 'cuffs', 'contrast', 'creases'],
    price: [9_800, 13_800],
    sizes: 'clothes',
    colors: POOL_DENIM,
    season: ['Круглый год'],
    silhouettes: ['Прямой', 'Широкий', 'Клёш', 'Свободный'],
    lengths: ['Стандартная', 'Укороченная', 'Удлинённая'],
    fasteners: ['Пуговицы', 'Молния и пуговица'],
    stories: [
      'Пятикарманные джинсы с классическими заклёпками и кожаной нашивкой',
      'Джинсы с выверенной посадкой, которые мы разрабатывали больше года',
      'Джинсы с мягкой ручной обработкой и фирменной строчкой на задних карманах',
    ],
    styling: [
      'Носите с белой рубашкой и лоферами',
      'Сочетайте с объёмным свитером и ботинками',
      'Дополните образ жакетом и футболкой',
    ],
  },
  'denim-jacket': {
    nouns: [
      { w: 'Куртка', g: 'f', requiredAdj: ['dzhins'] },
      { w: 'Куртка', g: 'f', requiredAdj: ['dzhins'] },
      { w: 'Жакет', g: 'm', requiredAdj: ['dzhins'], details: ['patch', 'contrast', 'metalBtn'] },
    ],
    adjs: [],
    cuts: ['oversize', 'pryamoj', 'svobodnyj'],
    fabrics: ['denim'],
    obviousFabric: 'denim',
    details: ['contrast', 'patch', 'distressed', 'sherpa', 'chestPockets'],
    price: [19_800, 19_800],
    sizes: 'clothes',
    colors: POOL_DENIM,
    season: ['Демисезон', 'Круглый год'],
    silhouettes: ['Прямой', 'Свободный', 'Оверсайз'],
    lengths: ['До талии', 'До середины бедра'],
    fasteners: ['Металлические пуговицы'],
    stories: [
      'Джинсовая модель с классическими нагрудными карманами и металлическими пуговицами',
      'Джинсовая куртка на каждый день, которая со временем становится только лучше',
    ],
    styling: [
      'Носите поверх платья миди',
      'Сочетайте с джинсами другого оттенка в стиле total denim',
      'Накиньте на худи или свитер',
    ],
  },
  'fur-coat': {
    nouns: [
      { w: 'Шуба', g: 'f' },
      { w: 'Шуба', g: 'f' },
      { w: 'Полушубок', g: 'm', cuts: ['oversize', 'svobodnyj'], adjs: ['obyomn'] },
      {
        w: 'Дублёнка',
        g: 'f',
        fabrics: ['sheepskin'],
        details: ['belt', 'hood', 'lapel', 'zip'],
        adjs: ['ukoroch', 'udlinen', 'klassich'],
      },
    ],
    adjs: ['ukoroch', 'udlinen', 'obyomn'],
    cuts: ['oversize', 'svobodnyj', 'midi', 'maxi', 'zapah'],
    fabrics: ['ecoFur', 'sheepskin', 'mouton', 'ecoFur'],
    details: ['hood', 'belt', 'lapel', 'stand'],
    price: [69_000, 120_000],
    sizes: 'clothes',
    colors: POOL_FUR,
    lining: { p: 1, comps: ['100% вискоза', '100% купра'] },
    season: ['Зима'],
    silhouettes: ['Свободный', 'Оверсайз', 'Прямой'],
    lengths: ['До середины бедра', 'Миди', 'Макси'],
    fasteners: ['Крючки', 'Пуговицы', 'Пояс'],
    stories: [
      'Тёплая модель с широкими рукавами и глубокими карманами в боковых швах',
      'Модель шьют наши мастера вручную небольшими партиями, подбирая полотна по оттенку и длине ворса',
      'Лёгкая для своего тепла модель с мягкими плечами и потайными карманами',
    ],
    styling: [
      'Носите с джинсами и высокими сапогами',
      'Сочетайте с вечерним платьем для особого случая',
      'Дополните образ кашемировой шапкой',
    ],
  },
  bag: {
    nouns: [
      { w: 'Сумка', g: 'f', cuts: ['cherez'] },
      { w: 'Сумка', g: 'f', cuts: ['cherez'] },
      { w: 'Сумка-тоут', g: 'f', adjs: ['bolsh', 'mal'] },
      {
        w: 'Сумка-шопер',
        g: 'f',
        adjs: ['bolsh'],
        fabrics: ['cotton', 'leather', 'suede'],
        details: ['logo', 'wideStrap'],
      },
      { w: 'Клатч', g: 'm', adjs: ['mal', 'stegan'], details: ['chain', 'flap', 'goldHardware'] },
      { w: 'Рюкзак', g: 'm', adjs: ['mal'], details: ['flap', 'zip', 'hardware'] },
    ],
    adjs: ['bolsh', 'mal', 'stegan'],
    cuts: [],
    fabrics: ['leather', 'leather', 'suede', 'ecoLeather'],
    details: ['chain', 'wideStrap', 'zip', 'flap', 'hardware', 'fringe'],
    price: [9_800, 26_800],
    sizes: 'one',
    colors: POOL_LEATHER,
    lining: { p: 0.8, comps: ['100% хлопок', 'Натуральная замша', '100% полиэстер'] },
    season: ['Круглый год'],
    stories: [
      'Сумка с одним просторным отделением, внутренним карманом на молнии и карманом для телефона',
      'Модель с жёстким дном и металлическими ножками, которые защищают сумку от потёртостей',
      'Края кожи окрашены и отполированы вручную',
    ],
    styling: [
      'Подходит и к деловому костюму, и к джинсам',
      'В сумку помещается документ формата А4 и ноутбук 13 дюймов',
    ],
  },
  scarf: {
    nouns: [
      { w: 'Шарф', g: 'm' },
      { w: 'Шарф', g: 'm' },
      { w: 'Палантин', g: 'm', fabrics: ['cashmere', 'woolCashmere', 'silk', 'wool'], cuts: ['kletku'] },
      { w: 'Платок', g: 'm', adjs: ['bolsh'], fabrics: ['silk', 'cashmere'], cuts: [], details: ['print', 'fringe'] },
      { w: 'Снуд', g: 'm', adjs: ['vyazan', 'obyomn'], cuts: ['krupn', 'rubchik'], details: [] },
    ],
    adjs: ['vyazan', 'obyomn', 'dlinn'],
    cuts: ['krupn', 'rubchik', 'kletku'],
    fabrics: ['cashmere', 'merino', 'mohair', 'alpaca', 'woolCashmere', 'wool'],
    details: ['fringe', 'tassels', 'logo'],
    price: [4_900, 14_800],
    sizes: 'one',
    colors: POOL_KNIT,
    knitted: true,
    season: ['Осень-зима'],
    stories: [
      'Длинный мягкий аксессуар, который можно обернуть вокруг шеи несколько раз',
      'Тёплый аксессуар, который легко сочетать с любой верхней одеждой',
    ],
    styling: ['Сочетайте с пальто в тон', 'Накиньте на плечи поверх жакета'],
  },
  hat: {
    nouns: [
      { w: 'Шапка', g: 'f' },
      { w: 'Шапка', g: 'f' },
      { w: 'Берет', g: 'm', adjs: ['klassich'], fabrics: ['wool', 'cashmere', 'merino'], cuts: [], details: ['logo'] },
      { w: 'Балаклава', g: 'f', adjs: ['vyazan'], cuts: ['rubchik', 'krupn'], details: [] },
      {
        w: 'Панама',
        g: 'f',
        adjs: [],
        fabrics: ['cotton', 'linen', 'denim'],
        cuts: [],
        details: ['logo', 'embroidery'],
      },
    ],
    adjs: ['vyazan', 'obyomn'],
    cuts: ['krupn', 'rubchik'],
    fabrics: ['merino', 'cashmere', 'mohair', 'alpaca', 'woolCashmere'],
    details: ['turnUp', 'pompom', 'logo'],
    price: [3_900, 8_900],
    sizes: 'one',
    colors: POOL_KNIT,
    knitted: true,
    season: ['Осень-зима'],
    stories: [
      'Головной убор мягко облегает голову и не оставляет заломов на волосах',
      'Модель связана бесшовно, поэтому её удобно носить под капюшоном',
    ],
    styling: ['Сочетайте с шарфом из той же пряжи', 'Носите с пуховиком или пальто оверсайз'],
  },
  belt: {
    nouns: [
      { w: 'Ремень', g: 'm' },
      { w: 'Пояс', g: 'm', details: ['buckle', 'eyelets'] },
    ],
    adjs: ['shirok', 'uzk', 'klassich'],
    cuts: [],
    fabrics: ['leather', 'leather', 'suede', 'ecoLeather'],
    details: ['buckle', 'goldHardware', 'eyelets'],
    price: [3_900, 8_900],
    sizes: 'one',
    colors: POOL_LEATHER,
    season: ['Круглый год'],
    stories: [
      'Аксессуар, который легко меняет пропорции образа',
      'Ремень длиной 110 см регулируется пятью отверстиями',
    ],
    styling: ['Носите поверх пальто или платья', 'Сочетайте с джинсами и рубашкой'],
  },
  boots: {
    nouns: [
      { w: 'Ботинки', g: 'p' },
      { w: 'Сапоги', g: 'p', adjs: ['vysok', 'klassich', 'zimn'] },
      { w: 'Ботильоны', g: 'p', adjs: ['klassich'], details: ['heel', 'pointed', 'square', 'zip'] },
      { w: 'Челси', g: 'p', adjs: ['klassich'], details: ['lug', 'flat', 'square', 'heel'] },
    ],
    adjs: ['klassich', 'zimn', 'utepl'],
    cuts: [],
    fabrics: ['leather', 'leather', 'suede'],
    details: ['lug', 'laces', 'heel', 'flat', 'square', 'furLined', 'zip'],
    price: [19_800, 34_800],
    sizes: 'shoes',
    colors: POOL_LEATHER,
    lining: { p: 1, comps: ['Натуральная кожа'] },
    season: ['Демисезон'],
    fasteners: ['Молния', 'Шнуровка', 'Без застёжки'],
    stories: [
      'Обувь отшита на фабрике в Италии на колодке, рассчитанной на широкую стопу',
      'Модель с мягкой стелькой из натуральной кожи и устойчивым каблуком',
      'Подошва прошита, а не приклеена, поэтому её можно заменить в мастерской',
    ],
    styling: ['Носите с юбкой миди или платьем', 'Сочетайте с прямыми джинсами и пальто'],
  },
  shoes: {
    nouns: [
      { w: 'Лоферы', g: 'p', details: ['flat', 'square', 'platform', 'buckle', 'chain'] },
      { w: 'Туфли', g: 'p', details: ['heel', 'pointed', 'square', 'buckle'] },
      { w: 'Мюли', g: 'p', details: ['heel', 'flat', 'square', 'pointed'] },
      { w: 'Балетки', g: 'p', details: ['square', 'pointed', 'buckle'] },
      { w: 'Кеды', g: 'p', fabrics: ['leather', 'suede'], details: ['platform', 'logo'] },
      { w: 'Слингбэки', g: 'p', details: ['heel', 'pointed', 'square'] },
    ],
    adjs: ['klassich'],
    cuts: [],
    fabrics: ['leather', 'leather', 'suede'],
    details: ['heel', 'flat', 'square', 'pointed', 'buckle'],
    price: [14_800, 26_800],
    sizes: 'shoes',
    colors: POOL_LEATHER,
    lining: { p: 1, comps: ['Натуральная кожа'] },
    season: ['Весна-лето', 'Демисезон'],
    stories: [
      'Обувь отшита на фабрике в Италии на мягкой колодке, которая не требует разнашивания',
      'Модель с кожаной стелькой и тонким амортизирующим слоем в пятке',
    ],
    styling: [
      'Носите с брюками со стрелками',
      'Сочетайте с джинсами прямого кроя и жакетом',
      'Дополните образ платьем миди',
    ],
  },
  'gift-card': {
    nouns: [{ w: 'Подарочная карта', g: 'f' }],
    adjs: [],
    cuts: [],
    fabrics: [],
    details: [],
    price: [5_000, 50_000],
    sizes: 'one',
    colors: ['chernyj'],
    season: [],
    stories: [],
    styling: [],
  },
};

// ---------------------------------------------------------------------------------------
// Which kinds go in which section (with per-section overrides)
// ---------------------------------------------------------------------------------------

interface KindPick {
  kind: CatalogKind;
  w: number;
  nouns?: Noun[];
  fabrics?: FabricKey[];
  adjs?: AdjKey[];
  requiredAdj?: AdjKey[];
  adjP?: number;
  colors?: string[];
}

const SECTION_PICKS: Record<string, KindPick[]> = {
  uteplyennye_palto: [{ kind: 'warm-coat', w: 1 }],
  demisezonnye_palto: [{ kind: 'coat', w: 1 }],
  kurtki_plashchi: [
    { kind: 'trench', w: 3 },
    { kind: 'puffer', w: 2 },
  ],
  zhakety: [{ kind: 'blazer', w: 1 }],
  svitery_i_dzhempery: [
    { kind: 'sweater', w: 3 },
    { kind: 'cardigan', w: 1 },
  ],
  bryuki_i_shorty: [
    { kind: 'trousers', w: 3 },
    { kind: 'shorts', w: 1 },
  ],
  yubki: [{ kind: 'skirt', w: 1 }],
  platya_i_kombinezony: [
    { kind: 'dress', w: 4 },
    { kind: 'jumpsuit', w: 1 },
  ],
  trikotazh: [
    { kind: 'knit-top', w: 5 },
    {
      kind: 'dress',
      w: 2,
      nouns: [
        {
          w: 'Платье',
          g: 'n',
          cuts: ['midi', 'maxi', 'mini', 'pritalen', 'rubchik'],
          details: ['highNeck', 'vNeck', 'slit', 'belt', 'boatNeck'],
        },
        { w: 'Платье-свитер', g: 'n', cuts: ['oversize', 'midi', 'krupn'], details: ['highNeck', 'sideSlits'] },
      ],
      fabrics: ['merino', 'knit', 'cashmere', 'woolCashmere'],
      adjs: ['trikotazh', 'vyazan'],
      adjP: 0.6,
    },
    {
      kind: 'skirt',
      w: 1,
      nouns: [{ w: 'Юбка', g: 'f', cuts: ['midi', 'maxi', 'rubchik'], details: ['slit', 'elastic'] }],
      fabrics: ['merino', 'knit', 'woolCashmere'],
      adjs: ['trikotazh', 'vyazan', 'plissir'],
      adjP: 0.6,
    },
    {
      kind: 'trousers',
      w: 1,
      nouns: [{ w: 'Брюки', g: 'p', cuts: ['rubchik', 'svobodnyj', 'flare'], details: ['elastic', 'creases'] }],
      fabrics: ['merino', 'knit', 'woolCashmere'],
      adjs: ['trikotazh', 'shirok'],
      adjP: 0.6,
    },
  ],
  rubashki_bluzki: [
    { kind: 'shirt', w: 1 },
    { kind: 'blouse', w: 1 },
  ],
  futbolki_topy: [
    { kind: 'tshirt', w: 3 },
    { kind: 'top', w: 2 },
  ],
  denim: [
    { kind: 'jeans', w: 6 },
    { kind: 'denim-jacket', w: 2 },
    {
      kind: 'skirt',
      w: 1,
      nouns: [
        {
          w: 'Юбка',
          g: 'f',
          cuts: ['midi', 'maxi', 'mini', 'asil'],
          details: ['slit', 'buttons', 'rawHem', 'pockets'],
        },
      ],
      fabrics: ['denim'],
      requiredAdj: ['dzhins'],
      colors: POOL_DENIM,
    },
    {
      kind: 'shirt',
      w: 1,
      nouns: [
        {
          w: 'Рубашка',
          g: 'f',
          cuts: ['oversize', 'svobodnyj', 'pryamoj'],
          details: ['chestPockets', 'snaps', 'contrast'],
        },
      ],
      fabrics: ['denim'],
      requiredAdj: ['dzhins'],
      colors: POOL_DENIM,
    },
  ],
  shuby: [{ kind: 'fur-coat', w: 1 }],
  aksessuar: [
    { kind: 'bag', w: 3 },
    { kind: 'boots', w: 2 },
    { kind: 'shoes', w: 2 },
    { kind: 'scarf', w: 2 },
    { kind: 'hat', w: 1 },
    { kind: 'belt', w: 1 },
  ],
  muzhchinam: [
    {
      kind: 'coat',
      w: 3,
      nouns: [
        { w: 'Пальто', g: 'n' },
        { w: 'Полупальто', g: 'n', adjs: ['dvubort', 'odnobort'] },
      ],
    },
    { kind: 'warm-coat', w: 1 },
    { kind: 'puffer', w: 2, nouns: [{ w: 'Пуховик', g: 'm', adjs: ['ukoroch', 'udlinen', 'stegan'] }] },
    {
      kind: 'blazer',
      w: 2,
      nouns: [
        { w: 'Пиджак', g: 'm' },
        { w: 'Блейзер', g: 'm' },
      ],
    },
    {
      kind: 'sweater',
      w: 3,
      nouns: [
        { w: 'Свитер', g: 'm' },
        { w: 'Джемпер', g: 'm' },
        { w: 'Водолазка', g: 'f', cuts: ['rubchik', 'svobodnyj'], details: ['sideSlits'], adjs: ['bazov'] },
      ],
    },
    { kind: 'cardigan', w: 1 },
    {
      kind: 'trousers',
      w: 2,
      nouns: [
        { w: 'Брюки', g: 'p' },
        { w: 'Брюки-чинос', g: 'p', adjs: ['klassich'], fabrics: ['cotton', 'linen'], cuts: ['pryamoj', 'svobodnyj'] },
      ],
    },
    { kind: 'shirt', w: 2 },
    { kind: 'tshirt', w: 2 },
    { kind: 'jeans', w: 2, nouns: [{ w: 'Джинсы', g: 'p' }] },
    { kind: 'denim-jacket', w: 1, nouns: [{ w: 'Куртка', g: 'f', requiredAdj: ['dzhins'] }] },
    { kind: 'scarf', w: 1, nouns: [{ w: 'Шарф', g: 'm' }] },
  ],
};

const MEN_PREFIX = ['Мужской', 'Мужская', 'Мужское', 'Мужские'] as const;

/** Styling advice for the men's section (the kinds' own advice speaks of skirts and dresses). */
const MEN_STYLING: Partial<Record<GarmentKind, readonly string[]>> = {
  coat: ['Носите с шерстяными брюками и дерби', 'Сочетайте с водолазкой и прямыми джинсами'],
  'warm-coat': ['Сочетайте с объёмным шарфом и грубыми ботинками'],
  puffer: ['Носите с прямыми джинсами и массивными ботинками'],
  blazer: ['Носите с водолазкой и брюками из той же ткани', 'Сочетайте с белой футболкой и прямыми джинсами'],
  sweater: ['Носите с прямыми джинсами или брюками-чинос', 'Сочетайте с пальто и шерстяными брюками'],
  cardigan: ['Носите поверх футболки с брюками-чинос'],
  trousers: ['Сочетайте с водолазкой и пиджаком', 'Носите с рубашкой навыпуск и лоферами'],
  shirt: ['Носите навыпуск с прямыми джинсами', 'Сочетайте с пиджаком и брюками-чинос'],
  tshirt: ['Носите с прямыми джинсами и пиджаком', 'Сочетайте с брюками-чинос и кедами'],
  jeans: ['Носите с белой рубашкой и лоферами', 'Сочетайте с объёмным свитером и ботинками'],
  'denim-jacket': ['Носите поверх худи или свитера'],
  scarf: ['Сочетайте с пальто в тон'],
};

// ---------------------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------------------

const CLOTHES_SIZES: ReadonlyArray<readonly [number, string]> = [
  [40, 'XXS'],
  [42, 'XS'],
  [44, 'S'],
  [46, 'M'],
  [48, 'L'],
  [50, 'XL'],
  [52, 'XXL'],
];
const SHOE_SIZES = [35, 36, 37, 38, 39, 40, 41];

function intlOf(size: number): string {
  for (const [ru, intl] of CLOTHES_SIZES) if (ru === size) return intl;
  return '';
}

// ---------------------------------------------------------------------------------------
// Cycle plan
// ---------------------------------------------------------------------------------------

interface PlannedModel {
  sectionCode: string;
  variants: number;
  /** Index into SECTION_PICKS[sectionCode]. */
  pick: number;
  /** New collection or sale: dealt per cycle so that ~25 % / ~20 % of products get them. */
  flag: 'new' | 'sale' | null;
  giftNominal?: number;
}

const NEW_SHARE = 0.25;
const SALE_SHARE = 0.2;

function planCycle(seed: number, cycle: number): PlannedModel[] {
  const rng = new Rng(mix(seed, 0x5eed, cycle));
  const models: PlannedModel[] = [];
  for (const [sectionCode, count] of QUOTAS) {
    // Kinds are dealt from a shuffled deck (each kind repeated by its weight), so a
    // section shows a spread of kinds rather than whatever the dice favour.
    const picks = SECTION_PICKS[sectionCode] ?? [];
    const deck = picks.flatMap((p, i) => Array.from({ length: p.w }, () => i));
    rng.shuffle(deck);
    let dealt = 0;
    let left = count;
    while (left > 0) {
      const k = Math.min(
        left,
        rng.weighted([
          { w: 4, v: 1 },
          { w: 4, v: 2 },
          { w: 2, v: 3 },
        ]),
      );
      models.push({ sectionCode, variants: k, pick: deck[dealt++ % deck.length] ?? 0, flag: null });
      left -= k;
    }
  }
  rng.shuffle(models);
  const clothing = models.reduce((sum, m) => sum + m.variants, 0);
  let newLeft = Math.round(clothing * NEW_SHARE);
  let saleLeft = Math.round(clothing * SALE_SHARE);
  for (const m of models) {
    if (m.variants <= newLeft) {
      m.flag = 'new';
      newLeft -= m.variants;
    } else if (m.variants <= saleLeft) {
      m.flag = 'sale';
      saleLeft -= m.variants;
    }
  }
  if (cycle === 0) {
    for (const nominal of GIFT_CARD_NOMINALS)
      models.push({ sectionCode: CERTIFICATE_SECTION.code, variants: 1, pick: 0, flag: null, giftNominal: nominal });
  }
  rng.shuffle(models);
  return models;
}

// ---------------------------------------------------------------------------------------
// Model building
// ---------------------------------------------------------------------------------------

interface ModelDraft {
  modelNo: number;
  sectionCode: string;
  kind: GarmentKind;
  men: boolean;
  name: string;
  description: string;
  composition: string | null;
  lining: string | null;
  insulation: string | null;
  care: string | null;
  attributes: Array<[string, string]>;
  priceRub: number;
  oldPriceRub: number | null;
  isNew: boolean;
  createdMs: number;
  colors: SeedColor[];
  sizeMode: SizeMode | 'gift';
  fabricStory: string | null;
  sizeRun: number[];
  modelParams: SeedProperty[];
}

const MS_DAY = 86_400_000;
const DATE_START = Date.UTC(2025, 8, 1); // 2025-09-01
const DATE_NEW = Date.UTC(2026, 7, 1); // 2026-08-01: the new collection
const DATE_END = Date.UTC(2026, 10, 1); // 2026-11-01 (exclusive)

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "Nice" shop prices within [min, max]: whole hundreds ending in 000, 500, 800 or 900. */
function priceCandidates(min: number, max: number): number[] {
  const out: number[] = [];
  for (let v = Math.ceil(min / 100) * 100; v <= max; v += 100) {
    const tail = v % 1000;
    if (tail === 0 || tail === 500 || tail === 800 || tail === 900) out.push(v);
  }
  if (out.length === 0) out.push(Math.round(min / 100) * 100);
  return out;
}

const PRICE_CACHE = new Map<string, number[]>();
function pricesFor(min: number, max: number): number[] {
  const key = `${min}-${max}`;
  let list = PRICE_CACHE.get(key);
  if (!list) {
    list = priceCandidates(min, max);
    PRICE_CACHE.set(key, list);
  }
  return list;
}

function pickPrice(rng: Rng, range: readonly [number, number], tier: number, isNew: boolean): number {
  let list = pricesFor(range[0], range[1]);
  if (isNew) {
    const fromFive = list.filter((p) => p >= 5_000);
    if (fromFive.length > 0) list = fromFive;
  }
  const n = list.length;
  // tier 0: lower 60 %, tier 1: middle 20–85 %, tier 2: upper half.
  const [a, b] = tier === 0 ? [0, 0.6] : tier === 1 ? [0.2, 0.85] : [0.5, 1];
  const lo = Math.min(n - 1, Math.floor(a * n));
  const hi = Math.max(lo, Math.min(n - 1, Math.ceil(b * n) - 1));
  return list[rng.int(lo, hi)] as number;
}

/** The gift slots of cycle 0 are the electronic certificates (the plastic ones: certificates.server.ts). */
function buildGiftCard(plan: PlannedModel, rng: Rng, modelNo: number): ModelDraft {
  const nominal = plan.giftNominal ?? 5_000;
  const copy = certificateCopy('electronic', nominal);
  const black = colorByCode(CERTIFICATE_COLOR.electronic.code);
  return {
    modelNo,
    sectionCode: CERTIFICATE_SECTION.code,
    kind: 'gift-card',
    men: false,
    name: copy.name,
    description: copy.description,
    composition: null,
    lining: null,
    insulation: null,
    care: null,
    attributes: copy.attributes,
    priceRub: nominal,
    oldPriceRub: null,
    isNew: false,
    createdMs: DATE_START + rng.int(0, 20) * MS_DAY + rng.int(10, 18) * 3_600_000,
    colors: [black],
    sizeMode: 'gift',
    fabricStory: null,
    sizeRun: [],
    modelParams: [],
  };
}

function buildModel(plan: PlannedModel, rng: Rng, modelNo: number): ModelDraft {
  if (plan.sectionCode === CERTIFICATE_SECTION.code) return buildGiftCard(plan, rng, modelNo);
  const picks = SECTION_PICKS[plan.sectionCode];
  if (!picks) throw new Error(`no kinds for section ${plan.sectionCode}`);
  const pick = picks[plan.pick] ?? rng.pick(picks);
  const kind = pick.kind;
  const spec = KINDS[kind];
  const men = plan.sectionCode === 'muzhchinam';

  // ---- name -----------------------------------------------------------------------
  const noun = rng.pick(pick.nouns ?? spec.nouns);
  const fabricKey = rng.pick(noun.fabrics ?? pick.fabrics ?? spec.fabrics);
  const fabric: Fabric = FABRIC[fabricKey];
  const requiredAdj = noun.requiredAdj ?? pick.requiredAdj ?? spec.requiredAdj;
  let adjPool = noun.adjs ?? pick.adjs ?? spec.adjs;
  let cutPool = noun.cuts ?? spec.cuts;
  let detailPool = noun.details ?? spec.details;
  if (men) {
    adjPool = adjPool.filter((a) => !MEN_ADJS_EXCLUDED.has(a));
    cutPool = cutPool.filter((c) => !MEN_CUTS_EXCLUDED.has(c));
    detailPool = detailPool.filter((d) => !MEN_DETAILS_EXCLUDED.has(d));
  }

  let adj: AdjKey | null = null;
  if (requiredAdj && requiredAdj.length > 0) adj = rng.pick(requiredAdj);
  else if (adjPool.length > 0 && rng.chance(pick.adjP ?? 0.35)) adj = rng.pick(adjPool);
  const usedSlots = new Set<Slot>();
  if (adj) usedSlots.add(ADJ[adj].slot);

  let cut: CutKey | null = null;
  const cutOptions = cutPool.filter((c) => !usedSlots.has(CUT[c].slot));
  if (cutOptions.length > 0 && rng.chance(0.5)) {
    cut = rng.pick(cutOptions);
    usedSlots.add(CUT[cut].slot);
  }

  const fabricNameable =
    fabricKey !== spec.obviousFabric &&
    !(adj === 'dzhins' && fabricKey === 'denim') &&
    !((adj === 'trikotazh' || adj === 'vyazan') && fabricKey === 'knit');
  let showFabric = fabricNameable && rng.chance(spec.fabricInNameP ?? 0.7);

  let detail: DetailKey | null = null;
  if (detailPool.length > 0 && rng.chance(0.45)) detail = rng.pick(detailPool);

  // Two prepositional tails in a row ('со средней посадкой с контрастной строчкой') read badly.
  if (cut && detail && /^со? /.test(CUT[cut].text) && /^со? /.test(DETAIL[detail][0])) detail = null;
  // At most three modifiers (the men's prefix counts as one); at least one.
  let modifiers = (men ? 1 : 0) + (adj ? 1 : 0) + (cut ? 1 : 0) + (showFabric ? 1 : 0) + (detail ? 1 : 0);
  while (modifiers > 3) {
    if (detail && (!cut || rng.chance(0.5))) detail = null;
    else if (cut) cut = null;
    else showFabric = false;
    modifiers--;
  }
  if (modifiers === (men ? 1 : 0)) {
    if (fabricNameable) showFabric = true;
    else if (cutPool.length > 0) cut = rng.pick(cutPool);
    else if (detailPool.length > 0) detail = rng.pick(detailPool);
  }

  const g = GENDER_INDEX[noun.g];
  // Words before the noun (prefix, adjective, noun) change case with position; the
  // invariant tails ('А-силуэта', 'с V-образным вырезом') are kept as written.
  const head: string[] = [];
  if (men) head.push(MEN_PREFIX[g] as string);
  if (adj) head.push(ADJ[adj].forms[g] as string);
  head.push(noun.w);
  const tail: string[] = [];
  if (cut) tail.push(CUT[cut].text);
  if (showFabric) tail.push(fabric.phrase);
  if (detail) tail.push(DETAIL[detail][0]);
  const name = [...head.map((p, i) => (i === 0 ? upperFirst(p) : lowerFirst(p))), ...tail].join(' ');

  // ---- description ----------------------------------------------------------------
  const sentences: string[] = [rng.pick(spec.stories), rng.pick(fabric.story)];
  const extras: string[] = [];
  if (detail) extras.push(DETAIL[detail][1]);
  if (cut) extras.push(CUT[cut].story);
  if (extras.length > 0) sentences.push(rng.pick(extras));
  const styling = men ? (MEN_STYLING[kind] ?? []) : spec.styling;
  if (sentences.length < 4 && styling.length > 0 && rng.chance(0.6)) sentences.push(rng.pick(styling));
  const description = sentences.map((s) => `${s}.`).join(' ');

  // ---- composition and care -------------------------------------------------------
  const composition = rng.pick(fabric.comps);
  let lining: string | null = null;
  if (spec.lining && rng.chance(spec.lining.p)) lining = rng.pick(spec.lining.comps);
  const winterBoots = kind === 'boots' && (detail === 'furLined' || adj === 'zimn' || adj === 'utepl');
  if (winterBoots) lining = 'Натуральный мех (овчина)';
  if (noun.w === 'Дублёнка') lining = null;
  const insulation = spec.insulation ? rng.pick(spec.insulation) : null;
  const careKey: CareKey = spec.knitted && fabric.woolly ? 'knit' : fabric.care;

  // ---- characteristics ------------------------------------------------------------
  const attributes: Array<[string, string]> = [];
  attributes.push(['Сезон', winterBoots ? 'Зима' : rng.pick(spec.season)]);
  const cutDef = cut ? (CUT[cut] as { silhouette?: string; length?: string }) : null;
  if (spec.silhouettes) attributes.push(['Силуэт', cutDef?.silhouette ?? rng.pick(spec.silhouettes)]);
  if (spec.lengths) {
    let length = cutDef?.length ?? rng.pick(spec.lengths);
    if (adj === 'ukoroch') length = 'Укороченная';
    if (adj === 'udlinen') length = 'Удлинённая';
    attributes.push(['Длина', length]);
  }
  if (spec.fasteners) attributes.push(['Застёжка', rng.pick(spec.fasteners)]);
  if (kind === 'bag') attributes.push(['Размеры', `${rng.int(24, 42)} × ${rng.int(16, 32)} × ${rng.int(8, 16)} см`]);
  if (kind === 'scarf')
    attributes.push([
      'Размеры',
      noun.w === 'Платок' ? '90 × 90 см' : `${rng.pick([180, 190, 200])} × ${rng.pick([30, 35, 40, 70])} см`,
    ]);
  if (kind === 'boots' || kind === 'shoes') {
    const heel = detail === 'heel' || noun.w === 'Ботильоны' ? rng.pick([5, 6, 7]) : rng.pick([1, 2, 3]);
    attributes.push(['Высота каблука', `${heel} см`]);
    attributes.push(['Материал подошвы', rng.pick(['Резина', 'Кожа', 'Полиуретан'])]);
  }
  attributes.push(['Страна производства', kind === 'boots' || kind === 'shoes' ? 'Италия' : 'Россия']);

  // ---- price and flags ------------------------------------------------------------
  const isNew = plan.flag === 'new';
  const onSale = plan.flag === 'sale';
  const priceRub = pickPrice(rng, spec.price, fabric.tier, isNew);
  let oldPriceRub: number | null = null;
  if (onSale) {
    const factor = 1 + rng.int(10, 30) / 100;
    oldPriceRub = Math.floor((priceRub * factor) / 100) * 100;
    if (oldPriceRub <= priceRub) oldPriceRub = priceRub + 100;
  }
  const createdMs = isNew
    ? DATE_NEW + Math.floor(rng.next() * (DATE_END - DATE_NEW - MS_DAY))
    : DATE_START + Math.floor(rng.next() * (DATE_NEW - DATE_START - MS_DAY));

  // ---- colours ----------------------------------------------------------------------
  let pool = pick.colors ?? spec.colors;
  if (men) pool = pool.filter((c) => !MEN_EXCLUDED_COLORS.has(c));
  const colors = rng.sample(pool, plan.variants).map(colorByCode);

  // ---- sizes and model ----------------------------------------------------------------
  let sizeRun: number[] = [];
  const modelParams: SeedProperty[] = [];
  if (spec.sizes === 'clothes') {
    const all = CLOTHES_SIZES.map(([ru]) => ru);
    const len = men ? rng.int(3, 4) : rng.int(3, 6);
    const startMin = men ? 2 : 0; // men from 44
    const startMax = Math.min(all.length - len, men ? 3 : 2);
    const start = rng.int(Math.min(startMin, startMax), startMax);
    sizeRun = all.slice(start, start + len);
    const preferred = men ? [48, 50, 46] : [42, 44, 40, 46];
    const onModel = preferred.find((s) => sizeRun.includes(s)) ?? (sizeRun[0] as number);
    modelParams.push({
      code: 'RAZMER_NA_FOTOMODELI',
      name: 'Размер на фотомодели',
      value: `${onModel} (${intlOf(onModel)})`,
    });
    if (men) {
      modelParams.push({ code: 'ROST', name: 'Рост', value: `${rng.int(185, 190)} см` });
      modelParams.push({ code: 'GRUD', name: 'Обхват груди', value: `${rng.int(94, 102)} см` });
      modelParams.push({ code: 'TALIYA', name: 'Обхват талии', value: `${rng.int(76, 84)} см` });
      modelParams.push({ code: 'BEDRA', name: 'Обхват бёдер', value: `${rng.int(94, 100)} см` });
    } else {
      modelParams.push({ code: 'ROST', name: 'Рост', value: `${rng.int(172, 180)} см` });
      modelParams.push({ code: 'GRUD', name: 'Обхват груди', value: `${rng.int(80, 88)} см` });
      modelParams.push({ code: 'TALIYA', name: 'Обхват талии', value: `${rng.int(58, 64)} см` });
      modelParams.push({ code: 'BEDRA', name: 'Обхват бёдер', value: `${rng.int(86, 92)} см` });
    }
  } else if (spec.sizes === 'shoes') {
    const len = rng.int(3, 6);
    const start = rng.int(0, SHOE_SIZES.length - len);
    sizeRun = SHOE_SIZES.slice(start, start + len);
    const onModel = [37, 38, 36].find((s) => sizeRun.includes(s)) ?? (sizeRun[0] as number);
    modelParams.push({ code: 'RAZMER_NA_FOTOMODELI', name: 'Размер на фотомодели', value: String(onModel) });
    modelParams.push({ code: 'ROST', name: 'Рост', value: `${rng.int(172, 180)} см` });
  } else if (kind === 'hat') {
    modelParams.push({
      code: 'OKRUZHNOST_GOLOVY',
      name: 'Обхват головы',
      value: rng.pick(['54–57 см', '55–58 см', '56–59 см']),
    });
    modelParams.push({ code: 'ROST', name: 'Рост', value: `${rng.int(172, 180)} см` });
  } else if (kind === 'scarf') {
    modelParams.push({
      code: 'ROST',
      name: 'Рост',
      value: men ? `${rng.int(185, 190)} см` : `${rng.int(172, 180)} см`,
    });
  }

  return {
    modelNo,
    sectionCode: plan.sectionCode,
    kind,
    men,
    name,
    description,
    composition,
    lining,
    insulation,
    care: CARE[careKey],
    attributes,
    priceRub,
    oldPriceRub,
    isNew,
    createdMs,
    colors,
    sizeMode: spec.sizes,
    fabricStory: fabric.story[0] ?? null,
    sizeRun,
    modelParams,
  };
}

// ---------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------

function buildOffers(draft: ModelDraft, rng: Rng): SeedOffer[] {
  if (draft.sizeMode === 'gift')
    return [
      { sizeType: 'none', size: 'Единый', intlSize: null, quantity: CERTIFICATE_STOCK.electronic, preorder: false },
    ];
  const stock = (): { quantity: number; preorder: boolean } => {
    if (rng.chance(0.16)) return { quantity: 0, preorder: rng.chance(0.5) };
    return { quantity: rng.int(1, 12), preorder: false };
  };
  if (draft.sizeMode === 'one') return [{ sizeType: 'clothes', size: 'Единый', intlSize: null, ...stock() }];
  const sizeType = draft.sizeMode === 'shoes' ? 'shoes' : 'clothes';
  return draft.sizeRun.map((s) => ({
    sizeType,
    size: String(s),
    intlSize: sizeType === 'clothes' ? intlOf(s) : null,
    ...stock(),
  }));
}

function seoText(draft: ModelDraft, color: SeedColor): string {
  const what = lowerFirst(draft.name);
  const parts = [
    `Купить ${what} в цвете «${lowerFirst(color.name)}» можно в интернет-магазине Vitrina и в наших магазинах в Москве и Санкт-Петербурге.`,
  ];
  if (draft.fabricStory) parts.push(`${draft.fabricStory}.`);
  if (draft.composition) parts.push(`Состав: ${draft.composition}.`);
  parts.push(
    'Доставляем по Москве курьером с примеркой, по России — за 2–9 дней, а также в страны СНГ и по всему миру. ' +
      'Оплатить заказ можно картой или частями: четыре платежа раз в две недели.',
  );
  return parts.join(' ');
}

function buildProduct(
  draft: ModelDraft,
  variant: number,
  index: number,
  rng: Rng,
  slugCounts: Map<string, number>,
): SeedProduct {
  const color = draft.colors[variant] ?? (draft.colors[0] as SeedColor);
  const base =
    draft.kind === 'gift-card'
      ? certificateCopy('electronic', draft.priceRub).slug
      : `${slugify(draft.name)}-${color.code}`;
  const seen = (slugCounts.get(base) ?? 0) + 1;
  slugCounts.set(base, seen);
  const slug = seen === 1 ? base : `${base}-${seen}`;

  const created = new Date(draft.createdMs + variant * 3 * 3_600_000);
  const yy = String(created.getUTCFullYear() % 100).padStart(2, '0');

  const properties: SeedProperty[] = [];
  if (draft.composition) properties.push({ code: 'SOSTAV', name: 'Состав', value: draft.composition });
  if (draft.lining) properties.push({ code: 'SOSTAV_PODKLADKI', name: 'Состав подкладки', value: draft.lining });
  if (draft.insulation) properties.push({ code: 'SOSTAV_UTEPLITELYA', name: 'Утеплитель', value: draft.insulation });
  for (const p of draft.modelParams) properties.push({ ...p });
  if (draft.care)
    properties.push({ code: 'REKOMENDATSII_PO_UKHODU', name: 'Рекомендации по уходу', value: draft.care });
  properties.push({ code: 'CML2_ARTICLE', name: 'Артикул', value: `VT-${yy}-${String(index + 1).padStart(5, '0')}` });
  if (draft.kind !== 'gift-card')
    properties.push({ code: 'CML2_ATTRIBUTES', name: 'Характеристики', value: color.name, description: 'Цвет' });
  for (const [attr, value] of draft.attributes)
    properties.push({ code: 'CML2_ATTRIBUTES', name: 'Характеристики', value, description: attr });

  const offers = buildOffers(draft, rng);
  const base01 = rng.next();
  const popularity = Math.min(1000, Math.round(base01 * base01 * 900 + (draft.isNew ? 100 : 0) + rng.int(0, 50)));
  const photoCount = draft.kind === 'gift-card' ? 3 : rng.int(3, 5);
  const seoDescription = rng.chance(1 / 15) ? seoText(draft, color) : null;

  return {
    index,
    slug,
    name: draft.name,
    description: draft.description,
    sectionCode: draft.sectionCode,
    kind: draft.kind,
    colorName: color.name,
    colorCode: color.code,
    colorHex: color.hex,
    groupKey: `model-${String(draft.modelNo).padStart(5, '0')}`,
    isNew: draft.isNew,
    popularity,
    createdAt: created.toISOString(),
    priceKopecks: draft.priceRub * 100,
    oldPriceKopecks: draft.oldPriceRub === null ? null : draft.oldPriceRub * 100,
    properties,
    offers,
    photoCount,
    seoDescription,
    certificate: draft.kind === 'gift-card' ? 'electronic' : null,
  };
}

/**
 * Streams `products` products. Memory stays small: one cycle plan (~100 entries) and
 * the slug counter map; nothing else is kept between products.
 */
export function* generateProducts(opts: { products: number; seed?: number }): Generator<SeedProduct> {
  const total = Math.max(0, Math.floor(opts.products));
  const seed = (opts.seed ?? DEFAULT_SEED) >>> 0;
  const slugCounts = new Map<string, number>();
  let index = 0;
  let modelNo = 0;
  for (let cycle = 0; index < total; cycle++) {
    const plan = planCycle(seed, cycle);
    for (let m = 0; m < plan.length && index < total; m++) {
      const planned = plan[m] as PlannedModel;
      const rng = new Rng(mix(seed, cycle + 1, m + 1));
      modelNo++;
      const draft = buildModel(planned, rng, modelNo);
      for (let v = 0; v < planned.variants && index < total; v++) {
        yield buildProduct(draft, v, index, rng, slugCounts);
        index++;
      }
    }
  }
}

/** The whole catalogue as an array (default 180 products: every section covered). */
export function generateCatalog(opts?: { products?: number; seed?: number }): SeedProduct[] {
  const products = opts?.products ?? DEFAULT_PRODUCTS;
  return Array.from(generateProducts({ products, seed: opts?.seed }));
}
