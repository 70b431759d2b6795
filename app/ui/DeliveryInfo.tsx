import { Link } from 'react-router';
import { formatRub } from '~/core/money';

// SPEC §9 delivery facts in short; the full text is the /delivery/ page.
const MOSCOW_COURIER_KOPECKS = 70_000;

const DELIVERY_TIMES = [
  { where: 'Россия', days: '2–9 дней' },
  { where: 'Беларусь и Казахстан', days: '3–10 дней' },
  { where: 'Другие страны СНГ', days: '3–14 дней' },
] as const;

export function DeliveryInfo() {
  return (
    <div className="help">
      <section className="help__section" aria-labelledby="delivery-moscow">
        <h2 className="help__heading" id="delivery-moscow">
          Курьером по Москве
        </h2>
        <dl className="help-facts">
          <div>
            <dt>{formatRub(MOSCOW_COURIER_KOPECKS)}</dt>
            <dd>в пределах МКАД</dd>
          </div>
          <div>
            <dt>15 минут</dt>
            <dd>на примерку при курьере</dd>
          </div>
          <div>
            <dt>На следующий день</dt>
            <dd>рабочий, если заказ оформлен до 18:00</dd>
          </div>
          <div>
            <dt>До 2 изделий</dt>
            <dd>верхней одежды за один выезд курьера</dd>
          </div>
        </dl>
      </section>

      <section className="help__section" aria-labelledby="delivery-russia">
        <h2 className="help__heading" id="delivery-russia">
          По России и в СНГ
        </h2>
        <p>
          Передаём заказ в службу доставки СДЭК в течение 3 рабочих дней. Дальше — в пункт выдачи или курьером до двери.
        </p>
        <table className="help-table help-table--plain">
          <caption className="visually-hidden">Сроки доставки</caption>
          <thead>
            <tr>
              <th scope="col">Куда</th>
              <th scope="col">Срок в пути</th>
            </tr>
          </thead>
          <tbody>
            {DELIVERY_TIMES.map((row) => (
              <tr key={row.where}>
                <th scope="row">{row.where}</th>
                <td>{row.days}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="help__note">Стоимость доставки СДЭК рассчитывается при оформлении заказа, до оплаты.</p>
      </section>

      <Link to="/delivery/" className="text-link help__more">
        Подробнее о доставке и оплате
      </Link>
    </div>
  );
}
