import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { PaymentWidgetParams } from '~/shared/contract';
import { formatRoubles } from '~/core/pricing';
import { loadWidgetScript, openWidget } from './widget';
import { failedUrl, orderPageUrl, PAY_CHECK_PATH, type PaymentCheckAnswer } from '~/app/lib/payment-paths';

// The pay page's body (/basket/pay/ and, compact, /basket/pay/frame/): what is paid for (the
// order, the amount, the receipt of SPEC §3 and where it goes) and the button that opens the
// CloudPayments widget. On the widget's success the server is asked whether the order is paid
// (it checks with the provider); the Pay notification may come a moment after the widget
// closes, so it asks a few times before saying the payment is being processed.

/** How many times the server is asked after the widget's success, and the pause between asks. */
const CHECK_ATTEMPTS = 6;
const CHECK_PAUSE_MS = 1000;

type Phase = 'idle' | 'opening' | 'open' | 'cancelled' | 'checking' | 'processing' | 'expired' | 'missing';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function PaymentPanel({
  orderId,
  payment,
  frame,
}: {
  orderId: number;
  payment: PaymentWidgetParams;
  frame: boolean;
}) {
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>('idle');
  const [message, setMessage] = useState<string | null>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    // Fetched early, so the press opens the widget at once (a failure here is retried on the press).
    loadWidgetScript(payment.scriptUrl).catch(() => {});
    return () => {
      alive.current = false;
    };
  }, [payment.scriptUrl]);

  const receipt = payment.params.data.CloudPayments.CustomerReceipt;
  const busy = phase === 'opening' || phase === 'checking';

  /** Leaves the page; inside a frame the whole window goes (the next pages have the shop's chrome). */
  function go(to: string) {
    if (frame && window.top && window.top !== window) {
      try {
        window.top.location.assign(to);
        return;
      } catch {
        // Another site's frame: this frame moves instead.
      }
    }
    void navigate(to);
  }

  async function verify(transactionId: string | null) {
    setPhase('checking');
    const body = new URLSearchParams({ order: String(orderId) });
    if (transactionId) body.set('transaction', transactionId);
    for (let attempt = 0; attempt < CHECK_ATTEMPTS && alive.current; attempt++) {
      if (attempt > 0) await pause(CHECK_PAUSE_MS);
      let answer: PaymentCheckAnswer;
      try {
        const res = await fetch(PAY_CHECK_PATH, { method: 'POST', body, headers: { accept: 'application/json' } });
        answer = (await res.json()) as PaymentCheckAnswer;
      } catch (err) {
        console.error('payment check failed', err);
        continue;
      }
      if ('error' in answer) {
        if (answer.loggedOut) return go(`/auth/?next=${encodeURIComponent(`/basket/pay/?order=${orderId}`)}`);
        continue;
      }
      if (answer.paid) return go(answer.to);
      if (answer.status === 'cancelled') {
        setMessage(answer.message);
        setPhase('expired');
        return;
      }
    }
    if (alive.current) setPhase('processing');
  }

  async function pay() {
    setPhase('opening');
    setMessage(null);
    try {
      await loadWidgetScript(payment.scriptUrl);
    } catch (err) {
      // SPEC §8: logged, and nothing else happens (the button stays for another try).
      console.error(err);
      setPhase('missing');
      return;
    }
    const opened = openWidget(payment, {
      success: ({ transactionId }) => void verify(transactionId),
      // Closed by the shopper: not a failure of the payment, so the page stays (the order waits).
      fail: ({ reason, cancelled }) => (cancelled ? setPhase('cancelled') : go(failedUrl(orderId, reason))),
    });
    if (!opened) {
      console.error('payment widget: window.cp.CloudPayments is missing after its script loaded');
      setPhase('missing');
      return;
    }
    setPhase('open');
  }

  if (phase === 'processing' || phase === 'expired') {
    return (
      <div className="pay__outcome" role="status">
        {phase === 'processing' ? (
          <>
            <h2 className="pay__subtitle">Платёж обрабатывается</h2>
            <p className="pay__text">
              Банк ещё не подтвердил оплату. Обычно это занимает не больше нескольких минут: статус заказа обновится
              сам, а мы пришлём письмо, как только деньги поступят. Платить ещё раз не нужно.
            </p>
            <p className="pay__actions">
              <Link to={orderPageUrl(orderId)} className="button" target={frame ? '_top' : undefined}>
                Посмотреть заказ
              </Link>
            </p>
          </>
        ) : (
          <>
            <h2 className="pay__subtitle">Время на оплату истекло</h2>
            <p className="pay__text">
              {message ?? 'Заказ отменён, вещи вернулись в продажу. Если деньги списались, мы вернём их на карту.'}
            </p>
            <p className="pay__actions">
              <Link to="/catalog/" className="button" target={frame ? '_top' : undefined}>
                Вернуться в каталог
              </Link>
            </p>
          </>
        )}
      </div>
    );
  }

  return (
    <div className="pay__panel" data-keep-clear>
      <p className="pay__amount">
        <span>К оплате</span> <strong>{formatRoubles(payment.params.amount)}</strong>
      </p>
      <section className="pay__receipt" aria-labelledby="pay-receipt-title">
        <h2 className="pay__subtitle" id="pay-receipt-title">
          Чек
        </h2>
        <ul className="pay__lines">
          {receipt.Items.map((item, i) => (
            <li key={`${i}-${item.label}`} className="pay__line">
              <span className="pay__label">{item.label}</span>
              <span className="pay__qty">
                {item.quantity} {item.measurementUnit} × {formatRoubles(item.price)}
              </span>
              <span className="pay__sum">{formatRoubles(item.amount)}</span>
            </li>
          ))}
        </ul>
        {receipt.amounts.advancePayment ? (
          <>
            <p className="pay__line pay__line--subtotal">
              <span className="pay__label">Итого</span>
              <span className="pay__sum">
                {formatRoubles(Math.round((receipt.amounts.electronic + receipt.amounts.advancePayment) * 100) / 100)}
              </span>
            </p>
            <p className="pay__line pay__line--plain">
              <span className="pay__label">Подарочными сертификатами (зачёт аванса)</span>
              <span className="pay__sum">−{formatRoubles(receipt.amounts.advancePayment)}</span>
            </p>
          </>
        ) : null}
        <p className="pay__line pay__line--total">
          <span className="pay__label">{receipt.amounts.advancePayment ? 'Картой' : 'Итого'}</span>
          <span className="pay__sum">{formatRoubles(receipt.amounts.electronic)}</span>
        </p>
        <p className="pay__text pay__email">
          Электронный чек придёт на <strong>{receipt.email || payment.params.email}</strong>
        </p>
      </section>

      <div className="pay__notice" role="status">
        {phase === 'missing' ? (
          <p className="form-banner">
            Не удалось загрузить форму оплаты. Проверьте подключение к интернету и нажмите «Оплатить» ещё раз.
          </p>
        ) : phase === 'cancelled' ? (
          <p className="pay__text">Форма оплаты закрыта. Заказ ждёт оплаты: нажмите «Оплатить», когда будете готовы.</p>
        ) : phase === 'checking' ? (
          <p className="pay__text">Проверяем оплату…</p>
        ) : null}
      </div>
      <button type="button" className="button pay__button" onClick={() => void pay()} disabled={busy} aria-busy={busy}>
        Оплатить
      </button>
      <p className="pay__hint">
        Картой, через СБП, Yandex Pay или T-Pay. Форма оплаты CloudPayments откроется поверх страницы: данные карты мы
        не видим и не храним.
      </p>
    </div>
  );
}
