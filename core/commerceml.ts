// The 1C exchange's pure rules (issue #31, docs/exchange-1c.md): the protocol's plain-text
// answers, file names 1C may use, numbers as CommerceML writes them, which price type is which,
// and the order document 1C reads (CommerceML 2). No I/O here: models/exchange*.server.ts reads
// files and the database, api/exchange/ speaks HTTP.

/** Every answer of the exchange endpoint: its first line is success, progress or failure; a reason may follow. */
export type ExchangeAnswer = { kind: 'success' | 'progress' | 'failure'; lines?: readonly string[] };

export function answerText(answer: ExchangeAnswer): string {
  // 1C shows the lines after the first to its operator: one reason a line, no stray line breaks.
  const lines = (answer.lines ?? []).map((l) => l.replace(/[\r\n]+/g, ' ').trim()).filter((l) => l !== '');
  return [answer.kind, ...lines].join('\n');
}

export const EXCHANGE_COOKIE = 'vitrina_1c';

/**
 * A file name 1C sent (mode=file / mode=import), as a relative path inside the session's folder,
 * or null when it would leave the folder or is not a plain name: '..' or '.' segments, an
 * absolute path, a drive letter, a backslash, control characters, an empty segment.
 * 1C sends pictures as 'import_files/ab/name.jpg': sub-folders are allowed.
 */
export function safeExchangeName(name: string): string | null {
  if (name.length === 0 || name.length > 300) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\:*?"<>|]/.test(name)) return null;
  if (name.startsWith('/')) return null;
  const parts = name.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return null;
  return parts.join('/');
}

