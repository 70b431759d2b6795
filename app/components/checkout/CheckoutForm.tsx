import { useId, useMemo, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import type {
  CartResponse,
  DeliveryCity,
  OrderBonusesResponse,
  OrderParamsResponse,
  PickupPoint,
  SavedAddress,
  UserInfo,
} from '~/shared/contract';
import { DELIVERY_ID } from '~/shared/checkout-ids';
import { CHECKOUT_FIELDS, CHECKOUT_MAX_LENGTH } from '~/core/checkout';
import { basketMoneyLines, checkoutMoney } from '~/core/order-money';
import { kopecksToRoubles } from '~/core/money';
import { roublesToKopecks } from '~/core/pricing';
import { useBrowserApi } from '~/app/lib/browser-api';
import { useInfoModals } from '~/app/ui/info-modals';
import { usePickupPointModal } from './PickupPointModal';
import { OrderSummary } from './OrderSummary';
import { PayExtras, type AppliedCertificate } from './PayExtras';
import { ContactFields } from './ContactFields';
import { DeliveryCityFields } from './DeliveryFields';
import { DeliveryAndPayment } from './DeliveryAndPayment';
import { CheckoutSide } from './CheckoutSide';
import { TextArea } from './TextArea';
import { useActionAnswer, useCheckoutFields, useDeliveryCost, useOrderParams } from './use-checkout';
import {
  addressesOfCity,
  addressForCity,
  CHECKOUT_INTENT,
  initialValues,
  isSavedAddress,
  mirrorChecks,
  paymentsFor,
  PROMO_REFUSED_FIELD,
  type CheckoutFailure,
  type CheckoutValues,
} from './checkout-state';

/** The city the form starts with when the customer has no saved address: the shop's home. */
export const DEFAULT_CITY = 'Москва';

/** Field order for moving the focus to the first error: the form's fields, bonuses and certificates shown before the comment. */
const FIELD_ORDER: readonly string[] = CHECKOUT_FIELDS.flatMap((name) =>
  name === 'comment' ? ['bonuses', 'certificates', name] : [name],
);

/** The messages of order.php's `data` that belong to no field ('error', 'deliverycost', 'promo_code'): above the button. */
const bannerErrors = (errors: Record<string, string>) =>
  Object.entries(errors).filter(([k]) => !FIELD_ORDER.includes(k));

export interface CheckoutFormProps {
  cart: CartResponse;
  profile: UserInfo | null;
  addresses: readonly SavedAddress[];
  cities: readonly DeliveryCity[];
  /** The delivery and payment methods the loader got for the starting city and basket. */
  initialParams: { key: string; params: OrderParamsResponse | null };
  /** The basket as the server accepted it ('id:qty' lists): what the methods and the cost are asked for. */
  ids: string;
  preorderIds: string;
  /** One per page load: a repeat of the same submission finds the same order. */
  idempotencyKey: string;
  /** The action's answer when the page was rendered after a post without scripts. */
  failure: CheckoutFailure | null;
  /** The customer's bonuses and the most this basket can take; null when unknown. */
  bonuses: OrderBonusesResponse | null;
}

/** The chosen delivery and payment kept valid for the methods on offer (the first when the choice is gone). */
function reconcile(values: CheckoutValues, params: OrderParamsResponse | null): CheckoutValues {
  const methods = params?.delivery_methods ?? [];
  const delivery = methods.some((m) => m.ID === values.delivery_id) ? values.delivery_id : (methods[0]?.ID ?? '');
  const payments = paymentsFor(params, delivery);
  const payment = payments.some((p) => p.ID === values.payment_id) ? values.payment_id : (payments[0]?.ID ?? '');
  return delivery === values.delivery_id && payment === values.payment_id
    ? values
    : { ...values, delivery_id: delivery, payment_id: payment };
}

const pointsOf = (params: OrderParamsResponse | null, deliveryId: string): PickupPoint[] =>
  params?.delivery_methods.find((m) => m.ID === deliveryId)?.PVZS ?? [];

/**
 * SPEC §3 Order checkout for a logged-in customer, in the order the shopper fills it: the
 * recipient (ContactFields, pre-filled from the profile), the city and a saved address of it
 * (DeliveryCityFields), the city's delivery methods with what the chosen one needs and the
 * payment methods that go with it (DeliveryAndPayment), bonuses and certificates (PayExtras), a
 * comment, then the summary and «Оформить заказ» (CheckoutSide). It posts to the /basket/ action
 * (intent 'order'), which places the order on the server with the session token; a plain form
 * post without scripts works too. The server is the judge: its `data` errors show at the fields.
 */
export function CheckoutForm({
  cart,
  profile,
  addresses,
  cities,
  initialParams,
  ids,
  preorderIds,
  idempotencyKey,
  failure,
  bonuses,
}: CheckoutFormProps) {
  const api = useBrowserApi();
  const pickupModal = usePickupPointModal();
  const infoModals = useInfoModals();
  const fetcher = useFetcher<CheckoutFailure>();
  const formRef = useRef<HTMLFormElement>(null);
  const titleId = useId();
  const [key] = useState(() => failure?.key ?? idempotencyKey);

  // `fields.values` keeps what the shopper chose; the delivery and payment actually in force are
  // those choices kept valid for the methods on offer (reconcile), worked out on every render.
  const fields = useCheckoutFields(
    () => failure?.values ?? initialValues(profile, addresses[0], DEFAULT_CITY),
    failure?.errors ?? {},
  );
  const { values, errors } = fields;
  const [committedCity, setCommittedCity] = useState(values.city);
  const [chosenPoint, setChosenPoint] = useState<PickupPoint | null>(
    () =>
      pointsOf(initialParams.params, DELIVERY_ID.cdekPickup).find((p) => p.code === (failure?.values.code_pvz ?? '')) ??
      null,
  );
  const [bonusRoubles, setBonusRoubles] = useState(failure?.bonuses ?? '');
  const [certificates, setCertificates] = useState<AppliedCertificate[]>([]);

  const orderParams = useOrderParams({ api, initialParams, city: committedCity, ids, preorderIds });
  const { params, stale } = orderParams;
  const chosen = reconcile(values, params);
  const methods = params?.delivery_methods ?? [];
  const method = methods.find((m) => m.ID === chosen.delivery_id);
  const payments = paymentsFor(params, chosen.delivery_id);
  const point =
    chosenPoint && pointsOf(params, DELIVERY_ID.cdekPickup).some((p) => p.code === chosenPoint.code)
      ? chosenPoint
      : null;

  const delivery = useDeliveryCost({
    api,
    ask: orderParams.ask,
    stale,
    method,
    pointCode: point?.code,
    address: method?.MODE === 'address' ? `${values.street.trim()} ${values.house.trim()}`.trim() : '',
    city: committedCity,
    ids,
    preorderIds,
    basketCost: cart.total.TOTAL_PRICE_WITH_DISCOUNT,
  });
  const { cost, costKopecks } = delivery;

  // The action's answer: errors at their fields, and a changed delivery cost shown for the
  // shopper to confirm (the next post sends it).
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  useActionAnswer(
    result,
    (answer) => {
      fields.setErrors(answer.errors);
      if (answer.deliveryCost !== undefined)
        delivery.confirm(answer.deliveryCost === null ? null : roublesToKopecks(answer.deliveryCost));
    },
    (answer) => focusFirstError(answer.errors),
  );

  // The summary's money: the breakdown the order will have (core/order-money.ts); the server works it out again.
  const moneyLines = useMemo(() => basketMoneyLines(cart), [cart]);
  const money = checkoutMoney({
    lines: moneyLines,
    deliveryKopecks: costKopecks,
    bonusKopecks: bonuses ? Math.min(Number(bonusRoubles || '0'), bonuses.max) * 100 : 0,
    certificateBalancesKopecks: certificates.map((c) => c.balanceKopecks),
    paymentId: chosen.payment_id,
  });
  const payKopecks = money.dueKopecks;
  const busy = fetcher.state !== 'idle';

  const offerSave = method?.MODE === 'address' && values.street.trim() !== '' && !isSavedAddress(values, addresses);
  // Only the saved addresses of the chosen city are offered (issue #26).
  const cityAddresses = addressesOfCity(addresses, committedCity);

  function focusFirstError(found: Record<string, string>) {
    const el = formRef.current;
    if (!el) return;
    const first = FIELD_ORDER.find((name) => name in found);
    const target =
      first === 'code_pvz'
        ? el.querySelector<HTMLElement>('.chosen-point button')
        : first
          ? el.querySelector<HTMLElement>(`[name="${first}"]:not([type="hidden"])`)
          : el.querySelector<HTMLElement>('.checkout__banner');
    target?.focus();
  }

  function chooseDelivery(id: string) {
    fields.setValues((v) => reconcile({ ...v, delivery_id: id }, params));
    fields.clearError('delivery_id', 'payment_id', 'deliverycost');
  }

  function commitCity(city: string) {
    if (city.trim() === committedCity.trim()) return;
    setCommittedCity(city);
    // A saved address belongs to its city: another city's street never rides along (issue #26).
    fields.setValues((v) => addressForCity(v, city, addresses));
    fields.clearError('city', 'delivery_id', 'code_pvz', 'deliverycost', 'street', 'house', 'flat', 'postcode');
  }

  function openPoints() {
    if (!method) return;
    void pickupModal.openPickupPoints({
      points: method.PVZS ?? [],
      selectedCode: point?.code ?? null,
      cityName: params?.city?.NAME ?? committedCity,
      onChoose(picked) {
        setChosenPoint(picked);
        fields.clearError('code_pvz', 'deliverycost');
      },
    });
  }

  return (
    <section className="checkout" id="checkout" aria-labelledby={titleId}>
      <h2 className="checkout__title" id={titleId}>
        Оформление заказа
      </h2>
      <fetcher.Form
        method="post"
        action="/basket/"
        className="checkout__form"
        data-keep-clear
        ref={formRef}
        noValidate
        aria-busy={busy}
        onSubmit={(e) => {
          const found = mirrorChecks({ ...chosen, code_pvz: point?.code ?? '' }, stale ? undefined : method);
          if (Object.keys(found).length > 0) {
            e.preventDefault();
            fields.setErrors(found);
            focusFirstError(found);
          }
        }}
      >
        <input type="hidden" name="intent" value={CHECKOUT_INTENT} />
        <input type="hidden" name="key" value={key} />
        {!cart.promocode && cart.promo_code_error ? (
          <input type="hidden" name={PROMO_REFUSED_FIELD} value="yes" />
        ) : null}
        <input
          type="hidden"
          name="deliverycost"
          value={costKopecks === null ? '' : String(kopecksToRoubles(costKopecks))}
        />

        <div className="checkout__fields">
          <ContactFields fields={fields} />
          <DeliveryCityFields
            fields={fields}
            cities={cities}
            selectId={`${titleId}-saved`}
            cityAddresses={cityAddresses}
            onCommit={commitCity}
          />
          <DeliveryAndPayment
            fields={fields}
            orderParams={orderParams}
            city={committedCity}
            methods={methods}
            method={method}
            deliveryId={chosen.delivery_id}
            paymentId={chosen.payment_id}
            payments={payments}
            point={point}
            offerSave={offerSave}
            payKopecks={payKopecks}
            onChooseDelivery={chooseDelivery}
            onChoosePayment={(id) => {
              fields.set('payment_id', id);
              fields.clearError('payment_id');
            }}
            onOpenPoints={openPoints}
            onShowSchedule={(kopecks) => void infoModals.openInstalment(kopecks)}
          />

          <PayExtras
            bonuses={bonuses}
            bonusRoubles={bonusRoubles}
            onBonusChange={setBonusRoubles}
            certificates={certificates}
            onCertificatesChange={setCertificates}
            errors={errors}
            onClearError={fields.clearError}
          />

          <TextArea
            label="Комментарий к заказу"
            name="comment"
            value={values.comment}
            onChange={(v) => fields.set('comment', v)}
            error={errors.comment}
            onClearError={() => fields.clearError('comment')}
            maxLength={CHECKOUT_MAX_LENGTH.comment}
            rows={2}
          />
        </div>

        <CheckoutSide
          summary={
            <OrderSummary
              cart={cart}
              cost={cost}
              money={money}
              dates={delivery.dates}
              preorderDates={delivery.preorderDates}
            />
          }
          banner={bannerErrors(errors)}
          payKopecks={payKopecks}
          busy={busy}
        />
      </fetcher.Form>
    </section>
  );
}
