import { Link } from 'react-router';
import { BASKET_NOTICE } from '~/core/basket-cookie';
import { addToPreorders } from '~/app/lib/basket-state';
import { trackAddToCart } from '~/app/lib/analytics';
import { useModal } from '~/app/ui/ModalHost';
import { useNotify } from '~/app/ui/Notifications';
import { ProductSummary } from './ProductSummary';
import { preorderProductData, type BuyTarget } from './buy-target';

/** The pre-order modal ('Предзаказ товара'): what is ordered ahead, how it works, and the confirmation. */
export function PreorderConfirm({ target }: { target: BuyTarget }) {
  const { close } = useModal();
  const notify = useNotify();
  return (
    <div className="buy-modal">
      <ProductSummary target={target} />
      <div className="buy-modal__text">
        <p>
          {target.sizeLabel ? `Размера ${target.sizeLabel} сейчас нет в наличии` : 'Этой модели сейчас нет в наличии'} —
          оформите предзаказ, и мы отправим заказ, как только модель поступит. Менеджер позвонит, чтобы подтвердить
          сроки.
        </p>
        <p>
          Вернуть или обменять предзаказ можно в течение 14 дней с момента получения.{' '}
          <Link to="/pre-order/">Подробнее о предзаказе</Link>
        </p>
      </div>
      <button
        type="button"
        className="button buy-modal__confirm"
        onClick={() => {
          addToPreorders(target.offerId, preorderProductData(target));
          trackAddToCart({
            id: String(target.offerId),
            name: target.name,
            price: target.price,
            quantity: 1,
            variant: target.sizeLabel ?? undefined,
          });
          notify({ text: BASKET_NOTICE.preorderAdded });
          close();
        }}
      >
        Подтвердить предзаказ
      </button>
    </div>
  );
}
