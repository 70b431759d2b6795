import type { OrderMoney } from '~/shared/contract';

/**
 * An order's money as the server's one breakdown gives it (core/order-money.ts moneyRows): the
 * same rows on the order pages, the paid page, the account and in the letters.
 */
export function OrderMoneyRows({ money, variant = 'page' }: { money: OrderMoney; variant?: 'page' | 'card' }) {
  const page = variant === 'page';
  return (
    <dl className={page ? 'basket-totals order-placed__totals' : 'order-card__totals'} data-money-due={money.DUE}>
      {money.ROWS.map((row) => {
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
