import fs from 'node:fs';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { isTrue, priceKopecks, quantityOf, splitOfferId, type PriceType } from '~/core/commerceml';
import type { OrderDocument } from '~/core/commerceml-orders';

// Reads a CommerceML file (import.xml, offers.xml) as a stream (saxes) and writes what it holds
// as steps: small JSON files of records, each applied by one mode=import call in one transaction
// (models/exchange.server.ts). Only one record (a Товар, a Предложение) is ever held whole, so a
// file of 100 000 offers never sits in memory. The whole file is read before any step is
// written to the database: a malformed or truncated file, or a record that cannot be read, is
// refused with a reason and nothing of it is imported.

export interface GroupRecord {
  t: 'group';
  id: string;
  name: string;
  parent: string | null;
}

export interface ProductRecord {
  t: 'product';
  id: string;
  article: string;
  name: string;
  description: string;
  groups: string[];
  /** Property values: the property's Ид and the value (a value's Ид from the classifier, or text). */
  props: { id: string; value: string }[];
  /** Картинка: files 1C sends under import_files/, relative to the exchange folder. */
  pictures: string[];
  deleted: boolean;
}

export interface OfferRecord {
  t: 'offer';
  id: string;
  productId: string;
  /** The characteristics: name → value (the size among them). */
  chars: Record<string, string>;
  /** Price type Ид → kopecks. */
  prices: Record<string, number>;
  /** Absent: the package does not speak of stock (a prices-only package). */
  quantity: number | null;
}

/** A <Документ> of the orders file 1C sends back (type=sale). */
export interface OrderRecord extends OrderDocument {
  t: 'order';
}

export type ExchangeRecord = GroupRecord | ProductRecord | OfferRecord | OrderRecord;

export interface PropertyDef {
  id: string;
  name: string;
  /** Value Ид → text (ВариантыЗначений / Справочник). */
  values: Record<string, string>;
}

export interface ParsedMeta {
  /**
   * import: the catalogue; offers: offers with prices and/or stock (offers.xml); prices, rests:
   * CommerceML 2.08+'s separate files of prices and of stock (prices*.xml, rests*.xml), which
   * only update offers the shop has; orders: the order documents 1C sends back (type=sale).
   */
  kind: 'import' | 'offers' | 'prices' | 'rests' | 'orders';
  onlyChanges: boolean;
  encoding: string;
  properties: PropertyDef[];
  priceTypes: PriceType[];
  /** Step files in order (each a JSON array of records). */
  steps: string[];
  /**
   * Every product (import) or offer (offers) Ид of the package, for a full package's deactivation,
   * in files by range: a full package ends with one step a range, each short. (Optional only for
   * an import read by an earlier version, whose meta.json has idsFile instead.)
   */
  idRanges?: IdRange[];
  /** Before idRanges (an import read by an earlier version): one file, one finishing step. */
  idsFile?: string;
  /** Offers' product Ид (offers packages): each must be a product the shop knows. */
  productIds: string[];
  records: number;
}

/**
 * Every Ид of the package from `from` (inclusive) to `to` (exclusive), in byte order (PostgreSQL's
 * collation "C"), is in `file`; null: no bound.
 */
export interface IdRange {
  file: string;
  from: string | null;
  to: string | null;
}

/**
 * What a product counts for in a step's `stepItems`, against an offer's 1: a product writes its
 * two search vectors and four GIN indexes (on PGlite 500 products made a step of 60-90 ms, 500
 * offers one of about 40; a guest waits for the step in progress there).
 */
export const PRODUCT_STEP_WEIGHT = 4;

/** How many Ид a finishing step checks, against a step's records: the check is cheaper a record. */
export const RANGE_IDS_PER_STEP_ITEM = 10;

/**
 * Writes the package's Ид sorted in byte order into files of `perFile`, with the bounds that make
 * "an Ид of the shop in this range and not in this file" mean "not in the package".
 */
