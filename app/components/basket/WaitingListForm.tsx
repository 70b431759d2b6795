import { useEffect, useRef, useState } from 'react';
import { WAITING_LIST_THANKS } from '~/core/waiting-list';
import { formatPhoneMask } from '~/core/phone';
import { useBrowserApi } from '~/app/lib/browser-api';
import { GOAL, reachGoal } from '~/app/lib/analytics';
import { useModal } from '~/app/ui/ModalHost';
import { ContactForm } from './ContactForm';
import { ProductSummary } from './ProductSummary';
import type { BuyTarget } from './buy-target';

/** SPEC §4 Waiting list: the form, then 'Товар добавлен в список ожидания' with 'Хорошо', which closes it. */
export function WaitingListForm({ target }: { target: BuyTarget }) {
  const api = useBrowserApi();
  const { close } = useModal();
  const [doneFor, setDoneFor] = useState<string | null>(null);
  const ok = useRef<HTMLButtonElement>(null);

  // The submit button that had the focus is gone: the thank-you's only button takes it.
  useEffect(() => {
    if (doneFor !== null) ok.current?.focus();
  }, [doneFor]);

  if (doneFor !== null) {
    return (
      <div className="form-done" role="status">
        <p className="form-done__title">{WAITING_LIST_THANKS}</p>
        <p className="form-done__text">
          Пришлём СМС на {formatPhoneMask(doneFor)}, как только{' '}
          {target.sizeLabel ? `размер ${target.sizeLabel}` : 'модель'} снова появится в продаже.
        </p>
        <button type="button" className="button form-done__button" ref={ok} onClick={close}>
          Хорошо
        </button>
      </div>
    );
  }

  return (
    <div className="buy-modal">
      <ProductSummary target={target} />
      <p className="buy-modal__text">
        Этого размера сейчас нет в наличии. Оставьте имя и телефон — мы пришлём СМС, когда он снова появится.
      </p>
      <ContactForm
        submitLabel="Сообщить о поступлении"
        onSubmit={async (person) => {
          const res = await api.joinWaitingList({ productId: target.offerId, name: person.name, phone: person.phone });
          if (!res.success) return { ok: false, error: res.error.data.error, fields: res.error.data.fields };
          reachGoal(GOAL.notifyWhenAvailable, { product_id: target.productId, offer_id: target.offerId });
          setDoneFor(person.phone);
          return { ok: true };
        }}
      />
    </div>
  );
}
