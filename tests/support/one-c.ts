import { expect } from 'vitest';
import zlib from 'node:zlib';

// A fake 1C for the exchange tests (issue #31): the calls 1C's «обмен с сайтом» makes, in its
// order, over HTTP, with the cookie checkauth gave; and CommerceML files made here in the
// structure docs/exchange-1c.md describes, in UTF-8 or windows-1251.

export interface Answer {
  status: number;
  text: string;
  /** The first line: success, progress or failure. */
  kind: string;
  lines: string[];
}

export class OneC {
  cookie: string | null = null;
  constructor(
    /** The exchange's address; a function gives each call its own (two processes in turn). */
    private readonly endpoint: string | (() => string),
    private readonly login: string,
    private readonly password: string,
  ) {}

  async call(query: string, init: RequestInit = {}): Promise<Answer> {
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('cookie', this.cookie);
    const base = typeof this.endpoint === 'function' ? this.endpoint() : this.endpoint;
    const res = await fetch(`${base}?${query}`, { ...init, headers });
    const text = await res.text();
    const [kind = '', ...lines] = text.split('\n');
    return { status: res.status, text, kind, lines };
  }

  async checkauth(type: 'catalog' | 'sale', password = this.password): Promise<Answer> {
    const basic = Buffer.from(`${this.login}:${password}`).toString('base64');
    this.cookie = null;
    const answer = await this.call(`type=${type}&mode=checkauth`, { headers: { authorization: `Basic ${basic}` } });
    if (answer.kind === 'success') this.cookie = `${answer.lines[0]}=${answer.lines[1]}`;
    return answer;
  }

  async init(type: 'catalog' | 'sale'): Promise<{ zip: string; fileLimit: number; text: string }> {
    const answer = await this.call(`type=${type}&mode=init`);
    const zip = /zip=(\w+)/.exec(answer.text)?.[1] ?? '';
    const fileLimit = Number(/file_limit=(\d+)/.exec(answer.text)?.[1] ?? 0);
    return { zip, fileLimit, text: answer.text };
  }

