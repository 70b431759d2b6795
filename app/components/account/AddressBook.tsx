import { useCallback, useState } from 'react';
import type { DeliveryCity, SavedAddress } from '~/shared/contract';
import { AddressForm } from './AddressForm';
import { useAccountFetcher } from './account-action';

/** One line for an address as a courier reads it. */
export function addressLine(a: SavedAddress): string {
  return [a.postal_code, a.city, a.street, a.house && `д ${a.house}`, a.flat && `кв ${a.flat}`]
    .filter(Boolean)
    .join(', ');
}

/**
 * Saved addresses with add, edit and remove. SPEC §8: an addresses error (from the list call or
 * a change) shows above the list and never replaces it.
 */
export function AddressBook({
  addresses,
  error,
  cities,
}: {
  addresses: SavedAddress[];
  error: string | null;
  cities: readonly DeliveryCity[];
}) {
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const done = useCallback(() => setEditing(null), []);
  const remove = useAccountFetcher('account-address-remove');
  const shownError = error ?? (remove.result && !remove.result.ok ? remove.result.error : null);
  return (
    <section className="account__section" aria-labelledby="account-addresses">
      <h2 className="account__title" id="account-addresses">
        Адреса доставки
      </h2>
      {shownError ? (
        <p className="form-banner" role="alert">
          {shownError}
        </p>
      ) : null}
      {addresses.length === 0 ? <p className="account__empty">Сохранённых адресов пока нет.</p> : null}
      <ul className="address-list">
        {addresses.map((a) => (
          <li key={a.id} className="address-list__item">
            {editing === a.id ? (
              <AddressForm address={a} onDone={done} cities={cities} />
            ) : (
              <>
                <div className="address-list__text">
                  <p className="address-list__line">{addressLine(a)}</p>
                  {a.comment ? <p className="address-list__comment">{a.comment}</p> : null}
                </div>
                <div className="address-list__actions">
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => setEditing(a.id)}
                    aria-label={`Изменить адрес: ${addressLine(a)}`}
                  >
                    Изменить
                  </button>
                  <remove.fetcher.Form method="post">
                    <input type="hidden" name="intent" value="address-remove" />
                    <input type="hidden" name="id" value={a.id} />
                    <button
                      type="submit"
                      className="link-button"
                      aria-label={`Удалить адрес: ${addressLine(a)}`}
                      disabled={remove.busy}
                    >
                      Удалить
                    </button>
                  </remove.fetcher.Form>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
      {editing === 'new' ? (
        <AddressForm onDone={done} cities={cities} />
      ) : (
        <button type="button" className="button button--ghost" onClick={() => setEditing('new')}>
          Добавить адрес
        </button>
      )}
    </section>
  );
}
