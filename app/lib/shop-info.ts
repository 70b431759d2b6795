import type { SiteShop } from '~/shared/site-defaults';

// Facts about the brand shown in the shell (SPEC §1). The shops' addresses and hours are texts
// staff edit (shared/site-settings.ts, «Тексты сайта»), read through the root loader.
export const BRAND = 'Vitrina';

/** When the online shop's managers and support work (content/pages/contacts.md says it in these words). */
export const SUPPORT_HOURS = 'ежедневно с 10:00 до 22:00 по московскому времени';

/**
 * A phone's `tel:` link: its digits and a leading +, as written (staff may write a shop's number
 * with or without +, shared/site-settings.ts; a pickup point's comes from CDEK).
 */
export const telHref = (phone: string): string => `tel:${phone.replace(/[^\d+]/g, '')}`;

/** A shop as the storefront shows it; the shops themselves are the site's texts (shared/site-settings.ts). */
export type Shop = SiteShop;

export const SOCIALS = [
  { name: 'Telegram', href: 'https://t.me/vitrina_brand' },
  { name: 'ВКонтакте', href: 'https://vk.com/vitrina_brand' },
  { name: 'Instagram*', href: 'https://instagram.com/vitrina_brand' },
] as const;

export const NAV_LINKS = [
  { label: 'Новая коллекция', to: '/catalog/new-collection/' },
  { label: 'Sale', to: '/catalog/promo/' },
  { label: 'Блог', to: '/blog/' },
  { label: 'О бренде', to: '/about/' },
] as const;

export const FOOTER_COLUMNS = [
  {
    title: 'Магазины',
    links: [
      { label: 'Контакты', to: '/contacts/' },
      { label: 'Подарочные сертификаты', to: '/podarochnye-sertifikaty/' },
      { label: 'Программа лояльности', to: '/loyalty/' },
    ],
  },
  {
    title: 'Покупателям',
    links: [
      { label: 'Как сделать заказ', to: '/purchase-guide/' },
      { label: 'Доставка и оплата', to: '/delivery/' },
      { label: 'Возврат и обмен', to: '/return/' },
      { label: 'Предзаказ', to: '/pre-order/' },
      { label: 'Оплата Долями', to: '/dolyami/' },
      { label: 'Яндекс Сплит', to: '/yandex-split/' },
      { label: 'Оплата из-за рубежа', to: '/international-payments/' },
      { label: 'Гарантия', to: '/warranty/' },
    ],
  },
  {
    title: 'О нас',
    links: [
      { label: 'О бренде', to: '/about/' },
      { label: 'Блог', to: '/blog/' },
      { label: 'Советы по уходу', to: '/advices/' },
      { label: 'Политика конфиденциальности', to: '/privacy-policy/' },
    ],
  },
] as const;
