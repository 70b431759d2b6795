import { Link } from 'react-router';
import type { MenuSection } from '~/shared/contract';
import { NAV_LINKS } from '~/app/lib/shop-info';
import { ShopCards, SocialLinks } from './ShopInfo';
import { SearchField } from './SearchField';

// The burger menu (SPEC §2 Mobile): the same links, contacts and socials as the desktop header.
export function MobileMenu({ menu }: { menu: MenuSection[] }) {
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
                    <Link to={top.SECTION_PAGE_URL}>Все товары</Link>
                  </li>
                  {top.SECOND_LVL.map((s) => (
                    <li key={s.CODE}>
                      <Link to={s.SECTION_PAGE_URL}>{s.NAME}</Link>
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <summary>
                <Link to={top.SECTION_PAGE_URL}>{top.NAME}</Link>
              </summary>
            )}
          </details>
        ))}
      </nav>
      <ul className="mobile-menu__links">
        {NAV_LINKS.map((l) => (
          <li key={l.to}>
            <Link to={l.to}>{l.label}</Link>
          </li>
        ))}
        <li>
          <Link to="/contacts/">Контакты</Link>
        </li>
      </ul>
      <div className="mobile-menu__shops">
        <ShopCards />
      </div>
      <SocialLinks className="mobile-menu__socials" />
    </div>
  );
}
