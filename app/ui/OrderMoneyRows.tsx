import type { OrderMoney } from '~/shared/contract';

/**
 * An order's money as the server's one breakdown gives it (core/order-money.ts moneyRows): the
 * same rows on the order pages, the paid page, the account and in the letters.
 */
export function OrderMoneyRows({
  money,
  variant = 'page',
  byEmail = false,
}: {
  money: OrderMoney;
  variant?: 'page' | 'card';
  /** Sent by e-mail (electronic certificates): no parcel, so no delivery row. */
  byEmail?: boolean;
}) {
  const page = variant === 'page';
  const rows = byEmail ? money.ROWS.filter((row) => row.KEY !== 'delivery') : money.ROWS;
  return (
    <dl className={page ? 'basket-totals order-placed__totals' : 'order-card__totals'} data-money-due={money.DUE}>
      {rows.map((row) => {
        const final = row.KEY === 'final';
        const off = row.TEXT.startsWith('−');
        const rowClass = page ? `basket-totals__row${final ? ' basket-totals__row--total' : ''}` : final ? 'order-card__total' : undefined;
        return (
          <div key={row.KEY} className={rowClass} data-money={row.KEY}>
            <dt>{row.LABEL}</dt>
            <dd className={off && page ? 'is-sale' : undefined}>{row.TEXT}</dd>
          </div>
        );
      })}
    </dl>
  );
}
