import { AppLink } from '~/app/lib/app-link';
import { KeptPart } from '~/app/lib/kept-part';
import { FOOTER_COLUMNS, type Shop } from '~/app/lib/shop-info';
import { SocialLinks } from './ShopInfo';
import { Newsletter } from './Newsletter';
import { HelpLinks } from './HelpLinks';

// SPEC §2 Footer: columns Shops, Buyers, About; copyright; the not-a-public-offer disclaimer;
// the social-network notice; the developer credit.
export function Footer({ shops }: { shops: readonly Shop[] }) {
  const year = new Date().getFullYear();
  return (
    <footer className="footer">
      <div className="footer__inner">
        <div className="footer__brand">
          <AppLink to="/" className="logo logo--footer">
            Vitrina
          </AppLink>
          <p className="footer__tagline">Дизайнерская одежда, обувь и аксессуары. Собственное производство в России.</p>
          <KeptPart className="footer__shops" part="footer-shops" data={shops}>
            {() => (
              <>
                {shops.map((s) => (
                  <p key={s.city}>
                    <strong>{s.city}</strong>, {s.address} · {s.hours}
                  </p>
                ))}
              </>
            )}
          </KeptPart>
          <div className="footer__newsletter" id="newsletter">
            <p className="footer__title">Рассылка</p>
            <Newsletter />
          </div>
        </div>
        {/* Constant columns: kept as markup on the server (app/lib/kept-part.tsx). */}
        {FOOTER_COLUMNS.map((col) => (
          <KeptPart className="footer__col" key={col.title} part={`footer-column ${col.title}`}>
            {() => (
              <>
                <p className="footer__title">{col.title}</p>
                <ul>
                  {col.links.map((l) => (
                    <li key={l.to}>
                      <AppLink to={l.to}>{l.label}</AppLink>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </KeptPart>
        ))}
      </div>
      <HelpLinks />
      <div className="footer__legal">
        <p>© {year} Vitrina. Все права защищены.</p>
        <p>
          Информация на сайте не является публичной офертой. Цены и наличие товаров уточняйте при оформлении заказа.
        </p>
        <p>*Instagram принадлежит компании Meta, признанной экстремистской организацией и запрещённой в России.</p>
        <SocialLinks className="footer__socials" />
        <p>Разработка сайта — команда Vitrina</p>
      </div>
    </footer>
  );
}
