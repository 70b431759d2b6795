import type { DeliveryMethod, PaymentMethod, PickupPoint } from '~/shared/contract';
import { PAYMENT_ID } from '~/shared/checkout-ids';
import { isInstalmentPaymentId } from '~/core/delivery';
import { DeliveryCards, PaymentCards } from './MethodCards';
import { hasMethodDetails, MethodDetails } from './DeliveryFields';
import type { CheckoutFields, OrderParamsState } from './use-checkout';

/** SPEC §9: payment id 9 is card online: the order is placed awaiting payment, then paid on /basket/pay/. */
const ONLINE_PAYMENT_NOTE =
  'После оформления откроется страница оплаты: картой, через СБП или Yandex Pay. Пока заказ ждёт оплаты, вещи отложены для вас.';
/** Pay in parts (dolyami.md, yandex-split.md): the provider's page, then back to the shop. */
const INSTALMENT_NOTE =
  'После оформления вы перейдёте на страницу сервиса: подтвердите оплату первой части, и вернётесь на сайт. Возможную комиссию сервис покажет до подтверждения. Пока заказ ждёт оплаты, вещи отложены для вас.';

/**
 * The delivery methods of the city as cards (the chosen one with what it needs: a pickup point,
 * an address), then the payment methods that go with it. Dimmed while the methods of a new city
 * are on their way; «Повторить» when they could not be loaded.
 */
export function DeliveryAndPayment({
  fields,
  orderParams,
  city,
  methods,
  method,
  deliveryId,
  paymentId,
  payments,
  point,
  offerSave,
  payKopecks,
  onChooseDelivery,
  onChoosePayment,
  onOpenPoints,
  onShowSchedule,
}: {
  fields: CheckoutFields;
  orderParams: OrderParamsState;
  /** The committed city. */
  city: string;
  methods: readonly DeliveryMethod[];
  method: DeliveryMethod | undefined;
  /** The delivery and payment in force (the shopper's choice kept valid for the methods on offer). */
  deliveryId: string;
  paymentId: string;
  payments: readonly PaymentMethod[];
  point: PickupPoint | null;
  offerSave: boolean;
  /** What is left to pay: pay in parts is judged on it. */
  payKopecks: number;
  onChooseDelivery: (id: string) => void;
  onChoosePayment: (id: string) => void;
  onOpenPoints: () => void;
  onShowSchedule: (kopecks: number) => void;
}) {
  const { errors } = fields;
  return (
    <div className="checkout__methods" aria-busy={orderParams.stale}>
      {orderParams.failed ? (
        <div className="form-banner" role="alert">
          Не удалось загрузить способы доставки.{' '}
          <button type="button" className="link-button" onClick={orderParams.retry}>
            Повторить
          </button>
        </div>
      ) : null}
      {!orderParams.stale && methods.length === 0 && city.trim() !== '' ? (
        <p className="checkout__hint">В этот город мы пока не доставляем: выберите другой город или напишите нам.</p>
      ) : null}
      {methods.length > 0 ? (
        <DeliveryCards methods={methods} selected={deliveryId} onSelect={onChooseDelivery} error={errors.delivery_id}>
          {method && hasMethodDetails(method) ? (
            <MethodDetails
              fields={fields}
              method={method}
              point={point}
              city={city}
              offerSave={offerSave}
              onOpenPoints={onOpenPoints}
            />
          ) : null}
        </DeliveryCards>
      ) : null}

      {methods.length > 0 ? (
        <PaymentCards
          methods={payments}
          selected={paymentId}
          onSelect={onChoosePayment}
          error={errors.payment_id}
          note={
            paymentId === PAYMENT_ID.cardOnline
              ? ONLINE_PAYMENT_NOTE
              : isInstalmentPaymentId(paymentId)
                ? INSTALMENT_NOTE
                : null
          }
          payKopecks={payKopecks}
          onShowSchedule={onShowSchedule}
        />
      ) : null}
    </div>
  );
}
