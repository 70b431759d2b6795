import { formatRub } from '~/core/money';

/**
 * The side of the checkout: the order summary and, under it, the messages that belong to no
 * field, what is left to pay (on phones, with the button) and «Оформить заказ». Desktops keep the
 * summary and the button in view together while the fields scroll (issue #26).
 */
export function CheckoutSide({
  summary,
  banner,
  payKopecks,
  busy,
}: {
  summary: React.ReactNode;
  /** order.php's messages that belong to no field ('error', 'deliverycost', 'promo_code'). */
  banner: readonly [string, string][];
  payKopecks: number;
  busy: boolean;
}) {
  return (
    <div className="checkout__side">
      <div className="checkout__aside">{summary}</div>

      <div className="checkout__submit">
        {banner.length > 0 ? (
          <div className="form-banner checkout__banner" role="alert" tabIndex={-1}>
            {banner.map(([k, message]) => (
              <p key={k}>{message}</p>
            ))}
          </div>
        ) : null}
        {/* Phones: the amount rides with the button (the summary is far above or below). */}
        <p className="checkout__pay" aria-hidden="true">
          <span>К оплате</span>
          <strong>{formatRub(payKopecks)}</strong>
        </p>
        <button type="submit" className="button checkout__button" disabled={busy} aria-busy={busy}>
          {busy ? 'Оформляем заказ…' : 'Оформить заказ'}
        </button>
        <p className="checkout__consent">
          Нажимая кнопку, вы соглашаетесь с <a href="/privacy-policy/">политикой конфиденциальности</a>.
        </p>
      </div>
    </div>
  );
}
