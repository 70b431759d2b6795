// The offline stand-in's pickup points: for every shop city CDEK serves (core/delivery-cities.ts),
// points on real streets of that city with CDEK's field names. Streets, metro stations and
// postal districts are real; the codes, house numbers, phones and exact coordinates are made up
// and must never be sent to CDEK (offline.server.ts builds the full records from these seeds).

/** A schedule as CDEK writes it, with the matching `work_time_list` built from `days`. */
export interface Schedule {
  work_time: string;
  /** [first day, last day, 'HH:MM/HH:MM'], days 1 (Monday) … 7 (Sunday). */
  days: readonly (readonly [number, number, string])[];
}

export const SCHEDULES = {
  /** Most pickup points. */
  standard: {
    work_time: 'Пн-Пт 10:00-21:00, Сб-Вс 10:00-18:00',
    days: [
      [1, 5, '10:00/21:00'],
      [6, 7, '10:00/18:00'],
    ],
  },
  daily: { work_time: 'Пн-Вс 09:00-21:00', days: [[1, 7, '09:00/21:00']] },
  /** Closed on Sundays. */
  weekdays: {
    work_time: 'Пн-Пт 09:00-20:00, Сб 10:00-17:00',
    days: [
      [1, 5, '09:00/20:00'],
      [6, 6, '10:00/17:00'],
    ],
  },
  /** Parcel lockers in shopping centres keep the centre's hours. */
  mall: { work_time: 'Пн-Вс 10:00-22:00', days: [[1, 7, '10:00/22:00']] },
} as const satisfies Record<string, Schedule>;

export type ScheduleName = keyof typeof SCHEDULES;

export interface PointSeed {
  /** The number after the city prefix: 67 → 'MSK67'. */
  n: number;
  /** Street and house as CDEK writes them ('ул. Маросейка, 2/15'). */
  address: string;
  postal: string;
  lat: number;
  lon: number;
  metro?: string;
  postamat?: boolean;
  dressing?: boolean;
  schedule?: ScheduleName;
  /** Where to find the entrance; a default is used otherwise. */
  comment?: string;
}

export interface CityPoints {
  cityCode: number;
  /** CDEK's point-code prefix for the city ('MSK', 'SPB'). */
  prefix: string;
  city: string;
  /** CDEK's region name ('Республика Татарстан'); the city itself for federal cities. */
  region: string;
  country: string;
  countryCode: string;
  /** The city's phone prefix and how many digits follow it. */
  phonePrefix: string;
  phoneDigits: number;
  points: readonly PointSeed[];
}

