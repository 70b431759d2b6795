import type { DeliveryMethod, PaymentMethod } from '~/shared/contract';
import { datesText, formatRussianDate } from '~/core/dates';
import { isInstalmentPaymentId } from '~/core/delivery';
import { instalmentSchedule, instalmentUnavailableReason } from '~/core/instalments';
import { formatRub } from '~/core/money';

/**
 * The delivery methods of the city as radio cards: name, price, timing with the expected
 * dates, the note for this basket (the courier's trips) and the description. A plain radio
 * group underneath, so it works with the keyboard and without scripts.
 */
export function DeliveryCards({
  methods,
  selected,
  onSelect,
  error,
  children,
}: {
  methods: readonly DeliveryMethod[];
  selected: string;
  onSelect: (id: string) => void;
  error: string | undefined;
  /** Shown under the chosen card (the pickup point, the address fields). */
  children?: React.ReactNode;
}) {
  return (
    <fieldset className="checkout__group" aria-describedby={error ? 'checkout-delivery-error' : undefined}>
      <legend className="checkout__legend">Способ доставки</legend>
      {error ? (
        <p className="field__error checkout__group-error" id="checkout-delivery-error">
          {error}
        </p>
      ) : null}
      <div className="method-cards">
        {methods.map((m) => {
          const dates = datesText(m.DATE_FROM, m.DATE_TO);
          const checked = m.ID === selected;
          return (
            <div key={m.ID} className={checked ? 'method-card is-checked' : 'method-card'}>
              <label className="method-card__label">
                <input
                  type="radio"
                  name="delivery_id"
                  value={m.ID}
                  checked={checked}
                  onChange={() => onSelect(m.ID)}
                  className="method-card__radio"
                />
                <span className="method-card__body">
                  <span className="method-card__head">
                    <span className="method-card__name">{m.NAME}</span>
                    <span className="method-card__price">{m.PRICE_TEXT}</span>
                  </span>
                  <span className="method-card__period">
                    {m.PERIOD_TEXT}
                    {dates && m.PERIOD_TEXT !== dates ? ` · ${dates}` : ''}
                  </span>
                  {m.DESCRIPTION ? <span className="method-card__text">{m.DESCRIPTION}</span> : null}
                  {m.NOTE ? <span className="method-card__note">{m.NOTE}</span> : null}
                </span>
              </label>
              {checked && children ? <div className="method-card__extra">{children}</div> : null}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The payment methods that go with the chosen delivery, as radio cards. */
export function PaymentCards({
  methods,
  selected,
  onSelect,
  error,
  note,
  payKopecks,
  onShowSchedule,
}: {
  methods: readonly PaymentMethod[];
  selected: string;
  onSelect: (id: string) => void;
  error: string | undefined;
  note: string | null;
  /** What the shopper pays, delivery included when known: pay in parts is judged on it (the API's reason otherwise). */
  payKopecks?: number;
  /** Opens the instalment details modal for this amount. */
  onShowSchedule?: (payKopecks: number) => void;
}) {
  return (
    <fieldset className="checkout__group" aria-describedby={error ? 'checkout-payment-error' : undefined}>
      <legend className="checkout__legend">Способ оплаты</legend>
      {error ? (
        <p className="field__error checkout__group-error" id="checkout-payment-error">
          {error}
        </p>
      ) : null}
      {methods.length === 0 ? <p className="checkout__hint">Сначала выберите способ доставки.</p> : null}
      <div className="method-cards">
        {methods.map((m) => {
          const checked = m.ID === selected;
          const parts = isInstalmentPaymentId(m.ID);
          // Pay in parts: the 4 dated payments for this amount, or why it cannot be chosen.
          const reason = parts
            ? payKopecks !== undefined
              ? instalmentUnavailableReason(payKopecks)
              : (m.DISABLED_REASON ?? null)
            : null;
          const schedule =
            parts && !reason && payKopecks !== undefined ? instalmentSchedule(payKopecks, new Date()) : null;
          const detailsId = `payment-${m.ID}-details`;
          return (
            <div
              key={m.ID}
              className={checked ? 'method-card is-checked' : reason ? 'method-card is-disabled' : 'method-card'}
              data-payment-id={m.ID}
            >
              <label className="method-card__label">
                <input
                  type="radio"
                  name="payment_id"
                  value={m.ID}
                  checked={checked}
                  disabled={reason !== null && !checked}
                  onChange={() => onSelect(m.ID)}
                  className="method-card__radio"
                  aria-describedby={parts ? detailsId : undefined}
                />
                <span className="method-card__body">
                  <span className="method-card__name">{m.NAME}</span>
                  {m.DESCRIPTION ? <span className="method-card__text">{m.DESCRIPTION}</span> : null}
                  {reason ? (
                    <span className="method-card__note" id={detailsId}>
                      Недоступно: {reason}
                    </span>
                  ) : schedule ? (
                    <span className="method-card__text" id={detailsId}>
                      {schedule
                        .map(
                          (p, i) =>
                            `${i === 0 ? 'сегодня' : formatRussianDate(p.date).replace(/ \d{4}$/, '')} — ${formatRub(p.amountKopecks)}`,
                        )
                        .join('; ')}
                    </span>
                  ) : null}
                </span>
              </label>
              {schedule && onShowSchedule && payKopecks !== undefined ? (
                <button
                  type="button"
                  className="link-button method-card__extra"
                  onClick={() => onShowSchedule(payKopecks)}
                >
                  График платежей
                </button>
              ) : null}
            </div>
          );
        })}
      </div>
      {note ? <p className="checkout__hint">{note}</p> : null}
    </fieldset>
  );
}
