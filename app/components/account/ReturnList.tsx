import type { AccountReturn } from '~/shared/contract';

/** The customer's return requests (returns.php), newest first. */
export function ReturnList({ returns }: { returns: AccountReturn[] }) {
  return (
    <section className="account__section" aria-labelledby="account-returns">
      <h2 className="account__title" id="account-returns">
        Возвраты
      </h2>
      {returns.length === 0 ? (
        <p className="account__empty">
          Заявок на возврат нет. <a href="/return/">Условия возврата</a>
        </p>
      ) : (
        <ol className="return-list">
          {returns.map((r) => (
            <li key={r.ID} className="return-list__item">
              <p className="return-list__head">
                <strong>Заявка № {r.ID}</strong> от {r.DATE} по заказу № {r.ORDER_ID}
                <span className="order-card__status">{r.STATUS}</span>
              </p>
              <ul className="return-list__lines">
                {r.ITEMS.map((item) => (
                  <li key={item.id}>
                    {item.title}
                    {item.size ? `, размер ${item.size}` : ''} — {item.quantity} шт.
                  </li>
                ))}
              </ul>
              {r.REASON ? <p className="return-list__reason">Причина: {r.REASON}</p> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