  /** mode=file in pieces of `piece` bytes (1C's file_limit): each piece a POST of its own. */
  async sendFile(
    filename: string,
    body: Buffer,
    piece: number,
    type: 'catalog' | 'sale' = 'catalog',
  ): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (let at = 0; at < body.length; at += piece) {
      answers.push(
        await this.call(`type=${type}&mode=file&filename=${encodeURIComponent(filename)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/octet-stream' },
          body: new Uint8Array(body.subarray(at, at + piece)),
        }),
      );
    }
    return answers;
  }

  /** mode=import repeated while the answer is progress (at most `max` calls); every answer, the last one last. */
  async importUntilDone(filename: string, max = 100, type: 'catalog' | 'sale' = 'catalog'): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (let i = 0; i < max; i++) {
      const answer = await this.call(`type=${type}&mode=import&filename=${encodeURIComponent(filename)}`);
      answers.push(answer);
      if (answer.kind !== 'progress') return answers;
    }
    throw new Error(`import of ${filename} still in progress after ${max} calls`);
  }

  /** The whole catalogue exchange of one file: init, the file in pieces, import until done. */
  async exchangeFile(
    filename: string,
    body: Buffer,
    piece = 700,
    type: 'catalog' | 'sale' = 'catalog',
  ): Promise<Answer[]> {
    for (const a of await this.sendFile(filename, body, piece, type)) expect(a.text).toBe('success');
    return this.importUntilDone(filename, 100, type);
  }
}

// --- CommerceML files ------------------------------------------------------------------------------

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface TestGroup {
  id: string;
  name: string;
  children?: TestGroup[];
}

export interface TestProduct {
  id: string;
  article: string;
  name: string;
  description?: string;
  group?: string;
  color?: string;
  deleted?: boolean;
  /** Картинка elements: files under import_files/. */
  pictures?: string[];
}

export const COLOR_PROPERTY = 'prop-color-0001';

function groupXml(g: TestGroup): string {
  const kids = g.children?.length ? `<Группы>${g.children.map(groupXml).join('')}</Группы>` : '';
  return `<Группа><Ид>${g.id}</Ид><Наименование>${esc(g.name)}</Наименование>${kids}</Группа>`;
}

export function catalogXml({
  groups = [],
  products,
  onlyChanges = false,
  encoding = 'UTF-8',
}: {
  groups?: TestGroup[];
  products: TestProduct[];
  onlyChanges?: boolean;
  encoding?: 'UTF-8' | 'windows-1251';
}): string {
  const goods = products
    .map(
      (p) => `
      <Товар${p.deleted ? ' Статус="Удален"' : ''}>
        <Ид>${p.id}</Ид>
        <Артикул>${esc(p.article)}</Артикул>
        <Наименование>${esc(p.name)}</Наименование>
        <БазоваяЕдиница Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE">шт</БазоваяЕдиница>
        ${p.group ? `<Группы><Ид>${p.group}</Ид></Группы>` : ''}
        <Описание>${esc(p.description ?? '')}</Описание>
        ${(p.pictures ?? []).map((f) => `<Картинка>${esc(f)}</Картинка>`).join('')}
        ${p.color ? `<ЗначенияСвойств><ЗначенияСвойства><Ид>${COLOR_PROPERTY}</Ид><Значение>${esc(p.color)}</Значение></ЗначенияСвойства></ЗначенияСвойств>` : ''}
        <СтавкиНалогов><СтавкаНалога><Наименование>НДС</Наименование><Ставка>20</Ставка></СтавкаНалога></СтавкиНалогов>
      </Товар>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="${encoding}"?>
<КоммерческаяИнформация ВерсияСхемы="2.05" ДатаФормирования="2026-03-01T10:00:00">
  <Классификатор>
    <Ид>classifier-1</Ид>
    <Наименование>Классификатор (Каталог товаров)</Наименование>
    <Группы>${groups.map(groupXml).join('')}</Группы>
    <Свойства>
      <Свойство><Ид>${COLOR_PROPERTY}</Ид><Наименование>Цвет</Наименование><ТипЗначений>Строка</ТипЗначений></Свойство>
    </Свойства>
  </Классификатор>
  <Каталог СодержитТолькоИзменения="${onlyChanges}">
    <Ид>catalog-1</Ид>
    <ИдКлассификатора>classifier-1</ИдКлассификатора>
    <Наименование>Каталог товаров</Наименование>
    <Товары>${goods}
    </Товары>
  </Каталог>
</КоммерческаяИнформация>
`;
}

export const PRICE_TYPES = [
  { id: 'price-retail-0001', name: 'Розничная' },
  { id: 'price-old-0002', name: 'Старая цена' },
  { id: 'price-opt-0003', name: 'Оптовая' },
];

export interface TestOffer {
  /** '<product>#<characteristic>' or the product alone. */
  id: string;
  size?: string;
  /** Roubles by price type Ид (as text: '3200.00'). */
  prices?: Record<string, string>;
  quantity?: number | string;
  /** rests.xml (2.08+): the quantity per warehouse, as Остатки/Остаток/Склад. */
  rests?: number[];
}

export function offersXml({
  offers,
  onlyChanges = false,
  encoding = 'UTF-8',
  priceTypes = PRICE_TYPES,
}: {
  offers: TestOffer[];
  onlyChanges?: boolean;
  encoding?: 'UTF-8' | 'windows-1251';
  priceTypes?: { id: string; name: string }[];
}): string {
  const items = offers
    .map(
      (o) => `
      <Предложение>
        <Ид>${o.id}</Ид>
        <Наименование>Предложение ${esc(o.id)}</Наименование>
        <БазоваяЕдиница Код="796">шт</БазоваяЕдиница>
        ${o.size ? `<ХарактеристикиТовара><ХарактеристикаТовара><Наименование>Размер</Наименование><Значение>${esc(o.size)}</Значение></ХарактеристикаТовара></ХарактеристикиТовара>` : ''}
        ${
          o.prices
            ? `<Цены>${Object.entries(o.prices)
                .map(
                  ([type, value]) =>
                    `<Цена><Представление>${value} RUB за шт</Представление><ИдТипаЦены>${type}</ИдТипаЦены><ЦенаЗаЕдиницу>${value}</ЦенаЗаЕдиницу><Валюта>RUB</Валюта><Единица>шт</Единица><Коэффициент>1</Коэффициент></Цена>`,
                )
                .join('')}</Цены>`
            : ''
        }
        ${o.quantity !== undefined ? `<Количество>${o.quantity}</Количество>` : ''}
        ${o.rests ? `<Остатки>${o.rests.map((q, i) => `<Остаток><Склад><Ид>store-${i}</Ид><Количество>${q}</Количество></Склад></Остаток>`).join('')}</Остатки>` : ''}
      </Предложение>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="${encoding}"?>
<КоммерческаяИнформация ВерсияСхемы="2.05" ДатаФормирования="2026-03-01T10:00:00">
  <ПакетПредложений СодержитТолькоИзменения="${onlyChanges}">
    <Ид>catalog-1#</Ид>
    <Наименование>Пакет предложений</Наименование>
    <ИдКаталога>catalog-1</ИдКаталога>
    <ИдКлассификатора>classifier-1</ИдКлассификатора>
    <ТипыЦен>${priceTypes
      .map(
        (t) =>
          `<ТипЦены><Ид>${t.id}</Ид><Наименование>${esc(t.name)}</Наименование><Валюта>RUB</Валюта><Налог><Наименование>НДС</Наименование><УчтеноВСумме>true</УчтеноВСумме></Налог></ТипЦены>`,
      )
      .join('')}</ТипыЦен>
    <Предложения>${items}
    </Предложения>
  </ПакетПредложений>
</КоммерческаяИнформация>
`;
}

let cp1251: Map<string, number> | null = null;
/** Text as windows-1251 bytes (what 1C writes when so set up). */
export function windows1251(text: string): Buffer {
  if (!cp1251) {
    cp1251 = new Map();
    const decoder = new TextDecoder('windows-1251');
    for (let b = 0; b < 256; b++) cp1251.set(decoder.decode(Uint8Array.of(b)), b);
  }
  const out = Buffer.alloc(text.length);
  let i = 0;
  for (const ch of text) {
    const b = cp1251.get(ch);
    if (b === undefined) throw new Error(`not in windows-1251: ${ch}`);
    out[i++] = b;
  }
  return out.subarray(0, i);
}

// --- zip archives (what 1C sends when init answers zip=yes) ----------------------------------------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

export interface ZipEntry {
  name: string;
  data: Buffer | string;
  /** A symbolic link (unix mode 120777), its target the data. */
  symlink?: boolean;
  /** The size the headers claim (a lying archive); the real one otherwise. */
  claimedSize?: number;
}

/**
 * A zip archive written here byte by byte (deflated entries), so a test can make the archives a
 * zip library refuses to write: '../' paths, absolute paths, symbolic links, lying sizes.
 */
export function zipArchive(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data);
    const packed = zlib.deflateRawSync(data);
    const crc = crc32(data);
    const size = e.claimedSize ?? data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.symlink ? 0o120777 : 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

// --- Orders back from 1C (type=sale&mode=file + mode=import) ---------------------------------------

export interface TestOrderDocument {
  /** The site's order id (1C echoes it in Ид). */
  id: string | number;
  /** 1C's own number of the document (Номер). */
  number?: string;
  date?: string;
  status?: string;
  cancelled?: boolean;
  deleted?: boolean;
  paymentNumber?: string;
  paymentDate?: string;
  shipmentNumber?: string;
  shipmentDate?: string;
  posted?: boolean;
  /** Товары as 1C has them now (absent: the document has no Товары, it says nothing of the goods). */
  goods?: TestOrderGood[];
}

/** One Товар of a document 1C sends back. */
export interface TestOrderGood {
  id: string;
  name?: string;
  /** Kopecks, written as CommerceML writes money ('3200.00'), or the text itself. */
  price: number | string;
  quantity: number | string;
  /** «Услуга» (delivery). */
  service?: boolean;
}

const money = (kopecks: number) => `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;

function goodXml(g: TestOrderGood): string {
  const price = typeof g.price === 'number' ? money(g.price) : g.price;
  const sum = typeof g.price === 'number' && typeof g.quantity === 'number' ? money(g.price * g.quantity) : price;
  const kind = g.service ? 'Услуга' : 'Товар';
  return `
        <Товар>
          <Ид>${esc(g.id)}</Ид>
          <Наименование>${esc(g.name ?? g.id)}</Наименование>
          <БазоваяЕдиница Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE">шт</БазоваяЕдиница>
          <ЦенаЗаЕдиницу>${price}</ЦенаЗаЕдиницу>
          <Количество>${g.quantity}</Количество>
          <Сумма>${sum}</Сумма>
          <ЗначенияРеквизитов>
            <ЗначениеРеквизита><Наименование>ВидНоменклатуры</Наименование><Значение>${kind}</Значение></ЗначениеРеквизита>
            <ЗначениеРеквизита><Наименование>ТипНоменклатуры</Наименование><Значение>${kind}</Значение></ЗначениеРеквизита>
          </ЗначенияРеквизитов>
        </Товар>`;
}

/** An orders file as 1C sends it back: documents with requisites, optionally in a <Контейнер> (module 6.5+). */
export function ordersXml({
  documents,
  container = false,
  encoding = 'UTF-8',
}: {
  documents: TestOrderDocument[];
  container?: boolean;
  encoding?: 'UTF-8' | 'windows-1251';
}): string {
  const req = (name: string, value: string | boolean | undefined) =>
    value === undefined
      ? ''
      : `<ЗначениеРеквизита><Наименование>${esc(name)}</Наименование><Значение>${esc(String(value))}</Значение></ЗначениеРеквизита>`;
  const docs = documents
    .map(
      (d) => `
    <Документ>
      <Ид>${d.id}</Ид>
      <Номер>${esc(d.number ?? String(d.id))}</Номер>
      <Дата>${d.date ?? '2026-03-02'}</Дата>
      <Время>12:00:00</Время>
      <ХозОперация>Заказ товара</ХозОперация>
      <Роль>Продавец</Роль>
      <Валюта>руб</Валюта>
      <Курс>1</Курс>
      ${d.deleted ? '<ПометкаУдаления>true</ПометкаУдаления>' : ''}
      ${
        d.goods
          ? `<Товары>${d.goods.map(goodXml).join('')}
      </Товары>`
          : ''
      }
      <ЗначенияРеквизитов>
        ${req('Проведен', d.posted)}
        ${req('Статус заказа', d.status)}
        ${req('Отменен', d.cancelled)}
        ${req('Номер оплаты по 1С', d.paymentNumber)}
        ${req('Дата оплаты по 1С', d.paymentDate)}
        ${req('Номер отгрузки по 1С', d.shipmentNumber)}
        ${req('Дата отгрузки по 1С', d.shipmentDate)}
      </ЗначенияРеквизитов>
    </Документ>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="${encoding}"?>
<КоммерческаяИнформация ВерсияСхемы="2.08" ДатаФормирования="2026-03-02T12:00:00">${container ? `<Контейнер>${docs}</Контейнер>` : docs}
</КоммерческаяИнформация>
`;
}
