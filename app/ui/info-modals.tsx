import { useMemo } from 'react';
import { useModal } from './ModalHost';

// SPEC §2 Modals 'guide', 'delivery', 'return' and 'instalment', opened through the one
// modal host (ModalHost.tsx, which closes them on route change and Escape). The product page and the footer
// open them the same way. Each modal's content is its own chunk, fetched when the shopper
// opens it (none of it is needed to show a page); the modal opens once its content is there.
// Should the shopper navigate meanwhile, it stays closed: `open` binds a modal to the location
// it was asked from.

export interface InfoModals {
  openSizeGuide(): Promise<void>;
  openDelivery(): Promise<void>;
  openReturn(): Promise<void>;
  /** The schedule for this amount in kopecks; `example` says it is a sample price, not the basket's. */
  openInstalment(priceKopecks: number, options?: { example?: boolean }): Promise<void>;
}

export function useInfoModals(): InfoModals {
  const { open } = useModal();
  return useMemo<InfoModals>(
    () => ({
      openSizeGuide: async () => {
        const { SizeGuide } = await import('./SizeGuide');
        open({ name: 'guide', title: 'Таблица размеров', content: <SizeGuide /> });
      },
      openDelivery: async () => {
        const { DeliveryInfo } = await import('./DeliveryInfo');
        open({ name: 'delivery', title: 'Доставка', content: <DeliveryInfo /> });
      },
      openReturn: async () => {
        const { ReturnInfo } = await import('./ReturnInfo');
        open({ name: 'return', title: 'Возврат', content: <ReturnInfo /> });
      },
      openInstalment: async (priceKopecks, options) => {
        const { InstalmentDetails } = await import('./InstalmentDetails');
        open({
          name: 'instalment',
          title: 'Оплата частями',
          content: <InstalmentDetails priceKopecks={priceKopecks} example={options?.example} />,
        });
      },
    }),
    [open],
  );
}
