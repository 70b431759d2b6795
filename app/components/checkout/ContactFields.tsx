import { CHECKOUT_MAX_LENGTH, type CheckoutField } from '~/core/checkout';
import { PhoneField, TextField } from '~/app/ui/TextField';
import type { CheckoutFields } from './use-checkout';

/** One text field of the checkout bound to its value and its message (order.php's name). */
export function CheckoutTextField({
  fields,
  name,
  label,
  ...extra
}: { fields: CheckoutFields; name: CheckoutField; label: string } & Partial<React.ComponentProps<typeof TextField>>) {
  return (
    <TextField
      label={label}
      name={name}
      value={fields.values[name]}
      onChange={(v) => fields.set(name, v)}
      invalid={fields.errors[name] !== undefined}
      errorText={fields.errors[name]}
      onClearError={() => fields.clearError(name)}
      maxLength={CHECKOUT_MAX_LENGTH[name]}
      {...extra}
    />
  );
}

/** «Получатель»: the names, phone and e-mail, pre-filled from the profile (SPEC §3). */
export function ContactFields({ fields }: { fields: CheckoutFields }) {
  return (
    <fieldset className="checkout__group">
      <legend className="checkout__legend">Получатель</legend>
      <div className="checkout__row">
        <CheckoutTextField fields={fields} name="firstname" label="Имя" autoComplete="given-name" />
        <CheckoutTextField fields={fields} name="lastname" label="Фамилия" autoComplete="family-name" />
      </div>
      <CheckoutTextField fields={fields} name="secondname" label="Отчество" autoComplete="additional-name" />
      <div className="checkout__row">
        <PhoneField
          label="Телефон"
          name="phone"
          value={fields.values.phone}
          onChange={(v) => fields.set('phone', v)}
          invalid={fields.errors.phone !== undefined}
          errorText={fields.errors.phone}
          onClearError={() => fields.clearError('phone')}
        />
        <CheckoutTextField
          fields={fields}
          name="email"
          label="E-mail"
          type="email"
          inputMode="email"
          autoComplete="email"
        />
      </div>
      <p className="checkout__hint">На e-mail придёт чек и письмо с заказом.</p>
    </fieldset>
  );
}
