import { useId } from 'react';
import { maskPhoneWhileTyping, PHONE_MASK_LENGTH } from '~/core/phone-mask';

/** SPEC §4/§8: the text an error flag shows under a field unless told otherwise. */
export const FIELD_ERROR = '*Ошибка';

type InputProps = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'id'>;

/**
 * A labelled text input. `invalid` flags it: the border turns red and the error text shows under
 * it (read with the field); the flag clears on the next key press (SPEC §4 Text input).
 */
export function TextField({
  label,
  value,
  onChange,
  invalid = false,
  errorText = FIELD_ERROR,
  onClearError,
  ...input
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  errorText?: string;
  onClearError?: () => void;
} & InputProps) {
  const id = useId();
  return (
    <div className={invalid ? 'field field--invalid' : 'field'}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        {...input}
        id={id}
        className="field__input"
        value={value}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (invalid) onClearError?.();
          input.onKeyDown?.(e);
        }}
      />
      {invalid ? (
        <p className="field__error" id={`${id}-error`}>
          {errorText}
        </p>
      ) : null}
    </div>
  );
}

/** A phone field with the mask +7 (###) ###-##-## (SPEC §2, §9), applied as the shopper types or pastes. */
export function PhoneField(props: Omit<React.ComponentProps<typeof TextField>, 'type' | 'inputMode' | 'maxLength'>) {
  return (
    <TextField
      autoComplete="tel"
      placeholder="+7 (___) ___-__-__"
      {...props}
      type="tel"
      inputMode="tel"
      maxLength={PHONE_MASK_LENGTH}
      onChange={(value) => props.onChange(maskPhoneWhileTyping(value))}
    />
  );
}
