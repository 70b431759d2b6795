import { AppLink } from '~/app/lib/app-link';
import type { MenuSection } from '~/shared/contract';
import type { Shop } from '~/app/lib/shop-info';
import { NAV_LINKS } from '~/app/lib/shop-info';
import { ShopCards, SocialLinks } from './ShopInfo';
import { SearchField } from './SearchField';

// The burger menu (SPEC §2 Mobile): the same links, contacts and socials as the desktop header.
export function MobileMenu({ menu, shops }: { menu: MenuSection[]; shops: readonly Shop[] }) {
  return (
    <div className="mobile-menu">
      <SearchField id="mobile-search" />
      <nav aria-label="Каталог">
        {menu.map((top) => (
          <details key={top.CODE} className="mobile-menu__group">
            {top.SECOND_LVL.length > 0 ? (
              <>
                <summary>{top.NAME}</summary>
                <ul>
                  <li>
                    <AppLink to={top.SECTION_PAGE_URL}>Все товары</AppLink>
                  </li>
                  {top.SECOND_LVL.map((s) => (
                    <li key={s.CODE}>
                      <AppLink to={s.SECTION_PAGE_URL}>{s.NAME}</AppLink>
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <summary>
                <AppLink to={top.SECTION_PAGE_URL}>{top.NAME}</AppLink>
              </summary>
            )}
          </details>
        ))}
      </nav>
      <ul className="mobile-menu__links">
        {NAV_LINKS.map((l) => (
          <li key={l.to}>
            <AppLink to={l.to}>{l.label}</AppLink>
          </li>
        ))}
        <li>
          <AppLink to="/contacts/">Контакты</AppLink>
        </li>
      </ul>
      <div className="mobile-menu__shops">
        <ShopCards shops={shops} />
      </div>
      <SocialLinks className="mobile-menu__socials" />
    </div>
  );
}
