import { NavAppLink } from '~/app/lib/app-link';
import { useShopperCounts } from '~/app/lib/shopper-state';
import { BagIcon, GridIcon, HeartIcon, UserIcon } from '~/app/ui/icons';

// SPEC §2 Mobile bottom tab bar: catalogue, basket (count), wishlist (only when logged in,
// count), and account ('Аккаунт' when logged in, otherwise 'Вход').
export function TabBar() {
  const { loggedIn, basket, wishlist } = useShopperCounts();
  return (
    <nav className="tabbar" aria-label="Быстрые ссылки">
      <NavAppLink to="/catalog/" className="tabbar__item">
        <GridIcon />
        <span>Каталог</span>
      </NavAppLink>
      <NavAppLink to="/basket/" className="tabbar__item">
        <span className="tabbar__icon">
          <BagIcon />
          {basket > 0 ? <span className="badge">{basket}</span> : null}
        </span>
        <span>Корзина</span>
      </NavAppLink>
      {loggedIn ? (
        <NavAppLink to="/wishlist/" className="tabbar__item">
          <span className="tabbar__icon">
            <HeartIcon />
            {wishlist > 0 ? <span className="badge">{wishlist}</span> : null}
          </span>
          <span>Избранное</span>
        </NavAppLink>
      ) : null}
      <NavAppLink to={loggedIn ? '/personal/' : '/auth/'} className="tabbar__item">
        <UserIcon />
        <span>{loggedIn ? 'Аккаунт' : 'Вход'}</span>
      </NavAppLink>
    </nav>
  );
}
