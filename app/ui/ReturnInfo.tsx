import { Link } from 'react-router';
import { formatRub } from '~/core/money';

// SPEC §9 return facts in short; the full text is the /return/ page.
const RETURN_SHIPPING_MIN_KOPECKS = 40_000;
const RETURN_SHIPPING_MAX_KOPECKS = 200_000;

export function ReturnInfo() {
  return (
    <div className="help">
      <p className="help__lead">
        Если вещь не подошла, её можно вернуть. Вещь должна сохранить товарный вид, ярлыки и бирки.
      </p>

      <section className="help__section" aria-labelledby="return-terms">
        <h2 className="help__heading" id="return-terms">
          Сроки возврата
        </h2>
        <dl className="help-facts">
          <div>
            <dt>7 дней</dt>
            <dd>с момента получения заказа из интернет-магазина</dd>
          </div>
          <div>
            <dt>14 дней</dt>
            <dd>после покупки в магазинах в Москве и Санкт-Петербурге</dd>
          </div>
        </dl>
      </section>

      <section className="help__section" aria-labelledby="return-money">
        <h2 className="help__heading" id="return-money">
          Как вернутся деньги
        </h2>
        <ol className="help-steps">
          <li>
            <strong>До 10 рабочих дней</strong> — проверяем возврат после того, как получим посылку.
          </li>
          <li>
            <strong>До 30 рабочих дней</strong> — идут деньги на карту, срок зависит от банка.
          </li>
        </ol>
        <p className="help__note">
          Обратную доставку через СДЭК оплачивает покупатель: от {formatRub(RETURN_SHIPPING_MIN_KOPECKS)} до{' '}
          {formatRub(RETURN_SHIPPING_MAX_KOPECKS)} в зависимости от города и веса. В наших магазинах заказ из
          интернет-магазина можно вернуть бесплатно.
        </p>
      </section>

      <Link to="/return/" className="text-link help__more">
        Подробнее о возврате и обмене
      </Link>
    </div>
  );
}
