import { telHref, type Shop } from '~/app/lib/shop-info';
import { useSiteSettings } from '~/app/lib/root-data';
import { Prose, splitSections } from './Prose';
import { ShopMap } from './ShopMap';

/**
 * /contacts/: the page text section by section; a section that gives a shop's address (as
 * the site's texts have it, «Тексты сайта») is laid out beside that shop's schematic map. A shop the text
 * does not mention still gets its card and map, so the page never loses an address.
 */
export function ContactsBody({ html }: { html: string | null }) {
  const shops = useSiteSettings().shops;
  const sections = html ? splitSections(html) : [];
  const shopOf = (section: string): Shop | undefined => shops.find((s) => section.includes(s.address));
  const described = new Set(sections.map(shopOf).filter(Boolean));
  const missing = shops.filter((s) => !described.has(s));
  return (
    <div className="contacts">
      {missing.length > 0 ? (
        <div className="contacts__shops">
          {missing.map((shop) => (
            <section key={shop.city} className="contacts__shop" aria-labelledby={`shop-${shop.phone.replace(/\D/g, '')}`}>
              <div className="prose contacts__facts">
                <h2 id={`shop-${shop.phone.replace(/\D/g, '')}`}>{shop.city}</h2>
                <p>{shop.address}</p>
                <p>{shop.hours}</p>
                <p>
                  <a href={telHref(shop.phone)}>{shop.phone}</a>
                </p>
              </div>
              <ShopMap shop={shop} />
            </section>
          ))}
        </div>
      ) : null}
      {sections.map((section, i) => {
        const shop = shopOf(section);
        if (!shop) return <Prose key={i} html={section} className="contacts__text" />;
        // The address part first, then the map (on phones), then the way there.
        const cut = section.search(/<h3[\s>]/);
        const [facts, way] = cut === -1 ? [section, ''] : [section.slice(0, cut), section.slice(cut)];
        return (
          <section key={i} className="contacts__shop">
            <Prose html={facts} className="contacts__facts" />
            <ShopMap shop={shop} />
            {way ? <Prose html={way} className="contacts__way" /> : null}
          </section>
        );
      })}
    </div>
  );
}
