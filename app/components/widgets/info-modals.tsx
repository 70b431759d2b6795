import { useMemo } from 'react';
import { useModal } from '../shell/ModalHost';
import { SizeGuide } from './SizeGuide';
import { DeliveryInfo } from './DeliveryInfo';
import { ReturnInfo } from './ReturnInfo';
import { InstalmentDetails } from './InstalmentDetails';

// SPEC §2 Modals 'guide', 'delivery', 'return' and 'instalment', opened through the shell's
// modal host (which closes them on route change and Escape). The product page and the footer
// open them the same way.

export interface InfoModals {
  openSizeGuide(): void;
  openDelivery(): void;
  openReturn(): void;
  /** The schedule for this amount in kopecks; `example` says it is a sample price, not the basket's. */
  openInstalment(priceKopecks: number, options?: { example?: boolean }): void;
}

export function useInfoModals(): InfoModals {
  const { open } = useModal();
  return useMemo<InfoModals>(
    () => ({
      openSizeGuide: () => open({ name: 'guide', title: 'Таблица размеров', content: <SizeGuide /> }),
      openDelivery: () => open({ name: 'delivery', title: 'Доставка', content: <DeliveryInfo /> }),
      openReturn: () => open({ name: 'return', title: 'Возврат', content: <ReturnInfo /> }),
      openInstalment: (priceKopecks, options) =>
        open({ name: 'instalment', title: 'Оплата частями', content: <InstalmentDetails priceKopecks={priceKopecks} example={options?.example} /> }),
    }),
    [open],
  );
}
