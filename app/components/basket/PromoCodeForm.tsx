import { useState } from 'react';
import { normalizePromoCode, PROMO_ERROR_NOT_FOUND } from '~/core/promo';
import { TextField } from '~/app/ui/TextField';

/**
 * SPEC §4 promo code status: none (the field); valid (applied, with a remove control); invalid
 * (the server's promo_code_error under the field). The owner keys it by the server's answer, so
 * each answer starts it afresh.
 */
export function PromoCodeForm({
  code,
  applied,
  error,
  onApply,
  onRemove,
}: {
  code: string | null;
  applied: boolean;
  error: string | null;
  onApply: (code: string) => void;
  onRemove: () => void;
}) {
  const [text, setText] = useState(applied ? '' : (code ?? ''));
  const [shownError, setShownError] = useState<string | null>(applied ? null : error);

  if (applied && code) {
    return (
      <div className="promo promo--applied" role="status">
        <p className="promo__applied">
          Промокод <strong>{code}</strong> применён
        </p>
        <button type="button" className="link-button" aria-label="Удалить промокод" onClick={onRemove}>
          Удалить
        </button>
      </div>
    );
  }

  return (
    <form
      className="promo"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() === '') return;
        const normalized = normalizePromoCode(text);
        // Text no code can be (spaces inside, symbols) never reaches the cookie or the server.
        if (!normalized) setShownError(PROMO_ERROR_NOT_FOUND);
        else onApply(normalized);
      }}
    >
      <TextField
        label="Промокод"
        name="promo_code"
        value={text}
        onChange={setText}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={32}
        invalid={shownError !== null}
        errorText={shownError ?? undefined}
        onClearError={() => setShownError(null)}
      />
      <button type="submit" className="button button--ghost promo__apply">
        Применить
      </button>
    </form>
  );
}
