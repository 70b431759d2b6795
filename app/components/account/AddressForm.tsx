import { useEffect, useState } from 'react';
import type { AddressSuggestion, DeliveryCity, SavedAddress } from '~/shared/contract';
import { TextField } from '~/app/ui/TextField';
import { CityField } from '~/app/ui/CityField';
import { AddressSuggestField } from '~/app/ui/AddressSuggestField';
import { useAccountFetcher } from './account-action';

type Fields = Omit<SavedAddress, 'id'>;
const EMPTY: Fields = { city: '', street: '', house: '', flat: '', postal_code: '', comment: '' };

/**
 * Adds an address or edits a saved one (address_add.php with `id`). City and street are
 * required (the server says so); the city suggests cities as checkout's does, and the server
 * refuses one that is not a city (issue #26); the street suggests addresses within the city, and
 * a pick fills the house and postal code it knows. Closes itself once saved.
 */
export function AddressForm({
  address,
  onDone,
  cities,
}: {
  address?: SavedAddress | undefined;
  onDone: () => void;
  cities: readonly DeliveryCity[];
}) {
  const { fetcher, result, busy, flagged, clearFlag } = useAccountFetcher();
  const [values, setValues] = useState<Fields>(address ? { ...address } : EMPTY);
  const set = (name: keyof Fields) => (value: string) => setValues((v) => ({ ...v, [name]: value }));

  useEffect(() => {
    if (result?.ok) onDone();
  }, [result, onDone]);

  function pick(s: AddressSuggestion) {
    setValues((v) => ({
      ...v,
      city: v.city.trim() || s.data.city || v.city,
      street: s.data.street_with_type ?? s.value,
      house: s.data.house ?? v.house,
      postal_code: s.data.postal_code ?? v.postal_code,
    }));
    clearFlag();
  }

  const title = address ? 'Изменить адрес' : 'Новый адрес';
  const text = (name: keyof Fields, label: string, extra: Partial<React.ComponentProps<typeof TextField>> = {}) => (
    <TextField
      label={label}
      name={name}
      value={values[name]}
      onChange={set(name)}
      invalid={flagged === name}
      onClearError={clearFlag}
      maxLength={200}
      {...extra}
    />
  );
  return (
    <fetcher.Form method="post" className="account-form address-form" aria-label={title} noValidate>
      <h3 className="address-form__title">{title}</h3>
      <input type="hidden" name="intent" value="address-save" />
      {address ? <input type="hidden" name="id" value={address.id} /> : null}
      {result && !result.ok && result.field !== 'city' ? (
        <p className="form-banner" role="alert">
          {result.error}
        </p>
      ) : null}
      <div className="account-form__grid">
        <CityField
          value={values.city}
          cities={cities}
          onChange={set('city')}
          // The city only narrows the street's suggestions here: nothing to ask on commit.
          onCommit={() => undefined}
          error={flagged === 'city' && result && !result.ok ? result.error : undefined}
          onClearError={clearFlag}
        />
        <AddressSuggestField
          label="Улица"
          name="street"
          value={values.street}
          city={values.city}
          onChange={set('street')}
          onPick={pick}
          invalid={flagged === 'street'}
          onClearError={clearFlag}
        />
        <div className="address-form__row">
          {text('house', 'Дом')}
          {text('flat', 'Квартира')}
          {text('postal_code', 'Индекс', { inputMode: 'numeric', autoComplete: 'postal-code', maxLength: 10 })}
        </div>
        {text('comment', 'Комментарий для курьера', { maxLength: 500 })}
      </div>
      <div className="account-form__actions">
        <button type="submit" className="button" disabled={busy} aria-busy={busy}>
          Сохранить адрес
        </button>
        <button type="button" className="link-button" onClick={onDone}>
          Отмена
        </button>
      </div>
    </fetcher.Form>
  );
}
