import { useState } from 'react';
import type { UserInfo } from '~/shared/contract';
import { formatPhoneMask } from '~/core/phone';
import { TextField } from '~/app/ui/TextField';
import { useAccountFetcher } from './account-action';

/**
 * The profile form (SPEC §3 userInfo): first name, last name, patronymic and e-mail; the phone
 * is the login and cannot change here. SPEC §5: only non-empty fields are sent, so a field
 * left blank keeps its saved value.
 */
export function ProfileForm({ profile }: { profile: UserInfo }) {
  const { fetcher, result, busy, flagged, clearFlag } = useAccountFetcher('account-profile');
  const saved = {
    firstname: profile.FIRSTNAME,
    lastname: profile.LASTNAME,
    secondname: profile.SECONDNAME,
    email: profile.EMAIL,
  };
  const [values, setValues] = useState(saved);
  // A save that changed the profile (the loader revalidates after the action): the form shows
  // the saved values, the e-mail as stored (lower-cased). Adjusted during render, not in an effect.
  const savedKey = Object.values(saved).join('\u0000');
  const [shownKey, setShownKey] = useState(savedKey);
  if (shownKey !== savedKey) {
    setShownKey(savedKey);
    setValues(saved);
  }
  const field = (
    name: keyof typeof values,
    label: string,
    extra: Partial<React.ComponentProps<typeof TextField>> = {},
  ) => (
    <TextField
      label={label}
      name={name}
      value={values[name]}
      onChange={(value) => setValues((v) => ({ ...v, [name]: value }))}
      invalid={flagged === name}
      onClearError={clearFlag}
      maxLength={name === 'email' ? 254 : 50}
      {...extra}
    />
  );
  return (
    <fetcher.Form method="post" className="account-form" aria-labelledby="account-profile-title" noValidate>
      <h2 className="account__title" id="account-profile-title">
        Личные данные
      </h2>
      <input type="hidden" name="intent" value="profile" />
      {result && !result.ok ? (
        <p className="form-banner" role="alert">
          {result.error}
        </p>
      ) : null}
      <div className="account-form__grid">
        {field('firstname', 'Имя', { autoComplete: 'given-name' })}
        {field('lastname', 'Фамилия', { autoComplete: 'family-name' })}
        {field('secondname', 'Отчество', { autoComplete: 'additional-name' })}
        <div className="field">
          <label className="field__label" htmlFor="account-phone">
            Телефон
          </label>
          <input
            id="account-phone"
            className="field__input"
            value={formatPhoneMask(profile.PHONE)}
            readOnly
            aria-readonly="true"
          />
        </div>
        {field('email', 'E-mail', { type: 'email', inputMode: 'email', autoComplete: 'email' })}
      </div>
      <div className="account-form__actions">
        <button type="submit" className="button" disabled={busy} aria-busy={busy}>
          Сохранить
        </button>
        {result?.ok ? (
          <p className="account-form__done" role="status">
            {result.message}
          </p>
        ) : null}
      </div>
    </fetcher.Form>
  );
}