export const OFFLINE_POINTS: readonly CityPoints[] = [
  {
    cityCode: 44,
    prefix: 'MSK',
    city: 'Москва',
    region: 'Москва',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7495',
    phoneDigits: 7,
    points: [
      { n: 67, address: 'ул. Маросейка, 2/15', postal: '101000', lat: 55.75672, lon: 37.63361, metro: 'Китай-город', dressing: true },
      { n: 120, address: 'ул. Тверская, 18, корп. 1', postal: '125009', lat: 55.76602, lon: 37.60405, metro: 'Пушкинская', dressing: true, schedule: 'daily' },
      { n: 215, address: 'ул. Арбат, 44, стр. 1', postal: '119002', lat: 55.74818, lon: 37.58851, metro: 'Смоленская' },
      { n: 301, address: 'Ленинский пр-т, 37', postal: '119334', lat: 55.70651, lon: 37.58503, metro: 'Ленинский проспект', schedule: 'weekdays' },
      { n: 342, address: 'пр-т Мира, 79', postal: '129110', lat: 55.78897, lon: 37.63508, metro: 'Рижская', dressing: true },
      { n: 418, address: 'ул. Профсоюзная, 56', postal: '117393', lat: 55.67004, lon: 37.55297, metro: 'Новые Черёмушки' },
      { n: 455, address: 'ул. Бауманская, 35/1', postal: '105005', lat: 55.77201, lon: 37.67903, metro: 'Бауманская', schedule: 'daily' },
      { n: 509, address: 'Кутузовский пр-т, 24', postal: '121151', lat: 55.74753, lon: 37.55602, metro: 'Кутузовская', dressing: true },
      { n: 577, address: 'ул. Большая Серпуховская, 31, стр. 6', postal: '115093', lat: 55.72302, lon: 37.62497, metro: 'Серпуховская' },
      { n: 612, address: 'ул. Новослободская, 62, корп. 19', postal: '127055', lat: 55.79104, lon: 37.59502, metro: 'Менделеевская', schedule: 'weekdays' },
      {
        n: 1024,
        address: 'ул. Земляной Вал, 33',
        postal: '105064',
        lat: 55.75703,
        lon: 37.65897,
        metro: 'Курская',
        postamat: true,
        schedule: 'mall',
        comment: 'ТЦ «Атриум», 1 этаж, у эскалатора',
      },
      {
        n: 1037,
        address: 'Ходынский б-р, 4',
        postal: '125167',
        lat: 55.79052,
        lon: 37.53102,
        metro: 'ЦСКА',
        postamat: true,
        schedule: 'mall',
        comment: 'ТРЦ «Авиапарк», 1 этаж, вход 3',
      },
    ],
  },
  {
    cityCode: 137,
    prefix: 'SPB',
    city: 'Санкт-Петербург',
    region: 'Санкт-Петербург',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7812',
    phoneDigits: 7,
    points: [
      { n: 12, address: 'Невский пр-т, 88', postal: '191025', lat: 59.93252, lon: 30.35148, metro: 'Маяковская', dressing: true },
      { n: 27, address: 'ул. Садовая, 28-30', postal: '191023', lat: 59.92853, lon: 30.32004, metro: 'Сенная площадь', schedule: 'daily' },
      { n: 45, address: 'Московский пр-т, 137', postal: '196084', lat: 59.87904, lon: 30.31897, metro: 'Электросила' },
      { n: 63, address: 'Литейный пр-т, 57', postal: '191014', lat: 59.93602, lon: 30.34803, metro: 'Маяковская', dressing: true },
      { n: 78, address: 'Каменноостровский пр-т, 42', postal: '197022', lat: 59.96597, lon: 30.31198, metro: 'Петроградская', schedule: 'weekdays' },
      { n: 91, address: 'ул. Марата, 25', postal: '191040', lat: 59.92402, lon: 30.35203, metro: 'Владимирская' },
      {
        n: 410,
        address: 'Лиговский пр-т, 30А',
        postal: '191040',
        lat: 59.92703,
        lon: 30.36002,
        metro: 'Площадь Восстания',
        postamat: true,
        schedule: 'mall',
        comment: 'ТРЦ «Галерея», 1 этаж',
      },
    ],
  },
  {
    cityCode: 424,
    prefix: 'KZN',
    city: 'Казань',
    region: 'Республика Татарстан',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7843',
    phoneDigits: 7,
    points: [
      { n: 5, address: 'ул. Баумана, 44/8', postal: '420111', lat: 55.79053, lon: 49.11452, metro: 'Площадь Тукая', dressing: true },
      { n: 12, address: 'пр-т Ямашева, 46', postal: '420124', lat: 55.82801, lon: 49.11503, metro: 'Яшьлек' },
      { n: 40, address: 'ул. Декабристов, 85', postal: '420034', lat: 55.81802, lon: 49.10203, metro: 'Северный вокзал', schedule: 'weekdays' },
      {
        n: 33,
        address: 'ул. Петербургская, 1',
        postal: '420107',
        lat: 55.78803,
        lon: 49.12203,
        metro: 'Площадь Тукая',
        postamat: true,
        schedule: 'mall',
        comment: 'ТРЦ «Кольцо», 1 этаж',
      },
    ],
  },
  {
    cityCode: 250,
    prefix: 'EKB',
    city: 'Екатеринбург',
    region: 'Свердловская область',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7343',
    phoneDigits: 7,
    points: [
      { n: 3, address: 'ул. Малышева, 36', postal: '620014', lat: 56.83553, lon: 60.60501, metro: 'Геологическая', dressing: true },
      { n: 24, address: 'ул. Викулова, 33', postal: '620043', lat: 56.84003, lon: 60.56402 },
      { n: 31, address: 'ул. Челюскинцев, 60', postal: '620027', lat: 56.85102, lon: 60.60103, metro: 'Уральская', schedule: 'daily' },
      {
        n: 17,
        address: 'ул. 8 Марта, 46',
        postal: '620014',
        lat: 56.82903,
        lon: 60.60002,
        metro: 'Геологическая',
        postamat: true,
        schedule: 'mall',
        comment: 'ТРЦ «Гринвич», 1 этаж',
      },
    ],
  },
  {
    cityCode: 270,
    prefix: 'NSK',
    city: 'Новосибирск',
    region: 'Новосибирская область',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7383',
    phoneDigits: 7,
    points: [
      { n: 8, address: 'Красный пр-т, 86', postal: '630091', lat: 55.04402, lon: 82.91802, metro: 'Гагаринская', dressing: true },
      { n: 19, address: 'ул. Ленина, 12', postal: '630004', lat: 55.03003, lon: 82.91303, metro: 'Площадь Ленина' },
      { n: 35, address: 'ул. Кирова, 113', postal: '630102', lat: 55.01903, lon: 82.96002, metro: 'Октябрьская', schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 414,
    prefix: 'NNV',
    city: 'Нижний Новгород',
    region: 'Нижегородская область',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7831',
    phoneDigits: 7,
    points: [
      { n: 4, address: 'ул. Большая Покровская, 18', postal: '603005', lat: 56.32252, lon: 44.00003, metro: 'Горьковская', dressing: true },
      { n: 11, address: 'ул. Родионова, 187', postal: '603093', lat: 56.31603, lon: 44.06602 },
      { n: 22, address: 'пр-т Гагарина, 35', postal: '603022', lat: 56.28503, lon: 43.98502, schedule: 'weekdays' },
      {
        n: 30,
        address: 'ул. Костина, 3',
        postal: '603000',
        lat: 56.31603,
        lon: 44.00902,
        metro: 'Горьковская',
        postamat: true,
        schedule: 'mall',
        comment: 'ТРЦ «Небо», 1 этаж',
      },
    ],
  },
  {
    cityCode: 435,
    prefix: 'KSD',
    city: 'Краснодар',
    region: 'Краснодарский край',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7861',
    phoneDigits: 7,
    points: [
      { n: 6, address: 'ул. Красная, 145', postal: '350020', lat: 45.04503, lon: 38.97502, dressing: true },
      { n: 15, address: 'ул. Ставропольская, 107', postal: '350040', lat: 45.02103, lon: 38.99903 },
      { n: 24, address: 'ул. Северная, 326', postal: '350020', lat: 45.04802, lon: 38.97003, schedule: 'daily' },
    ],
  },
  {
    cityCode: 430,
    prefix: 'SMR',
    city: 'Самара',
    region: 'Самарская область',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7846',
    phoneDigits: 7,
    points: [
      { n: 7, address: 'ул. Ленинградская, 70', postal: '443020', lat: 53.18802, lon: 50.10303, dressing: true },
      { n: 13, address: 'Московское ш., 4', postal: '443086', lat: 53.20303, lon: 50.15003, metro: 'Московская' },
      { n: 21, address: 'ул. Ново-Садовая, 106', postal: '443068', lat: 53.21902, lon: 50.15002, schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 438,
    prefix: 'ROS',
    city: 'Ростов-на-Дону',
    region: 'Ростовская область',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7863',
    phoneDigits: 7,
    points: [
      { n: 3, address: 'ул. Большая Садовая, 46', postal: '344002', lat: 47.22203, lon: 39.71402, dressing: true },
      { n: 12, address: 'Ворошиловский пр-т, 33', postal: '344010', lat: 47.22603, lon: 39.71502 },
      { n: 20, address: 'пр-т Стачки, 25', postal: '344090', lat: 47.20803, lon: 39.66702, schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 506,
    prefix: 'VRN',
    city: 'Воронеж',
    region: 'Воронежская область',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7473',
    phoneDigits: 7,
    points: [
      { n: 2, address: 'пр-т Революции, 33', postal: '394036', lat: 51.66403, lon: 39.20203, dressing: true },
      { n: 9, address: 'ул. Плехановская, 22', postal: '394018', lat: 51.67003, lon: 39.19703 },
      { n: 15, address: 'Московский пр-т, 4', postal: '394016', lat: 51.67703, lon: 39.20603, schedule: 'daily' },
    ],
  },
  {
    cityCode: 248,
    prefix: 'PRM',
    city: 'Пермь',
    region: 'Пермский край',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7342',
    phoneDigits: 7,
    points: [
      { n: 4, address: 'ул. Ленина, 58', postal: '614000', lat: 58.01303, lon: 56.24603, dressing: true },
      { n: 10, address: 'Комсомольский пр-т, 34', postal: '614000', lat: 58.00703, lon: 56.23803 },
      { n: 16, address: 'ул. Куйбышева, 37', postal: '614010', lat: 58.00303, lon: 56.23903, schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 256,
    prefix: 'UFA',
    city: 'Уфа',
    region: 'Республика Башкортостан',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7347',
    phoneDigits: 7,
    points: [
      { n: 3, address: 'ул. Ленина, 28', postal: '450077', lat: 54.72403, lon: 55.94503, dressing: true },
      { n: 8, address: 'пр-т Октября, 33', postal: '450078', lat: 54.75303, lon: 56.00303 },
      { n: 14, address: 'ул. Гоголя, 60', postal: '450076', lat: 54.73303, lon: 55.95203, schedule: 'daily' },
    ],
  },
  {
    cityCode: 259,
    prefix: 'CHEL',
    city: 'Челябинск',
    region: 'Челябинская область',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7351',
    phoneDigits: 7,
    points: [
      { n: 5, address: 'пр-т Ленина, 54', postal: '454091', lat: 55.16003, lon: 61.39003, dressing: true },
      { n: 12, address: 'ул. Кирова, 104', postal: '454091', lat: 55.16703, lon: 61.40003 },
      { n: 19, address: 'ул. Свободы, 72', postal: '454091', lat: 55.15603, lon: 61.41503, schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 278,
    prefix: 'KRSK',
    city: 'Красноярск',
    region: 'Красноярский край',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7391',
    phoneDigits: 7,
    points: [
      { n: 3, address: 'пр-т Мира, 91', postal: '660017', lat: 56.01203, lon: 92.86003, dressing: true },
      { n: 11, address: 'ул. Карла Маркса, 95', postal: '660017', lat: 56.00803, lon: 92.87003 },
      { n: 18, address: 'ул. 9 Мая, 77', postal: '660125', lat: 56.06503, lon: 92.92103, schedule: 'daily' },
    ],
  },
  {
    cityCode: 152,
    prefix: 'KLN',
    city: 'Калининград',
    region: 'Калининградская область',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+74012',
    phoneDigits: 6,
    points: [
      { n: 2, address: 'Ленинский пр-т, 30', postal: '236006', lat: 54.71403, lon: 20.51203, dressing: true },
      { n: 7, address: 'ул. Черняховского, 15', postal: '236022', lat: 54.72003, lon: 20.50503 },
      { n: 13, address: 'Московский пр-т, 40', postal: '236006', lat: 54.70803, lon: 20.53803, schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 1063,
    prefix: 'SOCH',
    city: 'Сочи',
    region: 'Краснодарский край',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7862',
    phoneDigits: 7,
    points: [
      { n: 4, address: 'ул. Навагинская, 9Д', postal: '354000', lat: 43.58803, lon: 39.72303, dressing: true },
      { n: 9, address: 'Курортный пр-т, 16', postal: '354000', lat: 43.58203, lon: 39.72503 },
      { n: 15, address: 'ул. Донская, 10', postal: '354065', lat: 43.60703, lon: 39.73203, schedule: 'daily' },
    ],
  },
  {
    cityCode: 288,
    prefix: 'VVO',
    city: 'Владивосток',
    region: 'Приморский край',
    country: 'Россия',
    countryCode: 'RU',
    phonePrefix: '+7423',
    phoneDigits: 7,
    points: [
      { n: 3, address: 'ул. Светланская, 29', postal: '690091', lat: 43.11603, lon: 131.88903, dressing: true },
      { n: 8, address: 'Океанский пр-т, 17', postal: '690091', lat: 43.12003, lon: 131.88603 },
      { n: 14, address: 'ул. Алеутская, 45', postal: '690091', lat: 43.12203, lon: 131.88203, schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 9220,
    prefix: 'MINSK',
    city: 'Минск',
    region: 'Минск',
    country: 'Беларусь',
    countryCode: 'BY',
    phonePrefix: '+37517',
    phoneDigits: 7,
    points: [
      { n: 1, address: 'пр-т Независимости, 48', postal: '220005', lat: 53.91503, lon: 27.58503, metro: 'Площадь Якуба Коласа', dressing: true },
      { n: 5, address: 'ул. Немига, 5', postal: '220030', lat: 53.90203, lon: 27.55203, metro: 'Немига' },
      { n: 9, address: 'ул. Притыцкого, 29', postal: '220073', lat: 53.90803, lon: 27.48503, metro: 'Спортивная', schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 4756,
    prefix: 'ALM',
    city: 'Алматы',
    region: 'Алматы',
    country: 'Казахстан',
    countryCode: 'KZ',
    phonePrefix: '+7727',
    phoneDigits: 7,
    points: [
      { n: 2, address: 'пр-т Абылай хана, 62', postal: '050000', lat: 43.25603, lon: 76.94503, metro: 'Жибек Жолы', dressing: true },
      { n: 6, address: 'ул. Толе би, 101', postal: '050012', lat: 43.25303, lon: 76.91503 },
      {
        n: 11,
        address: 'пр-т Аль-Фараби, 77/8',
        postal: '050040',
        lat: 43.21803,
        lon: 76.92803,
        postamat: true,
        schedule: 'mall',
        comment: 'ТРЦ «Esentai Mall», 1 этаж',
      },
    ],
  },
  {
    cityCode: 4961,
    prefix: 'AST',
    city: 'Астана',
    region: 'Астана',
    country: 'Казахстан',
    countryCode: 'KZ',
    phonePrefix: '+77172',
    phoneDigits: 6,
    points: [
      { n: 3, address: 'пр-т Республики, 24', postal: '010000', lat: 51.16403, lon: 71.43003, dressing: true },
      { n: 7, address: 'ул. Кенесары, 40', postal: '010000', lat: 51.16503, lon: 71.42003 },
      { n: 12, address: 'пр-т Туран, 37', postal: '010000', lat: 51.12003, lon: 71.40303, schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 7114,
    prefix: 'EVN',
    city: 'Ереван',
    region: 'Ереван',
    country: 'Армения',
    countryCode: 'AM',
    phonePrefix: '+37410',
    phoneDigits: 6,
    points: [
      { n: 1, address: 'пр-т Маштоца, 37', postal: '0002', lat: 40.18603, lon: 44.51303, metro: 'Еритасардакан', dressing: true },
      { n: 4, address: 'ул. Абовяна, 12', postal: '0001', lat: 40.18303, lon: 44.51803, metro: 'Еритасардакан' },
      { n: 8, address: 'ул. Туманяна, 15', postal: '0001', lat: 40.18403, lon: 44.51503, schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 5444,
    prefix: 'BISH',
    city: 'Бишкек',
    region: 'Бишкек',
    country: 'Киргизия',
    countryCode: 'KG',
    phonePrefix: '+996312',
    phoneDigits: 6,
    points: [
      { n: 2, address: 'пр-т Чуй, 147', postal: '720001', lat: 42.87603, lon: 74.60303, dressing: true },
      { n: 5, address: 'ул. Киевская, 77', postal: '720001', lat: 42.87403, lon: 74.59703 },
      { n: 9, address: 'пр-т Манаса, 40', postal: '720017', lat: 42.86503, lon: 74.58603, schedule: 'weekdays' },
    ],
  },
  {
    cityCode: 11562,
    prefix: 'TAS',
    city: 'Ташкент',
    region: 'Ташкент',
    country: 'Узбекистан',
    countryCode: 'UZ',
    phonePrefix: '+99871',
    phoneDigits: 7,
    points: [
      { n: 1, address: 'ул. Амира Темура, 15', postal: '100000', lat: 41.31503, lon: 69.28003, metro: 'Амир Темур хиёбони', dressing: true },
      { n: 4, address: 'ул. Шота Руставели, 41', postal: '100070', lat: 41.29303, lon: 69.26503 },
      { n: 8, address: 'ул. Навои, 30', postal: '100011', lat: 41.32003, lon: 69.25803, metro: 'Алишер Навои', schedule: 'weekdays' },
    ],
  },
];