export async function writeIdRanges(dir: string, ids: string[], perFile: number): Promise<IdRange[]> {
  const sorted = [...new Set(ids)];
  // UTF-16 order is byte order unless a surrogate pair meets a character from U+E000 up.
  if (sorted.some((id) => /[\uD800-\uDFFF]/.test(id)))
    sorted.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  else sorted.sort();
  const ranges: IdRange[] = [];
  const size = Math.max(1, perFile);
  for (let i = 0; i === 0 || i < sorted.length; i += size) {
    const file = `ids-${String(ranges.length).padStart(5, '0')}.json`;
    await fs.promises.writeFile(path.join(dir, file), JSON.stringify(sorted.slice(i, i + size)));
    ranges.push({ file, from: i === 0 ? null : sorted[i]!, to: i + size < sorted.length ? sorted[i + size]! : null });
  }
  return ranges;
}

/**
 * A copy of a string that holds nothing else. The parser's texts are slices of the chunk they came
 * in (V8 keeps a sliced string's whole parent alive): an Ид kept for the whole file kept its
 * 256 KB chunk, and 100 000 offers' Ид most of the file (the heap passed 128 MB at 88 MB).
 */
const own = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

export class ExchangeInputError extends Error {}

interface Node {
  n: string;
  a: Record<string, string>;
  c: Node[];
  t: string;
}

const child = (node: Node | undefined, name: string) => node?.c.find((c) => c.n === name);
const children = (node: Node | undefined, name: string) => node?.c.filter((c) => c.n === name) ?? [];
const text = (node: Node | undefined, name: string) => child(node, name)?.t.trim() ?? '';

const ROOT = 'КоммерческаяИнформация';
const RECORD_PATHS = new Set([
  `${ROOT}/Классификатор/Группы/Группа`,
  `${ROOT}/Классификатор/Свойства/Свойство`,
  `${ROOT}/Классификатор/Свойства/СвойствоНоменклатуры`,
  `${ROOT}/Каталог/Товары/Товар`,
  `${ROOT}/ПакетПредложений/ТипыЦен/ТипЦены`,
  `${ROOT}/ПакетПредложений/Предложения/Предложение`,
  // Orders back from 1C: documents at the root, or in <Контейнер> (the 1C-Bitrix module 6.5+).
  `${ROOT}/Документ`,
  `${ROOT}/Контейнер/Документ`,
]);

/** The encoding a file declares: a UTF-8 BOM, or encoding="…" in its XML declaration; UTF-8 otherwise. */
export function detectEncoding(head: Buffer): string {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  const decl = /^<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9_-]+)["']/.exec(head.toString('latin1'));
  const name = (decl?.[1] ?? 'utf-8').toLowerCase();
  if (name === 'utf-8' || name === 'utf8') return 'utf-8';
  if (name === 'windows-1251' || name === 'cp1251' || name === 'win-1251') return 'windows-1251';
  throw new ExchangeInputError(`Кодировка ${decl?.[1]} не поддерживается: нужна UTF-8 или windows-1251`);
}

function flattenGroups(node: Node, parent: string | null, out: GroupRecord[]): void {
  const id = text(node, 'Ид');
  if (!id) throw new ExchangeInputError('Группа без Ид');
  out.push({ t: 'group', id, name: text(node, 'Наименование') || id, parent });
  for (const sub of children(child(node, 'Группы'), 'Группа')) flattenGroups(sub, id, out);
}

