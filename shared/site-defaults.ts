// The site's words staff change in «Тексты сайта» (shared/site-settings.ts has their zod
// schema, for the server and the back office): the shape and today's texts, with no zod, so the
// storefront's bundle that reads them stays small.

export interface SiteShop {
  city: string;
  address: string;
  hours: string;
  phone: string;
  metro: string;
}

export interface SiteSettings {
  banner: { enabled: boolean; text: string; link: string };
  home: { eyebrow: string; title: string; lead: string; sale_note: string };
  shops: SiteShop[];
  /** url: the messenger link; empty: the server's PUBLIC_CHAT_URL (none: no chat). */
  chat: { url: string; name: string; greeting: string };
}

/** Today's texts: what the storefront shows while nothing is stored. */
export const SITE_DEFAULTS: SiteSettings = {
  banner: { enabled: false, text: '', link: '' },
  home: {
    eyebrow: 'Осень — зима 2026',
    title: 'Новая коллекция',
    lead:
      'Пальто из шерсти и кашемира, честный деним и мягкий трикотаж в спокойной палитре городской осени. ' +
      'Собственное производство, доставка по России, СНГ и миру.',
    sale_note: 'Скидки до 30% на вещи прошлых сезонов — пальто, трикотаж, деним и платья.',
  },
  shops: [
    {
      city: 'Москва',
      address: 'Малая Бронная улица, 24',
      hours: 'Ежедневно 11:00–22:00',
      phone: '+7 (495) 120-47-36',
      metro: 'Маяковская',
    },
    {
      city: 'Санкт-Петербург',
      address: 'Большая Конюшенная улица, 13',
      hours: 'Ежедневно 11:00–22:00',
      phone: '+7 (812) 409-62-18',
      metro: 'Невский проспект',
    },
  ],
  chat: {
    url: '',
    name: 'Стилист Vitrina',
    greeting: 'Здравствуйте! Я стилист Vitrina. Помогу подобрать размер и образ — напишите мне.',
  },
};
