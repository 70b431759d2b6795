import { useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { AppLink, NavAppLink } from '~/app/lib/app-link';
import { KeptPart } from '~/app/lib/kept-part';
import { HydrateLater } from '~/app/lib/hydrate-later';
import type { MenuSection } from '~/shared/contract';
import type { SiteSettings } from '~/shared/site-defaults';
import { NAV_LINKS } from '~/app/lib/shop-info';
import { ShopCards, SocialLinks } from './ShopInfo';
import { useShopperCounts } from '~/app/lib/shopper-state';
import { BagIcon, HeartIcon, MenuIcon, UserIcon } from '~/app/ui/icons';
import { SearchField } from './SearchField';
import { useModal } from '~/app/ui/ModalHost';
import { MobileMenu } from './MobileMenu';

export function Header({ menu, site }: { menu: MenuSection[]; site: SiteSettings }) {
  const counts = useShopperCounts();
  const modal = useModal();
  const location = useLocation();
  // Open for one location only: navigating anywhere closes the mega menu without an effect.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const catalogOpen = openAt === location.key;
  const setCatalogOpen = (open: boolean) => setOpenAt(open ? location.key : null);
  const menuId = useId();
  const headerRef = useRef<HTMLElement>(null);

  // The mega menu also closes on a click outside the header and on Escape.
  useEffect(() => {
    if (!catalogOpen) return;
    const onDown = (e: MouseEvent) => {
      if (!headerRef.current?.contains(e.target as Node)) setOpenAt(null);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpenAt(null);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [catalogOpen]);

  return (
    <>
      {site.banner.enabled && site.banner.text ? <TopBanner text={site.banner.text} link={site.banner.link} /> : null}
      <header className="header" ref={headerRef}>
        <div className="header__bar">
          <div className="header__left">
            <button
              type="button"
              className="icon-button header__burger"
              aria-label="Меню"
              onClick={() =>
                modal.open({
                  name: 'menu',
                  title: 'Меню',
                  placement: 'left',
                  content: <MobileMenu menu={menu} shops={site.shops} />,
                })
              }
            >
              <MenuIcon />
            </button>
            <SearchField id="header-search" />
          </div>

          <AppLink to="/" className="logo" aria-label="Vitrina — на главную">
            Vitrina
          </AppLink>

          <div className="header__right">
            <AppLink
              to={counts.loggedIn ? '/personal/' : '/auth/'}
              className="icon-button header__account"
              aria-label={counts.loggedIn ? 'Аккаунт' : 'Вход'}
            >
              <UserIcon />
            </AppLink>
            <AppLink
              to="/wishlist/"
              className="icon-button header__wishlist"
              aria-label={`Избранное: ${counts.wishlist}`}
            >
              <HeartIcon />
              {counts.wishlist > 0 ? <span className="badge">{counts.wishlist}</span> : null}
            </AppLink>
            <AppLink to="/basket/" className="icon-button" aria-label={`Корзина: ${counts.basket}`}>
              <BagIcon />
              {counts.basket > 0 ? <span className="badge">{counts.basket}</span> : null}
            </AppLink>
          </div>
        </div>
        <nav className="header__nav" aria-label="Основное меню">
          <button
            type="button"
            className="header__catalog-toggle"
            aria-expanded={catalogOpen}
            aria-controls={menuId}
            onClick={() => setCatalogOpen(!catalogOpen)}
          >
            Каталог
          </button>
          {NAV_LINKS.map((l) => (
            <NavAppLink key={l.to} to={l.to} className="header__link" prefetch="intent">
              {l.label}
            </NavAppLink>
          ))}
          <div className="header__contacts">
            <AppLink to="/contacts/" className="header__link">
              Контакты
            </AppLink>
            <KeptPart
              className="header__contacts-pop"
              role="group"
              aria-label="Наши магазины"
              part="header-shops"
              data={site.shops}
            >
              {() => (
                <>
                  <ShopCards shops={site.shops} />
                  <SocialLinks className="header__socials" />
                </>
              )}
            </KeptPart>
          </div>
        </nav>

        <nav className="mega" id={menuId} hidden={!catalogOpen} aria-label="Каталог товаров">
          {/* The columns depend on the menu alone: kept as markup on the server (app/lib/kept-part.tsx).
              Hidden until opened: hydrated at the shopper's first interaction (issue #33). */}
          <HydrateLater find={() => document.getElementById(menuId)}>
            <KeptPart className="mega__inner" part="mega" data={menu}>
              {() => <MegaColumns menu={menu} />}
            </KeptPart>
          </HydrateLater>
        </nav>
      </header>
    </>
  );
}

/** The strip above the header staff set in «Тексты сайта» (off by default): a line, maybe a link. */
function TopBanner({ text, link }: { text: string; link: string }) {
  return (
    <div className="top-banner" data-testid="top-banner">
      {link === '' ? (
        <p className="top-banner__text">{text}</p>
      ) : link.startsWith('/') ? (
        <AppLink to={link} className="top-banner__text">
          {text}
        </AppLink>
      ) : (
        <a href={link} className="top-banner__text" rel="noopener noreferrer" target="_blank">
          {text}
        </a>
      )}
    </div>
  );
}

function MegaColumns({ menu }: { menu: MenuSection[] }) {
  return (
    <>
      {menu.map((top) => (
        <div className="mega__col" key={top.CODE}>
          <AppLink to={top.SECTION_PAGE_URL} className="mega__top">
            {top.NAME}
          </AppLink>
          {top.SECOND_LVL.length > 0 ? (
            <ul className="mega__list">
              {top.SECOND_LVL.map((s) => (
                <li key={s.CODE}>
                  <AppLink to={s.SECTION_PAGE_URL}>{s.NAME}</AppLink>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ))}
      <div className="mega__col">
        <AppLink to="/catalog/" className="mega__top">
          Смотреть всё
        </AppLink>
      </div>
    </>
  );
}
