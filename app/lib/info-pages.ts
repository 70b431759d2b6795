// Pages of SPEC §2 that show a heading and text (content from the shop's content folder). The
// basket flow pages (the basket, /basket/submited/, /basket/submited-order/, the card payment's
// /basket/pay/, /basket/pay/frame/, /basket/submited/cloud-payments/ and /basket/bad/) have
// routes of their own: routes/basket*.tsx. `personal` stays for placeholders of that kind.
export interface InfoPage {
  path: string;
  heading: string;
  /** Pages with the shopper's own data must never be cached or indexed. */
  personal?: boolean;
}

export const INFO_PAGES: readonly InfoPage[] = [
  { path: '/about/', heading: 'О бренде' },
  { path: '/contacts/', heading: 'Контакты' },
  { path: '/warranty/', heading: 'Гарантия' },
  { path: '/pre-order/', heading: 'Предзаказ' },
  { path: '/promo/', heading: 'Sale' },
  { path: '/return/', heading: 'Возврат и обмен' },
  { path: '/advices/', heading: 'Советы по уходу' },
  { path: '/dolyami/', heading: 'Оплата Долями' },
  { path: '/loyalty/', heading: 'Программа лояльности' },
  { path: '/delivery/', heading: 'Доставка и оплата' },
  { path: '/purchase-guide/', heading: 'Как сделать заказ' },
  { path: '/shipment/', heading: 'Отправка заказов' },
  { path: '/yandex-split/', heading: 'Яндекс Сплит' },
  { path: '/new-collection/', heading: 'Новая коллекция' },
  { path: '/privacy-policy/', heading: 'Политика конфиденциальности' },
  { path: '/podarochnye-sertifikaty/', heading: 'Подарочные сертификаты' },
  { path: '/international-payments/', heading: 'Оплата из-за рубежа' },
];

export function findInfoPage(pathname: string): InfoPage | undefined {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  return INFO_PAGES.find((p) => p.path === path);
}
