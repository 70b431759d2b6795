/**
 * Gift certificates as catalogue products (content/pages/podarochnye-sertifikaty.md): five
 * nominals, each electronic and plastic, in the «Подарочные сертификаты» section. Pure data:
 * the generator (catalog-data.ts) draws the electronic ones in its fixed gift slots, the seed
 * (certificates.server.ts) makes sure all ten exist with these texts, also in older databases.
 */
import { CERTIFICATE_NOMINALS_KOPECKS, CERTIFICATE_VALID_MONTHS, type CertificateKind } from '~/core/gift-certificates';

/** The section kept its code and address from the gift-card days: links and tests know them. */
export const CERTIFICATE_SECTION = {
  code: 'podarochnye-karty',
  name: 'Подарочные сертификаты',
  url: '/catalog/podarochnye-karty/',
} as const;

export const CERTIFICATE_KINDS: readonly CertificateKind[] = ['electronic', 'plastic'];

/** Nominals in roubles, smallest first. */
export const CERTIFICATE_NOMINALS_RUB: readonly number[] = CERTIFICATE_NOMINALS_KOPECKS.map((k) => k / 100);

/** An electronic certificate is a code, never out of stock; plastic cards are counted in the warehouse. */
export const CERTIFICATE_STOCK: Readonly<Record<CertificateKind, number>> = { electronic: 100_000, plastic: 40 };

/** Black card for the e-mail one, milk-white for the plastic card (colours of media/palette.ts). */
export const CERTIFICATE_COLOR: Readonly<Record<CertificateKind, { name: string; code: string; hex: string }>> = {
  electronic: { name: 'Чёрный', code: 'chernyj', hex: '#141414' },
  plastic: { name: 'Молочный', code: 'molochnyj', hex: '#efe9dc' },
};

function rub(nominal: number): string {
  return `${String(nominal).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} ₽`;
}

export interface CertificateCopy {
  kind: CertificateKind;
  nominalRub: number;
  slug: string;
  name: string;
  description: string;
  /** Characteristics (CML2_ATTRIBUTES): [description, value]. */
  attributes: Array<[string, string]>;
  /** Article of the plastic ones (the generator numbers the electronic ones like every product). */
  article: string;
}

/** Name, texts and slug of one certificate product; every sentence is a promise of the content page. */
export function certificateCopy(kind: CertificateKind, nominalRub: number): CertificateCopy {
  const amount = rub(nominalRub);
  const electronic = kind === 'electronic';
  const tail =
    `Сертификат действует ${CERTIFICATE_VALID_MONTHS} месяцев, им можно оплатить покупки на сайте и в наших магазинах, ` +
    'а если покупка дешевле номинала, остаток сохранится на сертификате.';
  return {
    kind,
    nominalRub,
    slug: `${electronic ? 'elektronnyj' : 'plastikovyj'}-podarochnyj-sertifikat-${nominalRub}`,
    name: `${electronic ? 'Электронный' : 'Пластиковый'} подарочный сертификат на ${amount}`,
    description: electronic
      ? `Электронный сертификат номиналом ${amount} придёт на e-mail, указанный в заказе, в течение часа после оплаты — в виде открытки с уникальным номером. ` +
        `Его можно переслать получателю или распечатать. ${tail}`
      : `Пластиковый сертификат номиналом ${amount} — карта в фирменном конверте с уникальным номером. ` +
        `Мы отправим её выбранным способом доставки на общих условиях. ${tail}`,
    attributes: [
      ['Номинал', amount],
      ['Срок действия', `${CERTIFICATE_VALID_MONTHS} месяцев`],
      ['Формат', electronic ? 'Электронный, приходит на e-mail' : 'Пластиковая карта в конверте'],
    ],
    article: `VT-GC-${electronic ? 'E' : 'P'}-${String(nominalRub).padStart(5, '0')}`,
  };
}

/** All ten, electronic first, by nominal. */
export function allCertificateCopies(): CertificateCopy[] {
  return CERTIFICATE_KINDS.flatMap((kind) => CERTIFICATE_NOMINALS_RUB.map((n) => certificateCopy(kind, n)));
}
