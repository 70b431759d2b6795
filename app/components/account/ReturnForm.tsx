import { useId } from 'react';
import type { AccountOrder } from '~/shared/contract';
import { REASON_MAX_LENGTH } from '~/core/account';
import { useAccountFetcher } from './account-action';

/** A return request for lines of a received order still within the period (content/pages/return.md); the server checks it all again. */
export function ReturnForm({
  order,
  action,
  fetcherKey,
}: {
  order: Pick<AccountOrder, 'ID' | 'ITEMS'>;
  /** The route that takes the request (the account's), when not this one. */
  action?: string;
  /** Names the request so a page can show its answer once the form is gone (nothing left to return). */
  fetcherKey?: string;
}) {
  const { fetcher, result, busy } = useAccountFetcher(fetcherKey);
  const reasonId = useId();
  const lines = order.ITEMS.filter((i) => i.returnable > 0);
  return (
    <fetcher.Form
      method="post"
      action={action}
      className="account-form return-form"
      aria-label={`Возврат по заказу № ${order.ID}`}
    >
      <input type="hidden" name="intent" value="return" />
      <input type="hidden" name="order_id" value={order.ID} />
      {result && !result.ok ? (
        <p className="form-banner" role="alert">
          {result.error}
        </p>
      ) : null}
      {result?.ok ? (
        <p className="account-form__done" role="status">
          {result.message}
        </p>
      ) : null}
      <ul className="return-form__lines">
        {lines.map((line) => (
          <li key={`${line.id}-${line.isPreorder ? 'p' : 'n'}`} className="return-form__line">
            <label>
              <span>
                {line.title}
                {line.size ? `, размер ${line.size}` : ''}
              </span>
              <select name={`items[${line.id}]`} defaultValue="0" aria-label={`Сколько вернуть: ${line.title}`}>
                {Array.from({ length: line.returnable + 1 }, (_, n) => (
                  <option key={n} value={n}>
                    {n === 0 ? 'Не возвращать' : `${n} шт.`}
                  </option>
                ))}
              </select>
            </label>
          </li>
        ))}
      </ul>
      <div className="field">
        <label className="field__label" htmlFor={reasonId}>
          Причина возврата
        </label>
        <textarea
          id={reasonId}
          name="reason"
          className="field__input return-form__reason"
          rows={3}
          maxLength={REASON_MAX_LENGTH}
        />
      </div>
      <button type="submit" className="button" disabled={busy} aria-busy={busy}>
        Отправить заявку
      </button>
    </fetcher.Form>
  );
}
