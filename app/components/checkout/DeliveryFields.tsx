import type { AddressSuggestion, DeliveryCity, DeliveryMethod, PickupPoint, SavedAddress } from '~/shared/contract';
import { addressLine, CHECKOUT_MAX_LENGTH } from '~/core/checkout';
import { AddressSuggestField } from '~/app/ui/AddressSuggestField';
import { CityField } from '~/app/ui/CityField';
import { ChosenPoint } from './ChosenPoint';
import { CheckoutTextField } from './ContactFields';
import { TextArea } from './TextArea';
import { isSavedAddress, withAddress } from './checkout-state';
import type { CheckoutFields } from './use-checkout';

/**
 * «Доставка»: the city (the shop's cities and DaData's, committed on a pick or on leaving the
 * field) and, when the city has more than one, the saved addresses of that city (issue #26).
 */
export function DeliveryCityFields({
  fields,
  cities,
  selectId,
  cityAddresses,
  onCommit,
}: {
  fields: CheckoutFields;
  cities: readonly DeliveryCity[];
  selectId: string;
  /** The saved addresses of the chosen city only. */
  cityAddresses: readonly SavedAddress[];
  onCommit: (city: string) => void;
}) {
  const { values, errors } = fields;
  const savedIndex = cityAddresses.findIndex((a) => isSavedAddress(values, [a]));

  function pickSaved(index: number) {
    const address = cityAddresses[index];
    fields.setValues(
      address ? withAddress(values, address) : { ...values, street: '', house: '', flat: '', postcode: '' },
    );
    fields.clearError('street', 'house', 'flat', 'postcode');
  }

  return (
    <fieldset className="checkout__group">
      <legend className="checkout__legend">Доставка</legend>
      <CityField
        value={values.city}
        cities={cities}
        onChange={(v) => fields.set('city', v)}
        onCommit={onCommit}
        error={errors.city}
        onClearError={() => fields.clearError('city')}
      />
      {cityAddresses.length > 1 ? (
        <div className="field">
          <label className="field__label" htmlFor={selectId}>
            Сохранённый адрес
          </label>
          <select
            id={selectId}
            className="field__input"
            value={savedIndex}
            onChange={(e) => pickSaved(Number(e.currentTarget.value))}
          >
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
  );
}

/** Whether the method needs something under its card (MethodDetails): e-mail delivery needs nothing. */
export const hasMethodDetails = (method: DeliveryMethod) =>
  method.MODE === 'pickup' || method.MODE === 'address' || method.MODE === 'contact';

/** What the chosen delivery method needs under its card: a pickup point, a Russian address, or a foreign one in words. */
export function MethodDetails({
  fields,
  method,
  point,
  city,
  offerSave,
  onOpenPoints,
}: {
  fields: CheckoutFields;
  method: DeliveryMethod;
  point: PickupPoint | null;
  city: string;
  /** Offer to save the address typed (not one of the saved ones). */
  offerSave: boolean;
  onOpenPoints: () => void;
}) {
  const { values, errors } = fields;
  if (method.MODE === 'pickup')
    return (
      <ChosenPoint point={point} available={method.PVZS?.length ?? 0} onOpen={onOpenPoints} error={errors.code_pvz} />
    );
  if (method.MODE === 'address') return <AddressFields fields={fields} city={city} offerSave={offerSave} />;
  if (method.MODE === 'contact')
    return (
      <TextArea
        label="Адрес доставки"
        hint="Страна, город, улица, дом, квартира и индекс"
        name="street"
        value={values.street}
        onChange={(v) => fields.set('street', v)}
        error={errors.street}
        onClearError={() => fields.clearError('street')}
        maxLength={CHECKOUT_MAX_LENGTH.street}
        rows={3}
      />
    );
  return null;
}

/** The street with DaData's suggestions of the city, house, flat and postcode, and «Сохранить адрес в профиле». */
function AddressFields({ fields, city, offerSave }: { fields: CheckoutFields; city: string; offerSave: boolean }) {
  const { values, errors } = fields;

  function pickStreet(s: AddressSuggestion) {
    fields.setValues((v) => ({
      ...v,
      street: s.data.street_with_type ?? s.value,
      house: s.data.house ?? v.house,
      flat: s.data.flat ?? v.flat,
      postcode: s.data.postal_code ?? v.postcode,
    }));
    fields.clearError('street', 'house', 'postcode');
  }

  return (
    <div className="checkout__address">
      <AddressSuggestField
        label="Улица"
        name="street"
        value={values.street}
        city={city}
        onChange={(v) => fields.set('street', v)}
        onPick={pickStreet}
        invalid={errors.street !== undefined}
        errorText={errors.street}
        onClearError={() => fields.clearError('street')}
      />
      <div className="checkout__row checkout__row--three">
        <CheckoutTextField fields={fields} name="house" label="Дом" />
        <CheckoutTextField fields={fields} name="flat" label="Квартира" autoComplete="address-line2" />
        <CheckoutTextField
          fields={fields}
          name="postcode"
          label="Индекс"
          inputMode="numeric"
          autoComplete="postal-code"
        />
      </div>
      {offerSave ? (
        <label className="checkbox">
          <input
            type="checkbox"
            name="save_address"
            value="yes"
            checked={values.save_address}
            onChange={(e) => fields.set('save_address', e.currentTarget.checked)}
          />
          <span>Сохранить адрес в профиле</span>
        </label>
      ) : null}
    </div>
  );
}