function productRecord(node: Node): ProductRecord {
  const id = text(node, 'Ид');
  if (!id) throw new ExchangeInputError('Товар без Ид');
  const name = text(node, 'Наименование');
  if (!name) throw new ExchangeInputError(`Товар ${id}: нет Наименование`);
  const requisite = (wanted: string) =>
    text(
      children(child(node, 'ЗначенияРеквизитов'), 'ЗначениеРеквизита').find((r) => text(r, 'Наименование') === wanted),
      'Значение',
    );
  return {
    t: 'product',
    id,
    article: text(node, 'Артикул'),
    name,
    description: text(node, 'Описание'),
    groups: children(child(node, 'Группы'), 'Ид')
      .map((g) => g.t.trim())
      .filter(Boolean),
    props: children(child(node, 'ЗначенияСвойств'), 'ЗначенияСвойства')
      .map((p) => ({ id: text(p, 'Ид'), value: text(p, 'Значение') }))
      .filter((p) => p.id && p.value),
    pictures: children(node, 'Картинка')
      .map((c) => c.t.trim())
      .filter(Boolean),
    deleted:
      isTrue(text(node, 'ПометкаУдаления')) || node.a['Статус'] === 'Удален' || isTrue(requisite('ПометкаУдаления')),
  };
}

function offerRecord(node: Node): OfferRecord {
  const id = text(node, 'Ид');
  if (!id) throw new ExchangeInputError('Предложение без Ид');
  const chars: Record<string, string> = {};
  for (const c of children(child(node, 'ХарактеристикиТовара'), 'ХарактеристикаТовара')) {
    const name = text(c, 'Наименование');
    if (name) chars[name] = text(c, 'Значение');
  }
  const prices: Record<string, number> = {};
  for (const p of children(child(node, 'Цены'), 'Цена')) {
    const type = text(p, 'ИдТипаЦены');
    const raw = text(p, 'ЦенаЗаЕдиницу');
    const kopecks = priceKopecks(raw);
    if (!type) throw new ExchangeInputError(`Предложение ${id}: цена без ИдТипаЦены`);
    if (kopecks === null) throw new ExchangeInputError(`Предложение ${id}: цена «${raw}» не число`);
    prices[type] = kopecks;
  }
  // Stock: Количество; or, in rests.xml (2.08+), Остатки/Остаток[/Склад]/Количество summed over the
  // warehouses; or Склад КоличествоНаСкладе="…" (2.07 offers.xml).
  const quantityText = (raw: string): number => {
    const q = quantityOf(raw);
    if (q === null) throw new ExchangeInputError(`Предложение ${id}: количество «${raw.trim()}» не число`);
    return q;
  };
  const qNode = child(node, 'Количество');
  let quantity: number | null = null;
  if (qNode) quantity = quantityText(qNode.t);
  else {
    const rests = children(child(node, 'Остатки'), 'Остаток');
    const stores = children(node, 'Склад').filter((w) => w.a['КоличествоНаСкладе'] !== undefined);
    if (rests.length > 0) {
      quantity = 0;
      for (const r of rests) {
        const perStore = children(r, 'Склад');
        if (perStore.length > 0) for (const w of perStore) quantity += quantityText(text(w, 'Количество') || '0');
        else quantity += quantityText(text(r, 'Количество') || '0');
      }
    } else if (stores.length > 0)
      quantity = stores.reduce((sum, w) => sum + quantityText(w.a['КоличествоНаСкладе']!), 0);
  }
  return { t: 'offer', id, productId: splitOfferId(id).productId, chars, prices, quantity };
}

function orderRecord(node: Node): OrderRecord {
  const id = text(node, 'Ид');
  const number = text(node, 'Номер');
  if (!id && !number) throw new ExchangeInputError('Документ без Ид и Номер');
  const requisites: Record<string, string> = {};
  for (const r of children(child(node, 'ЗначенияРеквизитов'), 'ЗначениеРеквизита')) {
    const name = text(r, 'Наименование');
    if (name) requisites[name] = text(r, 'Значение');
  }
  const goodsNode = child(node, 'Товары');
  const goods = goodsNode
    ? children(goodsNode, 'Товар').map((g) => {
        const kind = children(child(g, 'ЗначенияРеквизитов'), 'ЗначениеРеквизита')
          .filter((r) => /^(ВидНоменклатуры|ТипНоменклатуры)$/.test(text(r, 'Наименование')))
          .map((r) => text(r, 'Значение').toLowerCase());
        return {
          id: text(g, 'Ид'),
          name: text(g, 'Наименование'),
          price: text(g, 'ЦенаЗаЕдиницу'),
          quantity: text(g, 'Количество'),
          sum: text(g, 'Сумма'),
          service: kind.includes('услуга'),
        };
      })
    : null;
  return {
    t: 'order',
    id,
    number,
    date: text(node, 'Дата'),
    time: text(node, 'Время'),
    deleted: isTrue(text(node, 'ПометкаУдаления')),
    requisites,
    goods,
  };
}

