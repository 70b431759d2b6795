import { useRef } from 'react';
import {
  caretAfterDigits,
  commitMasked,
  digitsBefore,
  maskMaxLength,
  maskWhileTyping,
  type NumberRange,
} from '~/core/number-mask';

/**
 * SPEC §5 number-mask input: shows thousands with a space, keeps to min and max (the upper
 * bound while typing, both on blur), strips spaces before parsing, has a maxlength.
 * Controlled by its text; `onCommit` gets the clamped number (null when empty).
 */
export function NumberMaskInput({
  value,
  onChange,
  onCommit,
  range,
  ...rest
}: {
  value: string;
  onChange: (text: string) => void;
  onCommit?: (value: number | null) => void;
  range: NumberRange;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type' | 'maxLength' | 'inputMode'>) {
  const ref = useRef<HTMLInputElement>(null);
  return (
    <input
      {...rest}
      ref={ref}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      maxLength={maskMaxLength(range)}
      value={value}
      onChange={(e) => {
        const input = e.currentTarget;
        const digits = digitsBefore(input.value, input.selectionStart ?? input.value.length);
        const next = maskWhileTyping(input.value, range);
        onChange(next);
        // Keep the caret after the digit just typed, not thrown to the end by the new spaces.
        requestAnimationFrame(() => {
          if (document.activeElement !== input) return;
          const at = caretAfterDigits(next, digits);
          input.setSelectionRange(at, at);
        });
      }}
      onBlur={(e) => {
        const committed = commitMasked(e.currentTarget.value, range);
        onChange(committed === null ? '' : maskWhileTyping(String(committed), range));
        onCommit?.(committed);
        rest.onBlur?.(e);
      }}
    />
  );
}
