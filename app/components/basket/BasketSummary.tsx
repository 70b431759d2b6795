import { Link } from 'react-router';
import type { CartResponse } from '~/shared/contract';
import { formatRoubles } from '~/core/pricing';
import { useShopperCounts } from '~/app/lib/shopper-state';
import { PromoCodeForm } from './PromoCodeForm';
import type { SaveBasket } from './BasketContents';

/**
 * The basket's side column: the promo code, the totals, and the way on: to the checkout form
 * below (`checkoutBelow`, a customer's) or the login that brings this basket along.
 */
export function BasketSummary({
  server,
  promoCode,
  checkoutBelow,
  save,
}: {
  server: CartResponse;
  /** The code of the cookie, as the shopper typed it. */
  promoCode: string | null;
  checkoutBelow: boolean;
  save: SaveBasket;
}) {
  const { loggedIn } = useShopperCounts();
  const total = server.total;
  return (
    <aside className="basket__summary" aria-label="Итого" data-keep-clear>
      <PromoCodeForm
        key={`${promoCode ?? ''}|${server.promocode}|${server.promo_code_error ?? ''}`}
        code={promoCode}
        applied={server.promocode}
        error={server.promo_code_error}
        onApply={(code) => save({ promoCode: code })}
        onRemove={() => save({ promoCode: null })}
      />
      <dl className="basket-totals">
        <div className="basket-totals__row">
          <dt>Сумма без скидки</dt>
          <dd>{formatRoubles(total.TOTAL_PRICE_WITHOUT_DISCOUNT)}</dd>
        </div>
        <div className="basket-totals__row">
          <dt>Скидка</dt>
          <dd className={total.TOTAL_DISCOUNT > 0 ? 'is-sale' : undefined}>
            {total.TOTAL_DISCOUNT > 0 ? `−${formatRoubles(total.TOTAL_DISCOUNT)}` : formatRoubles(0)}
          </dd>
        </div>
        <div className="basket-totals__row basket-totals__row--total">
          <dt>Итого</dt>
          <dd>{formatRoubles(total.TOTAL_PRICE_WITH_DISCOUNT)}</dd>
        </div>
      </dl>
      {/* The checkout form itself is below the basket (#checkout): it needs the page's width. */}
      <div className="basket__checkout">
        {checkoutBelow ? (
          <a href="#checkout" className="button basket__to-checkout">
            Перейти к оформлению
          </a>
        ) : (
          <>
            <p>
              Чтобы оформить заказ с доставкой, войдите по номеру телефона: товары из корзины сохранятся. Или купите
              модель в один клик на её странице — менеджер перезвонит и всё согласует.
            </p>
            {/* SPEC §4: logging in from the basket comes back here, with this basket joined to the customer's. */}
            {loggedIn ? null : (
              <Link to="/auth/?next=/basket/" className="button button--ghost basket__login">
                Войти
              </Link>
            )}
          </>
        )}
      </div>
      <p className="basket__small">
        <Link to="/delivery/">Доставка</Link> по России, СНГ и миру · <Link to="/return/">Возврат</Link> в течение 7
        дней
      </p>
    </aside>
  );
}
