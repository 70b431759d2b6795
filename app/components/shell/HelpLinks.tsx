import { useInfoModals } from '~/app/ui/info-modals';

// The shopper's quick help in the footer: the info modals of SPEC §2 in one row.
const EXAMPLE_PRICE_KOPECKS = 2_000_000; // 20 000 RUB, the example of the instalment pages

export function HelpLinks() {
  const modals = useInfoModals();
  return (
    <div className="help-links" role="group" aria-label="Справка для покупателей">
      <button type="button" className="help-links__button" onClick={modals.openSizeGuide}>
        Таблица размеров
      </button>
      <button type="button" className="help-links__button" onClick={modals.openDelivery}>
        Доставка
      </button>
      <button type="button" className="help-links__button" onClick={modals.openReturn}>
        Возврат
      </button>
      <button
        type="button"
        className="help-links__button"
        onClick={() => modals.openInstalment(EXAMPLE_PRICE_KOPECKS, { example: true })}
      >
        Оплата частями
      </button>
    </div>
  );
}
