import { useId, useState } from 'react';
import type { BonusesResponse } from '~/shared/contract';
import { formatBirthday, formatBonuses, LOYALTY } from '~/core/loyalty';
import { useAccountFetcher } from './account-action';

// The account's «Бонусы» (content/pages/loyalty.md, bonuses.php): the balance in big type, the
// bonuses still to come from received orders, the birthday (set once, then read-only) and the
// history of every move, newest first.

const bonusesOf = (roubles: number) => formatBonuses(roubles * 100);

/** '+500 бонусов', '−300 бонусов' (a real minus sign). */
function signed(roubles: number): string {
  return `${roubles < 0 ? '\u2212' : '+'}${bonusesOf(Math.abs(roubles))}`;
}

export function BonusAccount({ bonuses }: { bonuses: BonusesResponse | null }) {
  return (
    <section className="account__section bonus-account" id="bonuses" aria-labelledby="account-bonuses">
      <h2 className="account__title" id="account-bonuses">
        Бонусы
      </h2>
      {bonuses ? (
        <>
          <p className="bonus-account__balance">
            <span className="bonus-account__label">На счёте</span>
            <strong className="bonus-account__amount">{bonusesOf(bonuses.balance)}</strong>
          </p>
          <p className="bonus-account__note">
            1 бонус = 1 ₽. Бонусами можно оплатить до {LOYALTY.maxSharePercent}% заказа.{' '}
            <a href="/loyalty/">Как работает программа лояльности</a>
          </p>
          {bonuses.pending.length > 0 ? (
            <ul className="bonus-account__pending" aria-label="Скоро начислим">
              {bonuses.pending.map((p) => (
                <li key={p.order_id}>
                  {signed(p.amount)} за заказ №{p.order_id} придут {p.date}
                </li>
              ))}
            </ul>
          ) : null}
          <BirthdayField birthday={bonuses.birthday} />
          <BonusHistory history={bonuses.history} />
        </>
      ) : (
        <p className="form-banner" role="alert">
          Не удалось загрузить бонусы. Произошла ошибка на сервере. Пожалуйста, попробуйте позже.
        </p>
      )}
    </section>
  );
}

/** The birthday: a date field saved once (birthday.php), then shown read-only with why it cannot change. */
function BirthdayField({ birthday }: { birthday: string | null }) {
  const { fetcher, result, busy, flagged, clearFlag } = useAccountFetcher('account-birthday');
  const [value, setValue] = useState('');
  const id = useId();
  const done = result?.ok ? (
    <p className="account-form__done" role="status">
      {result.message}
    </p>
  ) : null;
  if (birthday)
    return (
      <div className="bonus-birthday">
        <dl className="account__facts">
          <div>
            <dt>Дата рождения</dt>
            <dd>{formatBirthday(birthday)}</dd>
          </div>
        </dl>
        <p className="bonus-birthday__note">
          Дату рождения можно указать только один раз, изменить её нельзя. Если она указана с ошибкой, напишите нам в
          чат.
        </p>
        {done}
      </div>
    );
  const invalid = flagged === 'birthday';
  const today = new Date().toISOString().slice(0, 10);
  return (
    <fetcher.Form method="post" className="account-form bonus-birthday" aria-labelledby={`${id}-title`} noValidate>
      <h3 className="bonus-account__subtitle" id={`${id}-title`}>
        Подарок ко дню рождения
      </h3>
      <p className="bonus-birthday__note" id={`${id}-note`}>
        {bonusesOf(LOYALTY.birthdayKopecks / 100)} в подарок: они действуют за {LOYALTY.birthdayDaysAround} дней до и{' '}
        {LOYALTY.birthdayDaysAround} дней после дня рождения. Дату можно указать только один раз — изменить её потом
        нельзя.
      </p>
      <input type="hidden" name="intent" value="birthday" />
      {result && !result.ok ? (
        <p className="form-banner" role="alert">
          {result.error}
        </p>
      ) : null}
      <div className={invalid ? 'field field--invalid' : 'field'}>
        <label className="field__label" htmlFor={id}>
          Дата рождения
        </label>
        <input
          id={id}
          className="field__input"
          type="date"
          name="birthday"
          required
          min="1900-01-01"
          max={today}
          autoComplete="bday"
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-note`}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            if (invalid) clearFlag();
          }}
        />
      </div>
      <div className="account-form__actions">
        <button type="submit" className="button" disabled={busy || value === ''} aria-busy={busy}>
          Сохранить дату
        </button>
      </div>
    </fetcher.Form>
  );
}

function BonusHistory({ history }: { history: BonusesResponse['history'] }) {
  return (
    <div className="bonus-history">
      <h3 className="bonus-account__subtitle" id="account-bonus-history">
        История
      </h3>
      {history.length === 0 ? (
        <p className="account__empty">
          Пока пусто. За покупки бонусы приходят через {LOYALTY.accrualDelayDays} дней после получения заказа.
        </p>
      ) : (
        <ol className="bonus-history__list" aria-labelledby="account-bonus-history">
          {history.map((h, i) => (
            <li key={`${i}-${h.kind}`} className="bonus-history__item">
              <span className="bonus-history__date">{h.date}</span>
              <span className="bonus-history__text">
                {h.text}
                {h.expires ? <span className="bonus-history__expires">действуют по {h.expires}</span> : null}
              </span>
              <span className={`bonus-history__amount${h.amount < 0 ? ' bonus-history__amount--minus' : ''}`}>
                {signed(h.amount)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
