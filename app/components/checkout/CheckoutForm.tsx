import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import type {
  AddressSuggestion,
  CartResponse,
  DeliveryCity,
  DeliveryMethod,
  OrderBonusesResponse,
  OrderParamsResponse,
  PickupPoint,
  SavedAddress,
  UserInfo,
} from '~/shared/contract';
import { DELIVERY_ID, PAYMENT_ID } from '~/shared/checkout-ids';
import { addressLine, CHECKOUT_MAX_LENGTH, payAmountKopecks, type CheckoutField } from '~/core/checkout';
import { formatRub, kopecksToRoubles } from '~/core/money';
import { roublesToKopecks } from '~/core/pricing';
import { useBrowserApi } from '~/app/lib/browser-api';
import { PhoneField, TextField } from '~/app/ui/TextField';
import { AddressSuggestField } from '~/app/ui/AddressSuggestField';
import { useInfoModals } from '~/app/ui/info-modals';
import { isInstalmentPaymentId } from '~/core/delivery';
import { usePickupPointModal } from './PickupPointModal';
import { CityField } from '~/app/ui/CityField';
import { ChosenPoint } from './ChosenPoint';
import { DeliveryCards, PaymentCards } from './MethodCards';
import { datesText } from '~/core/dates';
import { OrderSummary, type CostState } from './OrderSummary';
import { PayExtras, type AppliedCertificate } from './PayExtras';
import {
  addressesOfCity,
  addressForCity,
  CHECKOUT_INTENT,
  initialValues,
  isSavedAddress,
  mirrorChecks,
  paramsKey,
  paymentsFor,
  PROMO_REFUSED_FIELD,
  withAddress,
  type CheckoutFailure,
  type CheckoutValues,
} from './checkout-state';

/** The city the form starts with when the customer has no saved address: the shop's home. */
export const DEFAULT_CITY = 'Москва';
/** The cost is asked again this long after the last key in the address. */
const ADDRESS_COST_DEBOUNCE_MS = 500;
const COST_TO_CONFIRM = 'стоимость уточнит менеджер';

/** SPEC §9: payment id 9 is card online: the order is placed awaiting payment, then paid on /basket/pay/. */
const ONLINE_PAYMENT_NOTE = 'После оформления откроется страница оплаты: картой, через СБП или Yandex Pay. Пока заказ ждёт оплаты, вещи отложены для вас.';
/** Pay in parts (dolyami.md, yandex-split.md): the provider's page, then back to the shop. */
const INSTALMENT_NOTE =
  'После оформления вы перейдёте на страницу сервиса: подтвердите оплату первой части, и вернётесь на сайт. Возможную комиссию сервис покажет до подтверждения. Пока заказ ждёт оплаты, вещи отложены для вас.';

/** Field order for moving the focus to the first error. */
const FIELD_ORDER: readonly string[] = [
  'firstname',
  'lastname',
  'secondname',
  'phone',
  'email',
  'city',
  'delivery_id',
  'code_pvz',
  'street',
  'house',
  'flat',
  'postcode',
  'payment_id',
  'bonuses',
  'certificates',
  'comment',
];

const fieldError = (errors: Record<string, string>, name: CheckoutField) => errors[name];
/** The messages of order.php's `data` that belong to no field ('error', 'deliverycost', 'promo_code'): above the button. */
const bannerErrors = (errors: Record<string, string>) => Object.entries(errors).filter(([k]) => !FIELD_ORDER.includes(k));

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
  return delivery === values.delivery_id && payment === values.payment_id ? values : { ...values, delivery_id: delivery, payment_id: payment };
}

const pointsOf = (params: OrderParamsResponse | null, deliveryId: string): PickupPoint[] =>
  params?.delivery_methods.find((m) => m.ID === deliveryId)?.PVZS ?? [];

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

interface CostAnswer {
  key: string;
  kopecks: number | null;
  text: string;
  from: string | null;
  to: string | null;
  preorderFrom?: string | null | undefined;
  preorderTo?: string | null | undefined;
}

/**
 * SPEC §3 Order checkout for a logged-in customer: contacts pre-filled from the profile, the
 * city (the shop's cities and DaData's), delivery methods of the city and basket as cards (a
 * CDEK pickup point chosen in the pickup modal, an address with DaData street suggestions, a
 * foreign address), payment methods that go with the delivery, the order summary with the
 * delivery cost and the amount to pay, and 'Оформить заказ'. It posts to the /basket/ action
 * (intent 'order'), which places the order on the server with the session token; a plain form
 * post without scripts works too. The server is the judge: its `data` errors show at the fields.
 */
