import { Fragment } from 'react';
import type { CartResponse } from '~/shared/contract';
import { formatRub } from '~/core/money';
import { moneyRows, type OrderBreakdown } from '~/core/order-money';
import { pluralRu } from '~/core/plural';
import { MoneyRow } from '~/app/ui/OrderMoneyRows';

export type CostState =
  /** No delivery method chosen yet. */
  | { kind: 'none' }
  | { kind: 'loading' }
  /** Kopecks; null: not known online (text says why: 'стоимость уточнит менеджер', 'по договорённости'). */
  | { kind: 'known'; kopecks: number | null; text: string };

const PIECES = ['товар', 'товара', 'товаров'] as const;

/** What the cost row says: the sum, 'бесплатно', or the server's text when there is no sum. */
export function costText(cost: CostState): string {
  if (cost.kind === 'none') return 'выберите способ доставки';
  if (cost.kind === 'loading') return 'рассчитываем…';
  if (cost.kopecks === null) return cost.text || 'стоимость уточнит менеджер';
  return cost.kopecks === 0 ? 'бесплатно' : formatRub(cost.kopecks);
}

/**
 * The order as it will be placed (issue #26): the money rows the order will have once placed,
 * from the one breakdown (core/order-money.ts checkoutMoney → moneyRows: goods, sale, promo,
 * bonuses, delivery, certificates, and what is left to pay and how), with how many items and
 * pre-orders, the gift covers, and when the order and its pre-orders are expected.
 */
export function OrderSummary({
  cart,
  cost,
  money,
  dates,
  preorderDates = null,
}: {
  cart: CartResponse;
  cost: CostState;
  money: OrderBreakdown;
  dates: string | null;
  /** When the pre-orders of a mixed basket are expected (the goods in stock come by `dates`). */
  preorderDates?: string | null;
}) {
  const count = (test: (i: CartResponse['items'][number]) => boolean) =>
    cart.items.filter(test).reduce((n, i) => n + i.QUANTITY, 0);
  const goods = count((i) => i.IS_GIFT === 'N' && i.IS_PREORDER === 'N');
  const preorders = count((i) => i.IS_GIFT === 'N' && i.IS_PREORDER === 'Y');
  const covers = count((i) => i.IS_GIFT === 'Y');
  return (
    <div className="order-summary">
      <h3 className="checkout__legend">Ваш заказ</h3>
      <p className="order-summary__count">
        {goods + preorders} {pluralRu(goods + preorders, ...PIECES)}
        {preorders > 0 ? `, из них ${preorders} по предзаказу` : ''}
      </p>
      <dl className="basket-totals">
        {moneyRows(money).map((row) => (
          <Fragment key={row.key}>
            <MoneyRow
              // The delivery as the checkout knows it: to choose, being worked out, or the carrier's words.
              row={{ KEY: row.key, LABEL: row.label, TEXT: row.key === 'delivery' ? costText(cost) : row.text }}
              live={row.key === 'delivery'}
            />
            {row.key === 'goods' && covers > 0 ? (
              <div className="basket-totals__row">
                <dt>Подарочный чехол для пальто{covers > 1 ? ` × ${covers}` : ''}</dt>
                <dd>в подарок</dd>
              </div>
            ) : null}
            {row.key === 'delivery' && dates ? (
              <div className="basket-totals__row basket-totals__row--stacked">
                <dt>Ожидаемая доставка</dt>
                <dd>{dates}</dd>
              </div>
            ) : null}
            {row.key === 'delivery' && preorderDates ? (
              <div className="basket-totals__row basket-totals__row--stacked">
                <dt>Предзаказ</dt>
                <dd>{preorderDates}</dd>
              </div>
            ) : null}
          </Fragment>
        ))}
      </dl>
    </div>
  );
}
