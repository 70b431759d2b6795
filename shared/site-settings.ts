import { z } from 'zod';
import { SITE_DEFAULTS, type SiteSettings as Shape, type SiteShop as ShopShape } from './site-defaults';

export { SITE_DEFAULTS };
export type SiteSettings = Shape;
export type SiteShop = ShopShape;

// The site's words that staff change (issue #30 "The site's words", last bullet): the top
// banner, the home page's first block and sale note, the shops' addresses and hours, the
// stylist chat's contacts. One typed shape with today's texts as defaults: the storefront shows
// the defaults until staff save something (table site_settings, key 'storefront'), and a stored
// group that no longer fits the shape falls back to its default rather than breaking a page.

const text = (max: number, what: string) => z.string().trim().max(max, `${what}: не длиннее ${max} знаков`);
const required = (max: number, what: string) => text(max, what).min(1, `Укажите: ${what.toLowerCase()}`);

/** A link on this site ('/catalog/promo/') or an https:// address. */
const siteLink = (what: string) =>
  text(500, what).refine(
    (v) => v === '' || (v.startsWith('/') && !v.startsWith('//') && !/\s/.test(v)) || isHttpsUrl(v),
    `${what}: адрес на этом сайте, начинающийся с «/», или полный адрес https://`,
  );

function isHttpsUrl(v: string): boolean {
  try {
    return new URL(v).protocol === 'https:' && !/\s/.test(v);
  } catch {
    return false;
  }
}

export const SiteBanner = z
  .object({
    enabled: z.boolean(),
    text: text(200, 'Текст баннера'),
    link: siteLink('Ссылка баннера'),
  })
  .strict()
  .refine((b) => !b.enabled || b.text !== '', { message: 'Укажите текст баннера или выключите его', path: ['text'] });

export const SiteHome = z
  .object({
    eyebrow: text(80, 'Надпись над заголовком'),
    title: required(120, 'Заголовок главной'),
    lead: text(600, 'Текст под заголовком'),
    sale_note: text(300, 'Подпись к распродаже'),
  })
  .strict();

export const SiteShop = z
  .object({
    city: required(80, 'Город'),
    address: required(200, 'Адрес'),
    hours: required(120, 'Часы работы'),
    phone: required(40, 'Телефон').refine(
      (v) => /^\+?[\d\s()-]+$/.test(v) && v.replace(/\D/g, '').length >= 10 && v.replace(/\D/g, '').length <= 15,
      'Телефон: цифры, пробелы, скобки и дефисы, от 10 до 15 цифр, например +7 (495) 120-47-36',
    ),
    metro: text(80, 'Метро'),
  })
  .strict();

export const SiteChat = z
  .object({
    /** The messenger link; empty: the server's PUBLIC_CHAT_URL (none: no chat). */
    url: text(500, 'Ссылка на мессенджер').refine(
      (v) => v === '' || isHttpsUrl(v),
      'Ссылка на мессенджер: полный адрес https://, например https://t.me/vitrina_stylist',
    ),
    name: required(80, 'Подпись в чате'),
    greeting: required(500, 'Приветствие стилиста'),
  })
  .strict();

export const SiteSettings = z
  .object({
    banner: SiteBanner,
    home: SiteHome,
    shops: z.array(SiteShop).min(1, 'Нужен хотя бы один магазин').max(4, 'Не больше четырёх магазинов'),
    chat: SiteChat,
  })
  .strict();
// The shape is written out once more, without zod, in site-defaults.ts (the storefront's bundle
// carries no zod): this fails to compile when the two differ.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const sameShape: Same<z.infer<typeof SiteSettings>, SiteSettings> = true;
void sameShape;

const GROUPS = { banner: SiteBanner, home: SiteHome, shops: SiteSettings.shape.shops, chat: SiteChat } as const;

/** A stored value read as settings: each group that fits the shape, else that group's default. */
export function siteSettingsOf(stored: unknown): SiteSettings {
  const value = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(GROUPS)) {
    const parsed = schema.safeParse(value[key]);
    out[key] = parsed.success ? parsed.data : SITE_DEFAULTS[key as keyof SiteSettings];
  }
  return out as unknown as SiteSettings;
}

/** The public answer (GET /site-settings/). */
export const SiteSettingsResponse = SiteSettings;

// ── The back office ──
export const SiteSettingsRecord = SiteSettings.extend({
  /** The one record's id in the admin app. */
  id: z.literal('storefront'),
  version: z.number().int(),
  updated_at: z.string().nullable(),
});
/** A save: the groups that changed (each whole) and the version the form opened. */
export const SiteSettingsPatchBody = z
  .object({
    version: z.number().int().min(1),
    banner: SiteBanner.optional(),
    home: SiteHome.optional(),
    shops: SiteSettings.shape.shops.optional(),
    chat: SiteChat.optional(),
  })
  .strict();
