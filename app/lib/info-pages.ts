// Pages of SPEC §2 that show a heading and text (content from the shop's content folder),
// plus the basket flow pages that are still placeholders (the basket itself and the fast
// order's /basket/submited/ and the placed order's /basket/submited-order/ have routes of their
// own: routes/basket*.tsx).
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
  { path: '/basket/bad/', heading: 'Оплата не прошла', personal: true },
  { path: '/basket/pay/', heading: 'Оплата заказа', personal: true },
  { path: '/basket/pay/frame/', heading: 'Оплата заказа', personal: true },
  { path: '/basket/submited/cloud-payments/', heading: 'Заказ оплачен', personal: true },
];

export function findInfoPage(pathname: string): InfoPage | undefined {
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  return INFO_PAGES.find((p) => p.path === path);
}
