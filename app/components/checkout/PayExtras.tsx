import { useState } from 'react';
import type { OrderBonusesResponse } from '~/shared/contract';
import { roublesToKopecks } from '~/core/pricing';
import { formatBonuses } from '~/core/loyalty';
import { useBrowserApi } from '~/app/lib/browser-api';
import { TextField } from '~/app/ui/TextField';

/** A gift certificate the shopper applied: its number as typed back by the server, and its balance. */
export interface AppliedCertificate {
  code: string;
  balanceKopecks: number;
  text: string;
}

/**
 * «Сертификаты и бонусы» of the checkout form (content/pages/loyalty.md,
 * podarochnye-sertifikaty.md): bonuses to spend, up to what this basket can take, and gift
 * certificate numbers checked one by one. What is sent: `bonuses` (whole roubles) and
 * `certificates` (numbers, comma-separated); the server is the judge of both when the order is
 * placed. Without scripts a typed number is sent as it is (`certificate_code`).
 */
export function PayExtras({
  bonuses,
  bonusRoubles,
  onBonusChange,
  certificates,
  onCertificatesChange,
  errors,
  onClearError,
}: {
  bonuses: OrderBonusesResponse | null;
  bonusRoubles: string;
  onBonusChange: (value: string) => void;
  certificates: readonly AppliedCertificate[];
  onCertificatesChange: (next: AppliedCertificate[]) => void;
  errors: Record<string, string>;
  onClearError: (...names: string[]) => void;
}) {
  const api = useBrowserApi();
  const [code, setCode] = useState('');
  const [checking, setChecking] = useState(false);
  const [codeError, setCodeError] = useState<string | null>(null);
  const certificateError = codeError ?? errors.certificates;

  async function apply() {
    const typed = code.trim();
    if (!typed) return;
    setChecking(true);
    setCodeError(null);
    onClearError('certificates');
    try {
      const answer = await api.checkCertificate(typed);
      if (!answer.success) setCodeError(answer.error);
      else if (certificates.some((c) => c.code === answer.code)) setCodeError('Этот сертификат уже указан');
      else {
        onCertificatesChange([
          ...certificates,
          { code: answer.code, balanceKopecks: roublesToKopecks(answer.balance), text: answer.text },
        ]);
        setCode('');
      }
    } catch (err) {
      console.error('checkout: certificate check failed', err);
      setCodeError('Не удалось проверить сертификат. Попробуйте ещё раз');
    } finally {
      setChecking(false);
    }
  }

  const canSpend = bonuses !== null && bonuses.balance > 0;
  return (
    <fieldset className="checkout__group pay-extras">
      <legend className="checkout__legend">Сертификаты и бонусы</legend>
      {canSpend ? (
        <div className="pay-extras__bonuses">
          <p className="pay-extras__balance">
            У вас {formatBonuses(roublesToKopecks(bonuses.balance))}.{' '}
            {bonuses.max > 0
              ? `В этом заказе можно списать до ${formatBonuses(roublesToKopecks(bonuses.max))}.`
              : bonuses.note}
          </p>
          {bonuses.max > 0 ? (
            <div className="pay-extras__row">
              <TextField
                label="Списать бонусов"
                name="bonuses"
                inputMode="numeric"
                autoComplete="off"
                maxLength={9}
                value={bonusRoubles}
                onChange={(v) => onBonusChange(v.replace(/\D/g, ''))}
                invalid={errors.bonuses !== undefined}
                errorText={errors.bonuses}
                onClearError={() => onClearError('bonuses')}
              />
              <button
                type="button"
                className="button button--ghost pay-extras__action"
                onClick={() => onBonusChange(String(bonuses.max))}
              >
                Списать {bonuses.max}
              </button>
            </div>
          ) : null}
        </div>
      ) : errors.bonuses ? (
        <p className="checkout__group-error" role="alert">
          {errors.bonuses}
        </p>
      ) : null}

      {certificates.length > 0 ? (
        <ul className="pay-extras__certificates">
          {certificates.map((c) => (
            <li key={c.code}>
              <span>
                <strong>{c.code}</strong>
                <small>{c.text}</small>
              </span>
              <button
                type="button"
                className="link-button"
                aria-label={`Убрать сертификат ${c.code}`}
                onClick={() => onCertificatesChange(certificates.filter((x) => x.code !== c.code))}
              >
                Убрать
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <input type="hidden" name="certificates" value={certificates.map((c) => c.code.replace(/\s/g, '')).join(',')} />
      <div className="pay-extras__row">
        <TextField
          label="Номер подарочного сертификата"
          name="certificate_code"
          inputMode="numeric"
          autoComplete="off"
          maxLength={24}
          value={code}
          onChange={(v) => {
            setCode(v);
            setCodeError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void apply();
            }
          }}
          invalid={certificateError !== undefined && certificateError !== null}
          errorText={certificateError ?? undefined}
          onClearError={() => onClearError('certificates')}
        />
        <button
          type="button"
          className="button button--ghost pay-extras__action"
          onClick={() => void apply()}
          disabled={checking || code.trim() === ''}
          aria-busy={checking}
        >
          {checking ? 'Проверяем…' : 'Применить'}
        </button>
      </div>
    </fieldset>
  );
}
