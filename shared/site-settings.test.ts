import { describe, expect, it } from 'vitest';
import { SITE_DEFAULTS, SiteSettings, siteSettingsOf } from './site-settings';

describe('siteSettingsOf', () => {
  it("reads nothing stored as today's texts, which fit the shape", () => {
    expect(siteSettingsOf(null)).toEqual(SITE_DEFAULTS);
    expect(SiteSettings.safeParse(SITE_DEFAULTS).success).toBe(true);
  });

  it('keeps the groups that fit and falls back, group by group, for the rest', () => {
    const banner = { enabled: true, text: 'Распродажа', link: '/catalog/promo/' };
    const read = siteSettingsOf({ banner, home: { title: '' }, shops: 'не список', extra: 1 });
    expect(read.banner).toEqual(banner);
    expect(read.home).toEqual(SITE_DEFAULTS.home);
    expect(read.shops).toEqual(SITE_DEFAULTS.shops);
    expect(read.chat).toEqual(SITE_DEFAULTS.chat);
    expect(read).not.toHaveProperty('extra');
  });
});

describe('the shape', () => {
  const withBanner = (banner: unknown) => SiteSettings.safeParse({ ...SITE_DEFAULTS, banner });
  it('takes a link on the site or https://, nothing else', () => {
    for (const link of ['', '/delivery/', 'https://t.me/vitrina'])
      expect(withBanner({ enabled: true, text: 'Т', link }).success).toBe(true);
    for (const link of ['javascript:alert(1)', '//evil.example/', 'http://x.ru', '/a b'])
      expect(withBanner({ enabled: true, text: 'Т', link }).success).toBe(false);
  });

  it('asks for a text when the banner is on', () => {
    const r = withBanner({ enabled: true, text: '   ', link: '' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe('Укажите текст баннера или выключите его');
    expect(withBanner({ enabled: false, text: '', link: '' }).success).toBe(true);
  });
});
