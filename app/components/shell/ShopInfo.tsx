import { SOCIALS, telHref, type Shop } from '~/app/lib/shop-info';

/** The two shops (SPEC §1): city, address, hours, phone. The header, the burger menu and contacts use it. */
export function ShopCards({ shops }: { shops: readonly Shop[] }) {
  return (
    <>
      {shops.map((s) => (
        <div key={s.city} className="shop-card">
          <p className="shop-card__city">{s.city}</p>
          <p>{s.address}</p>
          <p>{s.hours}</p>
          <a href={telHref(s.phone)}>{s.phone}</a>
        </div>
      ))}
    </>
  );
}

/** The brand's social networks, opened in a new tab. */
export function SocialLinks({ className }: { className: string }) {
  return (
    <div className={className}>
      {SOCIALS.map((s) => (
        <a key={s.name} href={s.href} rel="noopener noreferrer" target="_blank">
          {s.name}
        </a>
      ))}
    </div>
  );
}
