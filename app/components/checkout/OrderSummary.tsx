import type { CartResponse } from '~/shared/contract';
import { formatRub } from '~/core/money';
import { roublesToKopecks } from '~/core/pricing';
import { pluralRu } from '~/core/plural';

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
 * The order as it will be placed: lines, pre-orders, gift covers, the promo discount, the
 * delivery cost (or that a manager will confirm it), the amount to pay (SPEC §5) and when the
 * order is expected.
 */
export function OrderSummary({
  cart,
  cost,
  payKopecks,
  dates,
  preorderDates = null,
  bonusKopecks = 0,
  certificateKopecks = 0,
}: {
  cart: CartResponse;
  cost: CostState;
  payKopecks: number;
  dates: string | null;
  /** When the pre-orders of a mixed basket are expected (the goods in stock come by `dates`). */
  preorderDates?: string | null;
  bonusKopecks?: number;
  certificateKopecks?: number;
}) {
  const count = (test: (i: CartResponse['items'][number]) => boolean) => cart.items.filter(test).reduce((n, i) => n + i.QUANTITY, 0);
  const goods = count((i) => i.IS_GIFT === 'N' && i.IS_PREORDER === 'N');
  const preorders = count((i) => i.IS_GIFT === 'N' && i.IS_PREORDER === 'Y');
  const covers = count((i) => i.IS_GIFT === 'Y');
  const promo = roublesToKopecks(cart.total.TOTAL_DISCOUNT);
  return (
    <div className="order-summary">
      <h3 className="checkout__legend">Ваш заказ</h3>
      <dl className="basket-totals">
        <div className="basket-totals__row">
          <dt>
            {goods + preorders} {pluralRu(goods + preorders, ...PIECES)}
            {preorders > 0 ? `, из них ${preorders} по предзаказу` : ''}
          </dt>
          <dd>{formatRub(roublesToKopecks(cart.total.TOTAL_PRICE_WITHOUT_DISCOUNT))}</dd>
        </div>
        {covers > 0 ? (
          <div className="basket-totals__row">
            <dt>Подарочный чехол для пальто{covers > 1 ? ` × ${covers}` : ''}</dt>
            <dd>в подарок</dd>
          </div>
        ) : null}
        {promo > 0 ? (
          <div className="basket-totals__row">
            <dt>Скидка по промокоду</dt>
            <dd className="is-sale">−{formatRub(promo)}</dd>
          </div>
        ) : null}
        <div className="basket-totals__row">
          <dt>Доставка</dt>
          <dd aria-live="polite">{costText(cost)}</dd>
        </div>
        {dates ? (
          <div className="basket-totals__row basket-totals__row--stacked">
            <dt>Ожидаемая доставка</dt>
            <dd>{dates}</dd>
          </div>
        ) : null}
        {preorderDates ? (
          <div className="basket-totals__row basket-totals__row--stacked">
            <dt>Предзаказ</dt>
            <dd>{preorderDates}</dd>
          </div>
        ) : null}
        {bonusKopecks > 0 ? (
          <div className="basket-totals__row">
            <dt>Бонусами</dt>
            <dd className="is-sale">−{formatRub(bonusKopecks)}</dd>
          </div>
        ) : null}
        {certificateKopecks > 0 ? (
          <div className="basket-totals__row">
            <dt>Подарочными сертификатами</dt>
            <dd className="is-sale">−{formatRub(certificateKopecks)}</dd>
          </div>
        ) : null}
        <div className="basket-totals__row basket-totals__row--total">
          <dt>К оплате</dt>
          <dd>{formatRub(payKopecks)}</dd>
        </div>
      </dl>
    </div>
  );
}
