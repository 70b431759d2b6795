import type { Ref } from 'react';
import { Link } from 'react-router';

/** The page's heading: it takes the focus when a removed line takes the focused button with it. */
export function BasketTitle({ titleRef }: { titleRef: Ref<HTMLHeadingElement> }) {
  return (
    <h1 className="page__title" ref={titleRef} tabIndex={-1}>
      Корзина
    </h1>
  );
}

/** What the server repaired (sold out, cut to stock, no longer sold), as it says it. */
export function RepairNotice({ errors }: { errors: readonly string[] }) {
  return (
    <div className="basket-notice" role="status">
      <p className="basket-notice__title">Мы обновили корзину</p>
      <ul>
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}

/** The basket could not be loaded: its lines are safe in the cookies; «Обновить» asks again. */
export function BasketUnavailable({
  titleRef,
  busy,
  onRetry,
}: {
  titleRef: Ref<HTMLHeadingElement>;
  busy: boolean;
  onRetry: () => void;
}) {
  return (
    <section className="basket">
      <BasketTitle titleRef={titleRef} />
      <div className="basket-empty">
        <p className="basket-empty__title">Не удалось загрузить корзину</p>
        <p>Проверьте соединение и попробуйте ещё раз — товары в корзине сохранены.</p>
        <button type="button" className="button" onClick={onRetry} aria-busy={busy}>
          Обновить
        </button>
      </div>
    </section>
  );
}

/** Nothing to buy (after the server's repairs, which it lists): on to the catalogue. */
export function EmptyBasket({ titleRef, errors }: { titleRef: Ref<HTMLHeadingElement>; errors: readonly string[] }) {
  return (
    <section className="basket">
      <BasketTitle titleRef={titleRef} />
      {errors.length > 0 ? <RepairNotice errors={errors} /> : null}
      <div className="basket-empty">
        <p className="basket-empty__title">Корзина пуста</p>
        <p>Загляните в каталог — там новая коллекция, пальто, трикотаж и деним.</p>
        <Link to="/catalog/" className="button">
          Перейти в каталог
        </Link>
      </div>
    </section>
  );
}