export function CheckoutForm({ cart, profile, addresses, cities, initialParams, ids, preorderIds, idempotencyKey, failure, bonuses }: CheckoutFormProps) {
  const api = useBrowserApi();
  const pickupModal = usePickupPointModal();
  const fetcher = useFetcher<CheckoutFailure>();
  const formRef = useRef<HTMLFormElement>(null);
  const titleId = useId();
  const [key] = useState(() => failure?.key ?? idempotencyKey);

  // `values` keeps what the shopper chose; the delivery and payment actually in force are those
  // choices kept valid for the methods on offer (reconcile), worked out on every render.
  const [values, setValues] = useState<CheckoutValues>(() => failure?.values ?? initialValues(profile, addresses[0], DEFAULT_CITY));
  const [committedCity, setCommittedCity] = useState(values.city);
  const [fetched, setFetched] = useState<{ key: string; value: OrderParamsResponse } | null>(null);
  const [failedKey, setFailedKey] = useState<string | null>(null);
  const [retry, setRetry] = useState(0);
  const [chosenPoint, setChosenPoint] = useState<PickupPoint | null>(
    () => pointsOf(initialParams.params, DELIVERY_ID.cdekPickup).find((p) => p.code === (failure?.values.code_pvz ?? '')) ?? null,
  );
  const [errors, setErrors] = useState<Record<string, string>>(failure?.errors ?? {});
  const [costAnswer, setCostAnswer] = useState<CostAnswer | null>(null);
  const [bonusRoubles, setBonusRoubles] = useState(failure?.bonuses ?? '');
  const [certificates, setCertificates] = useState<AppliedCertificate[]>([]);

  // Delivery and payment methods for the committed city and this basket: the loader's answer
  // when it is for them, otherwise the browser's (the previous ones stay, dimmed, meanwhile).
  const ask = paramsKey(committedCity, ids, preorderIds);
  const noCity = committedCity.trim() === '';
  const exact = noCity ? null : initialParams.key === ask ? initialParams.params : fetched?.key === ask ? fetched.value : undefined;
  const stale = exact === undefined;
  const params = exact === undefined ? (fetched?.value ?? initialParams.params) : exact;
  const paramsFailed = failedKey === ask;
  const chosen = reconcile(values, params);
  const methods = params?.delivery_methods ?? [];
  const method: DeliveryMethod | undefined = methods.find((m) => m.ID === chosen.delivery_id);
  const payments = paymentsFor(params, chosen.delivery_id);
  const point = chosenPoint && pointsOf(params, DELIVERY_ID.cdekPickup).some((p) => p.code === chosenPoint.code) ? chosenPoint : null;

  useEffect(() => {
    if (!stale || noCity) return;
    let live = true;
    api.getOrderParams({ city: committedCity.trim(), ids, preorderIds }).then(
      (value) => {
        if (live) setFetched({ key: ask, value });
      },
      (err: unknown) => {
        console.error('checkout: order params failed', err);
        if (live) setFailedKey(ask);
      },
    );
    return () => {
      live = false;
    };
    // One request per question (`ask` names it), and again on 'Повторить'.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ask, stale, retry]);

  // The delivery cost for the method, point and address (SPEC §7 getdeliverycost.php); until
  // it answers, the method's own price stands. A failure is logged only (SPEC §8).
  const addressForCost = useDebounced(method?.MODE === 'address' ? `${values.street.trim()} ${values.house.trim()}`.trim() : '', ADDRESS_COST_DEBOUNCE_MS);
  const costKey = `${ask}|${chosen.delivery_id}|${point?.code ?? ''}|${addressForCost}`;
  useEffect(() => {
    if (stale || !method || method.MODE === 'contact') return;
    let live = true;
    api
      .getDeliveryCost({
        city: committedCity.trim(),
        deliveryId: method.ID,
        pickupPoint: point?.code,
        address: addressForCost || undefined,
        ids,
        preorderIds,
        basketCost: cart.total.TOTAL_PRICE_WITH_DISCOUNT,
      })
      .then(
        (res) => {
          if (live)
            setCostAnswer({
              key: costKey,
              kopecks: res.deliverycost === null ? null : roublesToKopecks(res.deliverycost),
              text: res.text,
              from: res.DATE_FROM,
              to: res.DATE_TO,
              preorderFrom: res.PREORDER_DATE_FROM,
              preorderTo: res.PREORDER_DATE_TO,
            });
        },
        (err: unknown) => {
          console.error('checkout: delivery cost failed', err);
          if (live) setCostAnswer({ key: costKey, kopecks: null, text: COST_TO_CONFIRM, from: method.DATE_FROM, to: method.DATE_TO });
        },
      );
    return () => {
      live = false;
    };
    // One request per cost question (costKey names it).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [costKey, stale]);

  // The action's answer, taken once when it arrives: errors at their fields, and a changed
  // delivery cost shown for the shopper to confirm (the next post sends it).
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const [taken, setTaken] = useState(result);
  if (result !== taken) {
    setTaken(result);
    if (result) {
      setErrors(result.errors);
      if (result.deliveryCost !== undefined) {
        const kopecks = result.deliveryCost === null ? null : roublesToKopecks(result.deliveryCost);
        setCostAnswer({
          key: costKey,
          kopecks,
          text: COST_TO_CONFIRM,
          from: costAnswer?.from ?? method?.DATE_FROM ?? null,
          to: costAnswer?.to ?? method?.DATE_TO ?? null,
        });
      }
    }
  }
  useEffect(() => {
    if (result) focusFirstError(result.errors);
    // Only a new answer moves the focus.
  }, [result]);

  const cost: CostState = !method
    ? { kind: 'none' }
    : costAnswer?.key === costKey
      ? { kind: 'known', kopecks: costAnswer.kopecks, text: costAnswer.text }
      : { kind: 'known', kopecks: method.PRICE === null ? null : roublesToKopecks(method.PRICE), text: method.PRICE_TEXT };
  const costKopecks = cost.kind === 'known' ? cost.kopecks : null;
  const fullKopecks = payAmountKopecks(roublesToKopecks(cart.total.TOTAL_PRICE_WITH_DISCOUNT), costKopecks);
  // What bonuses and certificates are expected to take off (the server works it out again).
  const bonusKopecks = bonuses ? Math.min(Number(bonusRoubles || '0'), bonuses.max) * 100 : 0;
  const certificateKopecks = Math.min(
    certificates.reduce((sum, c) => sum + c.balanceKopecks, 0),
    fullKopecks - bonusKopecks,
  );
  const payKopecks = fullKopecks - bonusKopecks - certificateKopecks;
  const infoModals = useInfoModals();
  const dates = method ? (costAnswer?.key === costKey ? datesText(costAnswer.from, costAnswer.to) : datesText(method.DATE_FROM, method.DATE_TO)) : null;
  // A basket mixing goods in stock and pre-orders: the pre-orders come later (issue #26).
  const preorderDates = method
    ? costAnswer?.key === costKey
      ? datesText(costAnswer.preorderFrom, costAnswer.preorderTo)
      : datesText(method.PREORDER_DATE_FROM, method.PREORDER_DATE_TO)
    : null;
  const busy = fetcher.state !== 'idle';

  const offerSave = method?.MODE === 'address' && values.street.trim() !== '' && !isSavedAddress(values, addresses);
  const banner = bannerErrors(errors);

  function set<K extends keyof CheckoutValues>(name: K, value: CheckoutValues[K]) {
    setValues((v) => ({ ...v, [name]: value }));
  }

  function clearError(...names: string[]) {
    setErrors((e) => {
      if (!names.some((n) => n in e)) return e;
      const next = { ...e };
      for (const n of names) delete next[n];
      return next;
    });
  }

  function focusFirstError(found: Record<string, string>) {
    const form = formRef.current;
    if (!form) return;
    const first = FIELD_ORDER.find((name) => name in found);
    const target =
      first === 'code_pvz'
        ? form.querySelector<HTMLElement>('.chosen-point button')
        : first
          ? form.querySelector<HTMLElement>(`[name="${first}"]:not([type="hidden"])`)
          : form.querySelector<HTMLElement>('.checkout__banner');
    target?.focus();
  }

  function chooseDelivery(id: string) {
    setValues((v) => reconcile({ ...v, delivery_id: id }, params));
    clearError('delivery_id', 'payment_id', 'deliverycost');
  }

  function commitCity(city: string) {
    if (city.trim() === committedCity.trim()) return;
    setCommittedCity(city);
    // A saved address belongs to its city: another city's street never rides along (issue #26).
    setValues((v) => addressForCity(v, city, addresses));
    clearError('city', 'delivery_id', 'code_pvz', 'deliverycost', 'street', 'house', 'flat', 'postcode');
  }

  function pickStreet(s: AddressSuggestion) {
    setValues((v) => ({
      ...v,
      street: s.data.street_with_type ?? s.value,
      house: s.data.house ?? v.house,
      flat: s.data.flat ?? v.flat,
      postcode: s.data.postal_code ?? v.postcode,
    }));
    clearError('street', 'house', 'postcode');
  }

  function pickSaved(index: number) {
    const address = cityAddresses[index];
    setValues(address ? withAddress(values, address) : { ...values, street: '', house: '', flat: '', postcode: '' });
    clearError('street', 'house', 'flat', 'postcode');
  }

  function openPoints() {
    if (!method) return;
    void pickupModal.openPickupPoints({
      points: method.PVZS ?? [],
      selectedCode: point?.code ?? null,
      cityName: params?.city?.NAME ?? committedCity,
      onChoose(picked) {
        setChosenPoint(picked);
        clearError('code_pvz', 'deliverycost');
      },
    });
  }

  const text = (name: CheckoutField, label: string, extra: Partial<React.ComponentProps<typeof TextField>> = {}) => (
    <TextField
      label={label}
      name={name}
      value={values[name]}
      onChange={(v) => set(name, v)}
      invalid={fieldError(errors, name) !== undefined}
      errorText={fieldError(errors, name)}
      onClearError={() => clearError(name)}
      maxLength={CHECKOUT_MAX_LENGTH[name]}
      {...extra}
    />
  );

  // Only the saved addresses of the chosen city are offered (issue #26).
  const cityAddresses = addressesOfCity(addresses, committedCity);
  const savedIndex = cityAddresses.findIndex((a) => isSavedAddress(values, [a]));

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
            setErrors(found);
            focusFirstError(found);
          }
        }}
      >
        <input type="hidden" name="intent" value={CHECKOUT_INTENT} />
        <input type="hidden" name="key" value={key} />
        {!cart.promocode && cart.promo_code_error ? <input type="hidden" name={PROMO_REFUSED_FIELD} value="yes" /> : null}
        <input type="hidden" name="deliverycost" value={costKopecks === null ? '' : String(kopecksToRoubles(costKopecks))} />

        <div className="checkout__fields">
          <fieldset className="checkout__group">
            <legend className="checkout__legend">Получатель</legend>
            <div className="checkout__row">
              {text('firstname', 'Имя', { autoComplete: 'given-name' })}
              {text('lastname', 'Фамилия', { autoComplete: 'family-name' })}
            </div>
            {text('secondname', 'Отчество', { autoComplete: 'additional-name' })}
            <div className="checkout__row">
              <PhoneField
                label="Телефон"
                name="phone"
                value={values.phone}
                onChange={(v) => set('phone', v)}
                invalid={errors.phone !== undefined}
                errorText={errors.phone}
                onClearError={() => clearError('phone')}
              />
              {text('email', 'E-mail', { type: 'email', inputMode: 'email', autoComplete: 'email' })}
            </div>
            <p className="checkout__hint">На e-mail придёт чек и письмо с заказом.</p>
          </fieldset>

          <fieldset className="checkout__group">
            <legend className="checkout__legend">Доставка</legend>
            <CityField
              value={values.city}
              cities={cities}
              onChange={(v) => set('city', v)}
              onCommit={commitCity}
              error={errors.city}
              onClearError={() => clearError('city')}
            />
            {cityAddresses.length > 1 ? (
              <div className="field">
                <label className="field__label" htmlFor={`${titleId}-saved`}>
                  Сохранённый адрес
                </label>
                <select id={`${titleId}-saved`} className="field__input" value={savedIndex} onChange={(e) => pickSaved(Number(e.currentTarget.value))}>
                  {cityAddresses.map((a, i) => (
                    <option key={a.id} value={i}>
                      {addressLine({ city: a.city, street: a.street, house: a.house, flat: a.flat, postcode: '' })}
                    </option>
                  ))}
                  <option value={-1}>Другой адрес</option>
                </select>
              </div>
            ) : null}
          </fieldset>

          <div className="checkout__methods" aria-busy={stale}>
            {paramsFailed ? (
              <div className="form-banner" role="alert">
                Не удалось загрузить способы доставки.{' '}
                <button
                  type="button"
                  className="link-button"
                  onClick={() => {
                    setFailedKey(null);
                    setRetry((n) => n + 1);
                  }}
                >
                  Повторить
                </button>
              </div>
            ) : null}
            {!stale && methods.length === 0 && committedCity.trim() !== '' ? (
              <p className="checkout__hint">В этот город мы пока не доставляем: выберите другой город или напишите нам.</p>
            ) : null}
            {methods.length > 0 ? (
              <DeliveryCards methods={methods} selected={chosen.delivery_id} onSelect={chooseDelivery} error={errors.delivery_id}>
                {method?.MODE === 'pickup' ? (
                  <ChosenPoint point={point} available={method.PVZS?.length ?? 0} onOpen={openPoints} error={errors.code_pvz} />
                ) : method?.MODE === 'address' ? (
                  <div className="checkout__address">
                    <AddressSuggestField
                      label="Улица"
                      name="street"
                      value={values.street}
                      city={committedCity}
                      onChange={(v) => set('street', v)}
                      onPick={pickStreet}
                      invalid={errors.street !== undefined}
                      errorText={errors.street}
                      onClearError={() => clearError('street')}
                    />
                    <div className="checkout__row checkout__row--three">
                      {text('house', 'Дом')}
                      {text('flat', 'Квартира', { autoComplete: 'address-line2' })}
                      {text('postcode', 'Индекс', { inputMode: 'numeric', autoComplete: 'postal-code' })}
                    </div>
                    {offerSave ? (
                      <label className="checkbox">
                        <input
                          type="checkbox"
                          name="save_address"
                          value="yes"
                          checked={values.save_address}
                          onChange={(e) => set('save_address', e.currentTarget.checked)}
                        />
                        <span>Сохранить адрес в профиле</span>
                      </label>
                    ) : null}
                  </div>
                ) : method?.MODE === 'contact' ? (
                  <TextArea
                    label="Адрес доставки"
                    hint="Страна, город, улица, дом, квартира и индекс"
                    name="street"
                    value={values.street}
                    onChange={(v) => set('street', v)}
                    error={errors.street}
                    onClearError={() => clearError('street')}
                    maxLength={CHECKOUT_MAX_LENGTH.street}
                    rows={3}
                  />
                ) : null}
              </DeliveryCards>
            ) : null}

            {methods.length > 0 ? (
              <PaymentCards
                methods={payments}
                selected={chosen.payment_id}
                onSelect={(id) => {
                  set('payment_id', id);
                  clearError('payment_id');
                }}
                error={errors.payment_id}
                note={chosen.payment_id === PAYMENT_ID.cardOnline ? ONLINE_PAYMENT_NOTE : isInstalmentPaymentId(chosen.payment_id) ? INSTALMENT_NOTE : null}
                payKopecks={payKopecks}
                onShowSchedule={(kopecks) => void infoModals.openInstalment(kopecks)}
              />
            ) : null}
          </div>

          <PayExtras
            bonuses={bonuses}
            bonusRoubles={bonusRoubles}
            onBonusChange={setBonusRoubles}
            certificates={certificates}
            onCertificatesChange={setCertificates}
            errors={errors}
            onClearError={clearError}
          />

          <TextArea
            label="Комментарий к заказу"
            name="comment"
            value={values.comment}
            onChange={(v) => set('comment', v)}
            error={errors.comment}
            onClearError={() => clearError('comment')}
            maxLength={CHECKOUT_MAX_LENGTH.comment}
            rows={2}
          />
        </div>

        {/* Desktops: the summary and the button stay in view together while the fields scroll (issue #26). */}
        <div className="checkout__side">
          <div className="checkout__aside">
            <OrderSummary
              cart={cart}
              cost={cost}
              payKopecks={payKopecks}
              dates={dates}
              preorderDates={preorderDates}
              bonusKopecks={bonusKopecks}
              certificateKopecks={certificateKopecks}
            />
          </div>

          <div className="checkout__submit">
            {banner.length > 0 ? (
              <div className="form-banner checkout__banner" role="alert" tabIndex={-1}>
                {banner.map(([k, message]) => (
                  <p key={k}>{message}</p>
                ))}
              </div>
            ) : null}
            {/* Phones: the amount rides with the button (the summary is far above or below). */}
            <p className="checkout__pay" aria-hidden="true">
              <span>К оплате</span>
              <strong>{formatRub(payKopecks)}</strong>
            </p>
            <button type="submit" className="button checkout__button" disabled={busy} aria-busy={busy}>
              {busy ? 'Оформляем заказ…' : 'Оформить заказ'}
            </button>
            <p className="checkout__consent">
              Нажимая кнопку, вы соглашаетесь с <a href="/privacy-policy/">политикой конфиденциальности</a>.
            </p>
          </div>
        </div>
      </fetcher.Form>
    </section>
  );
}

/** A labelled textarea in the TextField style: the server's message under it until the next key press. */
function TextArea({
  label,
  hint,
  value,
  onChange,
  error,
  onClearError,
  ...rest
}: {
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  onClearError: () => void;
} & Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'id'>) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <textarea
        {...rest}
        id={id}
        className="field__input field__input--area"
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
        onKeyDown={() => {
          if (error) onClearError();
        }}
      />
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
