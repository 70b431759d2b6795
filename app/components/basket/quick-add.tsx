import { useCallback } from 'react';
import type { CatalogListItem } from '~/shared/contract';
import { useModal } from '~/app/ui/ModalHost';

export const QUICK_ADD_TITLE = 'Выберите размер';

/**
 * SPEC §2 modal 'add to cart/size select' for a product card: the card carries only this hook;
 * the modal's content (and the product it loads) come when the shopper opens it.
 */
export function useQuickAdd(): (item: CatalogListItem) => Promise<void> {
  const { open } = useModal();
  return useCallback(
    async (item: CatalogListItem) => {
      const { QuickAdd } = await import('./QuickAdd');
      open({ name: 'add-to-cart', title: QUICK_ADD_TITLE, content: <QuickAdd item={item} /> });
    },
    [open],
  );
}
