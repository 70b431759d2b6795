// The back-in-stock waiting list (SPEC §4 Waiting list): its texts, in one place.

export const WAITING_LIST_THANKS = 'Товар добавлен в список ожидания';
export const WAITING_LIST_IN_STOCK = 'Этот размер есть в наличии: его можно добавить в корзину';

/** The one SMS a waiting shopper gets when the size is back (SMS-length: keep it short). */
export function backInStockText({
  size,
  productName,
  url,
}: {
  size: string;
  productName: string;
  url: string;
}): string {
  return `Размер ${size} снова в наличии: ${productName}. ${url}`;
}
