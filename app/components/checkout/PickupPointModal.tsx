import { useMemo } from 'react';
import type { PickupPoint } from '~/shared/contract';
import { useModal } from '~/app/ui/ModalHost';
import { useRootData } from '~/app/lib/root-data';

// SPEC §2 Modals 'pickup' (slides in from the right) and §4 Pickup selection, opened through the
// modal host (app/ui/ModalHost.tsx) like the basket and info modals: the host gives the dialog role, the
// close button, Escape, the backdrop, the focus trap and return, and closes it on route change.
// The content (list, search, details) is its own chunk, fetched when the shopper opens it;
// the map's Leaflet is fetched later still, when the map view is first shown.

export const PICKUP_MODAL_TITLE = 'Выберите пункт выдачи';

export interface PickupPointModalOptions {
  /** The city's pickup points (DeliveryMethod.PVZS of method '139'). */
  points: readonly PickupPoint[];
  /** The point chosen earlier, marked in the list and on the map; null when none. */
  selectedCode: string | null;
  /** For the line above the list ('Москва: 12 пунктов СДЭК'). */
  cityName: string;
  /** Called with the confirmed point ('Выбрать пункт выдачи'); the modal then closes itself. */
  onChoose(point: PickupPoint): void;
}

export interface PickupPointModalApi {
  openPickupPoints(options: PickupPointModalOptions): Promise<void>;
}

export function usePickupPointModal(): PickupPointModalApi {
  const { open, close } = useModal();
  // The server's tile source (PUBLIC_MAP_TILE_*); none configured in production: no map.
  const tiles = useRootData()?.env.PUBLIC_MAP_TILES ?? null;
  return useMemo<PickupPointModalApi>(
    () => ({
      openPickupPoints: async ({ points, selectedCode, cityName, onChoose }) => {
        const { PickupPointPicker } = await import('./PickupPointPicker');
        open({
          name: 'pickup',
          title: PICKUP_MODAL_TITLE,
          placement: 'right',
          content: (
            <PickupPointPicker
              points={points}
              selectedCode={selectedCode}
              cityName={cityName}
              tiles={tiles}
              onChoose={(point) => {
                onChoose(point);
                close();
              }}
            />
          ),
        });
      },
    }),
    [open, close, tiles],
  );
}