/** A CommerceML price ('3200', '3200.50', '3 200,5') in kopecks; null when it is not one. */
export function priceKopecks(text: string): number | null {
  const t = text.replace(/[\s\u00a0]/g, '').replace(',', '.');
  const m = /^(\d{1,9})(?:\.(\d+))?$/.exec(t);
  if (!m) return null;
  // Integer arithmetic: 9900.505 is 990 051 kopecks (half up), not what a float makes of it.
  const fraction = (m[2] ?? '').padEnd(3, '0');
  return Number(m[1]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
}

/** A CommerceML quantity ('5', '5.000', '-1'): a whole number of units, never below zero; null when it is not one. */
export function quantityOf(text: string): number | null {
  const t = text.replace(/[\s\u00a0]/g, '').replace(',', '.');
  if (!/^-?\d{1,9}(\.\d+)?$/.test(t)) return null;
  return Math.max(0, Math.floor(Number(t)));
}

/** An offer's Ид split: '<product GUID>#<characteristic GUID>', or the product's GUID alone. */
export function splitOfferId(id: string): { productId: string; characteristicId: string | null } {
  const i = id.indexOf('#');
  if (i === -1) return { productId: id, characteristicId: null };
  return { productId: id.slice(0, i), characteristicId: id.slice(i + 1) || null };
}

/** 'true' in CommerceML's flags (СодержитТолькоИзменения, ПометкаУдаления). */
export function isTrue(text: string | undefined | null): boolean {
  return /^(true|1|да)$/i.test((text ?? '').trim());
}

/** What the shop reads from 1C's packages: settings kept in app_state 'exchange_settings' (docs/exchange-1c.md). */
export interface ExchangeSettings {
  /** The price type (its Наименование or Ид) that is the sale price; null: one named «Розничная…», else the first. */
  salePriceType: string | null;
  /** The price type of the old (crossed-out) price; null: one named «Старая…», «…до скидки», «Зачеркнутая…», else none. */
  oldPriceType: string | null;
  /** The characteristic that is the size. */
  sizeCharacteristic: string;
  /** The property that is the colour. */
  colorProperty: string;
  /** Fields 1C overwrites on products that exist (a field staff edit in the admin stays theirs when false). */
  owns: { name: boolean; description: boolean; prices: boolean };
}

export const DEFAULT_EXCHANGE_SETTINGS: ExchangeSettings = {
  salePriceType: null,
  oldPriceType: null,
  sizeCharacteristic: 'Размер',
  colorProperty: 'Цвет',
  owns: { name: true, description: true, prices: true },
};

export interface PriceType {
  id: string;
  name: string;
}

const norm = (s: string) => s.trim().toLowerCase().replace(/ё/g, 'е');

/** Which of a package's price types are the sale price and the old price (ids), by the settings or the defaults. */
export function pickPriceTypes(
  types: readonly PriceType[],
  settings: Pick<ExchangeSettings, 'salePriceType' | 'oldPriceType'>,
): { sale: string | null; old: string | null } {
  const named = (wanted: string | null) =>
    wanted === null ? undefined : types.find((t) => t.id === wanted || norm(t.name) === norm(wanted));
  const sale =
    settings.salePriceType !== null
      ? named(settings.salePriceType)
      : (types.find((t) => /розничн/.test(norm(t.name))) ?? types[0]);
  const old =
    settings.oldPriceType !== null
      ? named(settings.oldPriceType)
      : types.find((t) => t !== sale && /(стар|до скидки|без скидки|зачеркнут)/.test(norm(t.name)));
  return { sale: sale?.id ?? null, old: old && old !== sale ? old.id : null };
}

// ---------------------------------------------------------------------------------------------
// Order export (type=sale&mode=query): CommerceML 2 documents.

export function xmlEscape(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

/** Kopecks as CommerceML writes money: '3200.00'. */
export function roubles(kopecks: number): string {
  const sign = kopecks < 0 ? '-' : '';
  const k = Math.abs(kopecks);
  return `${sign}${Math.floor(k / 100)}.${String(k % 100).padStart(2, '0')}`;
}

/** The Ид an order line is exported with (and matched by when 1C sends the order back): the offer's 1C id, else its product's, else the site's own. */
export function exportLineId(
  offerExternalId: string | null,
  productExternalId: string | null,
  offerId: number,
): string {
  return offerExternalId ?? productExternalId ?? `site-offer-${offerId}`;
}

export interface ExportLine {
  /** The offer's Ид in 1C ('<product>#<characteristic>'), or the site's own when 1C does not know it. */
  externalId: string;
  name: string;
  priceKopecks: number;
  quantity: number;
  /** The line's sum after its share of the promo and bonuses. */
  sumKopecks: number;
  discountKopecks: number;
}

export interface ExportOrder {
  id: number;
  number: string;
  /** Moscow time, 'YYYY-MM-DD' and 'HH:MM:SS'. */
  date: string;
  time: string;
  totalKopecks: number;
  comment: string;
  status: string;
  paymentMethod: string;
  paid: boolean;
  paidAt: string | null;
  cancelled: boolean;
  /** Received or cancelled: nothing more happens to it. */
  final: boolean;
  deliveryName: string;
  deliveryKopecks: number;
  deliveryAddress: string;
  certificateKopecks: number;
  bonusKopecks: number;
  customer: { id: string; firstName: string; lastName: string; phone: string; email: string };
  lines: ExportLine[];
}

/** The requisites (ЗначенияРеквизитов) block: name/value pairs. */
function requisites(pairs: readonly [string, string][], indent: string): string {
  const rows = pairs
    .map(
      ([name, value]) =>
        `${indent}  <ЗначениеРеквизита><Наименование>${xmlEscape(name)}</Наименование><Значение>${xmlEscape(value)}</Значение></ЗначениеРеквизита>`,
    )
    .join('\n');
  return `${indent}<ЗначенияРеквизитов>\n${rows}\n${indent}</ЗначенияРеквизитов>`;
}

function goodsLine(
  l: { id: string; name: string; price: number; quantity: number; sum: number; discount?: number },
  kind: 'Товар' | 'Услуга',
): string {
  const i = '        ';
  return [
    `      <Товар>`,
    `${i}<Ид>${xmlEscape(l.id)}</Ид>`,
    `${i}<Наименование>${xmlEscape(l.name)}</Наименование>`,
    `${i}<БазоваяЕдиница Код="796" НаименованиеПолное="Штука" МеждународноеСокращение="PCE">шт</БазоваяЕдиница>`,
    `${i}<ЦенаЗаЕдиницу>${roubles(l.price)}</ЦенаЗаЕдиницу>`,
    `${i}<Количество>${l.quantity}</Количество>`,
    `${i}<Сумма>${roubles(l.sum)}</Сумма>`,
    ...(l.discount
      ? [
          `${i}<Скидки><Скидка><Наименование>Скидка</Наименование><Сумма>${roubles(l.discount)}</Сумма><УчтеноВСумме>true</УчтеноВСумме></Скидка></Скидки>`,
        ]
      : []),
    requisites(
      [
        ['ВидНоменклатуры', kind],
        ['ТипНоменклатуры', kind],
      ],
      i,
    ),
    `      </Товар>`,
  ].join('\n');
}

/** One order as a CommerceML 2 `<Документ>`. */
export function orderDocument(o: ExportOrder): string {
  const i = '    ';
  const c = o.customer;
  const name = [c.lastName, c.firstName].filter(Boolean).join(' ') || c.phone;
  const contacts = [...(c.phone ? [['Телефон рабочий', c.phone]] : []), ...(c.email ? [['Почта', c.email]] : [])] as [
    string,
    string,
  ][];
  const lines = o.lines.map((l) =>
    goodsLine(
      {
        id: l.externalId,
        name: l.name,
        price: l.priceKopecks,
        quantity: l.quantity,
        sum: l.sumKopecks,
        discount: l.discountKopecks,
      },
      'Товар',
    ),
  );
  if (o.deliveryKopecks > 0 || o.deliveryName)
    lines.push(
      goodsLine(
        {
          id: 'ORDER_DELIVERY',
          name: o.deliveryName || 'Доставка заказа',
          price: o.deliveryKopecks,
          quantity: 1,
          sum: o.deliveryKopecks,
        },
        'Услуга',
      ),
    );
  const req: [string, string][] = [
    ['Метод оплаты', o.paymentMethod],
    ['Заказ оплачен', o.paid ? 'true' : 'false'],
    ...(o.paidAt ? ([['Дата оплаты', o.paidAt]] as [string, string][]) : []),
    ['Доставка разрешена', o.paid ? 'true' : 'false'],
    ['Отменен', o.cancelled ? 'true' : 'false'],
    ['Финальный статус', o.final ? 'true' : 'false'],
    ['Статус заказа', o.status],
    ['Оплачено подарочным сертификатом', roubles(o.certificateKopecks)],
    ['Оплачено бонусами', roubles(o.bonusKopecks)],
    ['Сайт', 'Vitrina'],
  ];
  return [
    `  <Документ>`,
    `${i}<Ид>${o.id}</Ид>`,
    `${i}<Номер>${xmlEscape(o.number)}</Номер>`,
    `${i}<Дата>${o.date}</Дата>`,
    `${i}<Время>${o.time}</Время>`,
    `${i}<ХозОперация>Заказ товара</ХозОперация>`,
    `${i}<Роль>Продавец</Роль>`,
    `${i}<Валюта>руб</Валюта>`,
    `${i}<Курс>1</Курс>`,
    `${i}<Сумма>${roubles(o.totalKopecks)}</Сумма>`,
    `${i}<Контрагенты>`,
    `${i}  <Контрагент>`,
    `${i}    <Ид>${xmlEscape(c.id)}</Ид>`,
    `${i}    <Наименование>${xmlEscape(name)}</Наименование>`,
    `${i}    <ПолноеНаименование>${xmlEscape(name)}</ПолноеНаименование>`,
    `${i}    <Роль>Покупатель</Роль>`,
    `${i}    <Фамилия>${xmlEscape(c.lastName)}</Фамилия>`,
    `${i}    <Имя>${xmlEscape(c.firstName)}</Имя>`,
    `${i}    <АдресРегистрации><Представление>${xmlEscape(o.deliveryAddress)}</Представление></АдресРегистрации>`,
    `${i}    <Контакты>`,
    ...contacts.map(
      ([t, v]) => `${i}      <Контакт><Тип>${xmlEscape(t)}</Тип><Значение>${xmlEscape(v)}</Значение></Контакт>`,
    ),
    `${i}    </Контакты>`,
    `${i}  </Контрагент>`,
    `${i}</Контрагенты>`,
    `${i}<Комментарий>${xmlEscape(o.comment)}</Комментарий>`,
    `${i}<Товары>`,
    ...lines,
    `${i}</Товары>`,
    requisites(req, i),
    `  </Документ>`,
  ].join('\n');
}

/** The whole answer to mode=query: the documents under `<КоммерческаяИнформация>`, UTF-8. */
export function ordersPackage(orders: readonly ExportOrder[], formedAt: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<КоммерческаяИнформация ВерсияСхемы="2.08" ДатаФормирования="${formedAt}">`,
    ...orders.map(orderDocument),
    '</КоммерческаяИнформация>',
    '',
  ].join('\n');
}