function propertyDef(node: Node): PropertyDef {
  const values: Record<string, string> = {};
  for (const v of children(child(node, 'ВариантыЗначений'), 'Справочник')) {
    const vid = text(v, 'ИдЗначения');
    if (vid) values[vid] = text(v, 'Значение');
  }
  return { id: text(node, 'Ид'), name: text(node, 'Наименование'), values };
}

/**
 * Reads `file` and writes its steps into `stepsDir` (emptied first): at most `stepItems` records
 * a step, groups before products. Throws ExchangeInputError with a reason 1C can show.
 */
export async function splitExchangeFile({
  file,
  stepsDir,
  stepItems,
  orders = false,
}: {
  file: string;
  stepsDir: string;
  stepItems: number;
  /** The order exchange (type=sale): a file of no documents is an empty orders file, not an error. */
  orders?: boolean;
}): Promise<ParsedMeta> {
  const base = path.basename(file).toLowerCase();
  await fs.promises.rm(stepsDir, { recursive: true, force: true });
  await fs.promises.mkdir(stepsDir, { recursive: true });
  const handle = await fs.promises.open(file, 'r');
  const head = Buffer.alloc(512);
  const { bytesRead } = await handle.read(head, 0, 512, 0);
  await handle.close();
  const encoding = detectEncoding(head.subarray(0, bytesRead));

  const meta: ParsedMeta = {
    kind: 'import',
    onlyChanges: false,
    encoding,
    properties: [],
    priceTypes: [],
    steps: [],
    idRanges: [],
    productIds: [],
    records: 0,
  };
  let sawCatalog = false;
  let sawOffers = false;
  let sawDocuments = false;
  const ids: string[] = [];
  const productIds = new Set<string>();
  let batch: ExchangeRecord[] = [];
  let weight = 0;
  const groups: GroupRecord[] = [];
  const pending: Promise<void>[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    const name = `${String(meta.steps.length).padStart(5, '0')}.json`;
    meta.steps.push(name);
    pending.push(fs.promises.writeFile(path.join(stepsDir, name), JSON.stringify(batch)));
    batch = [];
    weight = 0;
  };
  const add = (record: ExchangeRecord) => {
    batch.push(record);
    meta.records++;
    weight += record.t === 'product' ? PRODUCT_STEP_WEIGHT : 1;
    if (weight >= stepItems) flush();
  };

  const parser = new SaxesParser({ position: true });
  const stack: string[] = [];
  let capture: Node[] = [];
  let captureDepth = -1;
  let rootSeen = false;

  const finishRecord = (node: Node, at: string) => {
    if (at.endsWith('/Группа')) flattenGroups(node, null, groups);
    else if (at.endsWith('/Товар')) {
      if (groups.length > 0) {
        // Groups come before goods: their steps first, parents before children.
        for (const g of groups.splice(0)) add(g);
        flush();
      }
      const p = productRecord(node);
      ids.push(own(p.id));
      add(p);
    } else if (at.endsWith('/Предложение')) {
      const o = offerRecord(node);
      for (const type of Object.keys(o.prices))
        if (!meta.priceTypes.some((t) => t.id === type))
          throw new ExchangeInputError(`Предложение ${o.id}: неизвестный тип цены ${type} (его нет в ТипыЦен)`);
      ids.push(own(o.id));
      productIds.add(own(o.productId));
      add(o);
    } else if (at.endsWith('/Документ')) {
      sawDocuments = true;
      const d = orderRecord(node);
      ids.push(own(d.id || d.number));
      add(d);
    } else if (at.endsWith('/ТипЦены'))
      meta.priceTypes.push({ id: text(node, 'Ид'), name: text(node, 'Наименование') || text(node, 'Ид') });
    else meta.properties.push(propertyDef(node));
  };

  parser.on('opentag', (tag) => {
    const name = tag.name.replace(/^[^:]*:/, '');
    stack.push(name);
    if (!rootSeen) {
      rootSeen = true;
      if (name !== ROOT) throw new ExchangeInputError(`Корневой элемент ${name}, а не ${ROOT}`);
    }
    const attrs = tag.attributes as Record<string, string>;
    if (captureDepth >= 0) {
      const node: Node = { n: name, a: attrs, c: [], t: '' };
      capture[capture.length - 1]!.c.push(node);
      capture.push(node);
      return;
    }
    const at = stack.join('/');
    if (at === `${ROOT}/Каталог` || at === `${ROOT}/ПакетПредложений`) {
      if (at.endsWith('Каталог')) sawCatalog = true;
      else sawOffers = true;
      if (isTrue(attrs['СодержитТолькоИзменения'])) meta.onlyChanges = true;
    }
    if (RECORD_PATHS.has(at)) {
      captureDepth = stack.length;
      capture = [{ n: name, a: attrs, c: [], t: '' }];
    }
  });
  parser.on('text', (t) => {
    if (captureDepth >= 0) capture[capture.length - 1]!.t += t;
    else if (
      stack.at(-1) === 'СодержитТолькоИзменения' &&
      (stack.at(-2) === 'Каталог' || stack.at(-2) === 'ПакетПредложений') &&
      isTrue(t)
    )
      meta.onlyChanges = true;
  });
  parser.on('cdata', (t) => {
    if (captureDepth >= 0) capture[capture.length - 1]!.t += t;
  });
  parser.on('closetag', () => {
    if (captureDepth >= 0) {
      if (stack.length === captureDepth) {
        const at = stack.join('/');
        const node = capture[0]!;
        captureDepth = -1;
        capture = [];
        finishRecord(node, at);
      } else capture.pop();
    }
    stack.pop();
  });

  const decoder = new TextDecoder(encoding, { fatal: true });
  const where = () => `строка ${parser.line}, столбец ${parser.column}`;
  try {
    for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 })) {
      parser.write(decoder.decode(chunk as Buffer, { stream: true }));
      if (pending.length > 8) await Promise.all(pending.splice(0));
    }
    parser.write(decoder.decode());
    parser.close();
  } catch (error) {
    await Promise.allSettled(pending);
    if (error instanceof ExchangeInputError) throw new ExchangeInputError(`${error.message} (${where()})`);
    if (error instanceof TypeError) throw new ExchangeInputError(`Файл не в кодировке ${encoding} (${where()})`);
    const message = (error as Error).message.replace(/^[^:]*:\d+:\d+:\s*/, '');
    throw new ExchangeInputError(`Ошибка XML: ${message} (${where()})`);
  }
  if (!rootSeen) throw new ExchangeInputError('Файл пуст');
  if ((sawDocuments || orders) && !sawCatalog && !sawOffers) meta.kind = 'orders';
  else if (sawOffers) meta.kind = base.startsWith('prices') ? 'prices' : base.startsWith('rests') ? 'rests' : 'offers';
  else if (!sawCatalog && groups.length === 0 && meta.properties.length === 0)
    throw new ExchangeInputError('В файле нет ни каталога, ни пакета предложений, ни документов');
  for (const g of groups.splice(0)) add(g);
  flush();
  meta.productIds = [...productIds];
  await Promise.all(pending);
  meta.idRanges = await writeIdRanges(stepsDir, ids, stepItems * RANGE_IDS_PER_STEP_ITEM);
  return meta;
}

export async function readStep(stepsDir: string, name: string): Promise<ExchangeRecord[]> {
  return JSON.parse(await fs.promises.readFile(path.join(stepsDir, name), 'utf8')) as ExchangeRecord[];
}
