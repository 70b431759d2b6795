import { createContext, useContext } from 'react';
import type { CatalogListItem } from '~/shared/contract';

/**
 * What the shared pieces of app/ui/ start in a feature: a product card's quick add and its
 * product page's code, a heart's login. The root layout, which composes the features
 * (app/root.tsx), hands them down; app/ui/ imports no feature (eslint.config.js), so a card shown
 * by the product page's own 'Вы смотрели' row does not import the product page back.
 */
export interface ShopActions {
  /** 'В корзину' on a card's photo: the size choice in a modal (components/basket/quick-add.tsx). */
  quickAdd(item: CatalogListItem): Promise<void>;
  /** A guest's heart: the login form in a modal; after the login `favourite` is among the favourites. */
  logIn(favourite?: number): Promise<void>;
  /** A card pointed at or focused: start loading the product page's code (pages/catalog-parts.ts). */
  preloadProductPage(): void;
}

const nothing = async () => {};
const ShopActionsContext = createContext<ShopActions>({
  quickAdd: nothing,
  logIn: nothing,
  preloadProductPage: nothing,
});

export const ShopActionsProvider = ShopActionsContext.Provider;

export function useShopActions(): ShopActions {
  return useContext(ShopActionsContext);
}
