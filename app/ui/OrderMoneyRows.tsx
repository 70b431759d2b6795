import type { OrderMoney } from '~/shared/contract';

type MoneyRowData = OrderMoney['ROWS'][number];

/**
 * One row of an order's money (core/order-money.ts moneyRows): its label and value, what is taken
 * off in the sale colour, the last row as the total. `data-money` names the row's kind.
 */
export function MoneyRow({ row, page = true, live = false }: { row: MoneyRowData; page?: boolean; live?: boolean }) {
  const final = row.KEY === 'final';
  const off = row.TEXT.startsWith('−');
  const rowClass = page
    ? `basket-totals__row${final ? ' basket-totals__row--total' : ''}`
    : final
      ? 'order-card__total'
      : undefined;
  return (
    <div className={rowClass} data-money={row.KEY}>
      <dt>{row.LABEL}</dt>
      <dd className={off && page ? 'is-sale' : undefined} aria-live={live ? 'polite' : undefined}>
        {row.TEXT}
      </dd>
    </div>
  );
}

/**
 * An order's money as the server's one breakdown gives it (core/order-money.ts moneyRows): the
 * same rows on the order pages, the paid page, the account and in the letters, and (before the
 * order exists) in the checkout summary.
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
      {rows.map((row) => (
        <MoneyRow key={row.KEY} row={row} page={page} />
      ))}
    </dl>
  );
}
