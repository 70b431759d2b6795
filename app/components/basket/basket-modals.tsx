import { useMemo } from 'react';
import { BASKET_NOTICE } from '~/core/basket-cookie';
import { useModal } from '~/app/ui/ModalHost';
import type { BuyTarget } from './buy-target';

// SPEC §2 Modals 'pre-order', 'waiting-list' and 'fast-order', opened through the modal
// host like the info modals (app/ui/info-modals.tsx): each content is its own
// chunk, fetched when the shopper asks for it, and the modal opens once it is there.

export const FAST_ORDER_TITLE = 'Купить в один клик';
export const WAITING_LIST_TITLE = 'Сообщить о поступлении';

export interface BasketModals {
  openPreorder(target: BuyTarget): Promise<void>;
  openWaitingList(target: BuyTarget): Promise<void>;
  openFastOrder(target: BuyTarget): Promise<void>;
}

export function useBasketModals(): BasketModals {
  const { open } = useModal();
  return useMemo<BasketModals>(
    () => ({
      openPreorder: async (target) => {
        const { PreorderConfirm } = await import('./PreorderConfirm');
        open({ name: 'pre-order', title: BASKET_NOTICE.preorderTitle, content: <PreorderConfirm target={target} /> });
      },
      openWaitingList: async (target) => {
        const { WaitingListForm } = await import('./WaitingListForm');
        open({ name: 'waiting-list', title: WAITING_LIST_TITLE, content: <WaitingListForm target={target} /> });
      },
      openFastOrder: async (target) => {
        const { FastOrderForm } = await import('./FastOrderForm');
        open({ name: 'fast-order', title: FAST_ORDER_TITLE, content: <FastOrderForm target={target} /> });
      },
    }),
    [open],
  );
}
