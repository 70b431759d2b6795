import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useBrowserApi } from '~/app/lib/browser-api';
import { GOAL, reachGoal } from '~/app/lib/analytics';
import { useCaptchaToken } from '~/app/lib/captcha';
import { ContactForm } from './ContactForm';
import { ProductSummary } from './ProductSummary';
import type { BuyTarget } from './buy-target';

/**
 * SPEC §4 Fast order (buy in one click): name and phone for one size; success goes to
 * /basket/submited/ with the order number, errors flag the fields and show in a banner. One
 * idempotency key per opened form: a retry after a lost answer gets the same order, not a second.
 * A captcha token goes with it, as with the login code.
 */
export function FastOrderForm({ target }: { target: BuyTarget }) {
  const api = useBrowserApi();
  const navigate = useNavigate();
  const [key] = useState(newIdempotencyKey);
  const getCaptchaToken = useCaptchaToken();
  return (
    <div className="buy-modal">
      <ProductSummary target={target} />
      <p className="buy-modal__text">
        Оставьте имя и телефон — менеджер перезвонит, чтобы подтвердить заказ и договориться об оплате и доставке.
      </p>
      <ContactForm
        submitLabel="Оформить заказ"
        onSubmit={async (person) => {
          // The captcha as login has it (app/lib/captcha.ts): a token for this one submission.
          const recaptchaToken = await getCaptchaToken('fast_order');
          const res = await api.fastOrder({
            id: target.offerId,
            name: person.name,
            phone: person.phone,
            key,
            recaptchaToken,
          });
          if (!res.success) return { ok: false, error: res.data.error, fields: res.data.fields };
          reachGoal(GOAL.fastOrder, { order_id: res.order_id, order_price: target.price, currency: 'RUB' });
          void navigate(`/basket/submited/?order=${res.order_id}`);
          return { ok: true };
        }}
      />
    </div>
  );
}

/** crypto.randomUUID where the page is a secure context; random bytes in the same shape elsewhere (plain http on a LAN address). */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
}
