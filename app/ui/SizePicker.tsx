import { useId } from 'react';
import { sizeOptions, type SizedOffer } from '~/core/size-selection';

/**
 * The sizes of a product as a radio group (arrow keys move between sizes): pre-orderable ones
 * marked «предзаказ», ones that can be neither bought nor pre-ordered crossed out and disabled —
 * or, with `soldOutChoosable`, crossed out but choosable (the waiting list is offered for them).
 */
export function SizePicker({
  offers,
  chosenValue,
  onChoose,
  invalid,
  guide,
  soldOutChoosable = false,
}: {
  offers: readonly SizedOffer[];
  chosenValue: string | null;
  onChoose: (value: string) => void;
  /** The shopper pressed the button before choosing: say so beside the sizes. */
  invalid: boolean;
  guide?: React.ReactNode;
  soldOutChoosable?: boolean;
}) {
  const id = useId();
  const options = sizeOptions(offers);
  return (
    <div className={`sizes${invalid ? ' sizes--invalid' : ''}`}>
      <div className="sizes__head">
        <span className="sizes__legend" id={`${id}-label`}>
          Размер
        </span>
        {guide}
      </div>
      <div
        className="sizes__list"
        role="radiogroup"
        aria-labelledby={`${id}-label`}
        aria-describedby={invalid ? `${id}-error` : undefined}
        aria-invalid={invalid || undefined}
      >
        {options.map((o) => (
          <label key={o.value} className={`size size--${o.availability}${chosenValue === o.value ? ' is-chosen' : ''}`}>
            <input
              type="radio"
              name={`${id}-size`}
              value={o.value}
              className="size__input"
              checked={chosenValue === o.value}
              disabled={o.disabled && !soldOutChoosable}
              onChange={() => onChoose(o.value)}
            />
            <span className="size__label">{o.label}</span>
            {o.note ? <span className="size__note">{o.note}</span> : null}
          </label>
        ))}
      </div>
      {invalid ? (
        <p className="sizes__error" id={`${id}-error`} role="alert">
          Выберите размер
        </p>
      ) : null}
    </div>
  );
}
