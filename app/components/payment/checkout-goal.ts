import type { OrderDetail } from '~/shared/contract';
import { GOAL, reachGoal } from '~/app/lib/analytics';

/**
 * SPEC §7: the checkout goal, once per order in this browser tab (a reload of the order page
 * does not count again). A card order counts when it is paid (its paid page), any other when
 * it is placed (/basket/submited-order/); one mark for both, so an order never counts twice.
 */
export function reachCheckoutGoalOnce(
  order: Pick<OrderDetail, 'ID' | 'TOTAL' | 'PAYMENT'>,
  extra: Record<string, unknown> = {},
): void {
  const mark = `vitrina:checkout-goal:${order.ID}`;
  try {
    if (sessionStorage.getItem(mark)) return;
    sessionStorage.setItem(mark, '1');
  } catch {
    // Storage refused (private mode): the goal still goes, at worst twice on a reload.
  }
  reachGoal(GOAL.checkout, { order_id: order.ID, order_price: order.TOTAL.TOTAL, currency: 'RUB', ...extra });
}
