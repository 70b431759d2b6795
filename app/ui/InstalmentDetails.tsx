import { Link } from 'react-router';
import { formatRub } from '~/core/money';
import { formatRussianDate } from '~/core/dates';
import { INSTALMENT_MAX_KOPECKS, INSTALMENT_MIN_KOPECKS, instalmentSchedule } from '~/core/instalments';

// SPEC §9 Instalment: four payments of a quarter, every two weeks, the first today, for
// 500–40 000 RUB through Долями or Яндекс Сплит; a service fee is possible.

const ORDINALS = ['Первый', 'Второй', 'Третий', 'Четвёртый'] as const;

export interface InstalmentDetailsProps {
  priceKopecks: number;
  /** The price is an example (the footer), not the shopper's own: say the schedule follows the basket total. */
  example?: boolean;
  /** The day of the first payment; the shopper's today by default. */
  today?: Date;
}

export function InstalmentDetails({ priceKopecks, example = false, today = new Date() }: InstalmentDetailsProps) {
  const schedule = instalmentSchedule(priceKopecks, today);
  const range = `от ${formatRub(INSTALMENT_MIN_KOPECKS)} до ${formatRub(INSTALMENT_MAX_KOPECKS)}`;
  const price = Number.isSafeInteger(priceKopecks) ? formatRub(priceKopecks) : null;

  return (
    <div className="help">
      {schedule ? (
        <>
          <p className="help__lead">
            {example ? `Например, заказ на ${price}` : `Стоимость ${price}`} можно оплатить четырьмя платежами: первый
            сегодня, остальные — раз в две недели. Вещи вы получаете сразу после первого платежа.
          </p>
          <table className="help-table help-table--schedule">
            <caption className="visually-hidden">График платежей</caption>
            <thead>
              <tr>
                <th scope="col">Платёж</th>
                <th scope="col">Дата</th>
                <th scope="col">Сумма</th>
              </tr>
            </thead>
            <tbody>
              {schedule.map((payment, i) => (
                <tr key={payment.date.getTime()}>
                  <th scope="row">{ORDINALS[i]}</th>
                  <td>
                    {i === 0 ? <span className="help-table__today">Сегодня, </span> : null}
                    {formatRussianDate(payment.date)}
                  </td>
                  <td>{formatRub(payment.amountKopecks)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  Итого
                </th>
                <td>{price}</td>
              </tr>
            </tfoot>
          </table>
          {example ? (
            <p className="help__note">
              Это пример. Частями оплачивается весь заказ: график рассчитывается от итоговой суммы корзины при
              оформлении, для заказов {range}.
            </p>
          ) : null}
        </>
      ) : (
        <p className="help__notice" role="status">
          {price ? `Для суммы ${price} оплата частями недоступна.` : 'Для этой суммы оплата частями недоступна.'}{' '}
          Сервисы принимают заказы {range} — вы можете оплатить заказ картой целиком.
        </p>
      )}

      <section className="help__section" aria-labelledby="instalment-providers">
        <h2 className="help__heading" id="instalment-providers">
          Сервисы оплаты частями
        </h2>
        <ul className="help-providers">
          <li>
            <Link to="/dolyami/">
              <span className="help-providers__name">Долями</span>
              <span className="help-providers__text">Через личный кабинет сервиса</span>
            </Link>
          </li>
          <li>
            <Link to="/yandex-split/">
              <span className="help-providers__name">Яндекс Сплит</span>
              <span className="help-providers__text">{'Через аккаунт Яндекс\u00a0ID'}</span>
            </Link>
          </li>
        </ul>
        <p className="help__note">
          Сервис может взимать комиссию за услугу — её размер вы увидите до подтверждения оплаты. Магазин наценок не
          добавляет.
        </p>
      </section>
    </div>
  );
}
