import type { PickupPoint } from '~/shared/contract';

/**
 * Under the CDEK pickup method: 'Выбрать пункт выдачи' until a point is chosen, then its name,
 * address and hours with 'Изменить'. The code travels in the hidden `code_pvz` field.
 */
export function ChosenPoint({
  point,
  available,
  onOpen,
  error,
}: {
  point: PickupPoint | null;
  /** How many points the city has: none means the list could not be loaded (the method's note says so). */
  available: number;
  onOpen: () => void;
  error: string | undefined;
}) {
  return (
    <div className={error ? 'chosen-point is-invalid' : 'chosen-point'}>
      <input type="hidden" name="code_pvz" value={point?.code ?? ''} />
      {point ? (
        <div className="chosen-point__card" aria-label="Выбранный пункт выдачи" role="group">
          <p className="chosen-point__name">{point.name}</p>
          <p className="chosen-point__address">{point.location.address_full}</p>
          <p className="chosen-point__hours">{point.work_time}</p>
          {point.address_comment ? <p className="chosen-point__comment">{point.address_comment}</p> : null}
          <button
            type="button"
            className="link-button chosen-point__change"
            onClick={onOpen}
            aria-label="Изменить пункт выдачи"
          >
            Изменить
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="button button--ghost chosen-point__open"
          onClick={onOpen}
          disabled={available === 0}
          aria-describedby={error ? 'checkout-point-error' : undefined}
        >
          Выбрать пункт выдачи
        </button>
      )}
      {error ? (
        <p className="field__error" id="checkout-point-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
