import { useRef, useState } from 'react';
import { PhoneField, TextField } from '~/app/ui/TextField';
import { phoneDigits } from '~/core/phone-mask';

/** SPEC §8: what a failed call shows when the server gave no message of its own. */
export const SERVER_ERROR = 'Произошла ошибка на сервере. Пожалуйста, попробуйте позже.';

export interface Person {
  name: string;
  /** Digits only (SPEC §5): '79990000000'. */
  phone: string;
}

export type ContactResult = { ok: true } | { ok: false; error: string; fields: { name?: string; phone?: string } };

/**
 * Name and phone for the fast order and the waiting list (SPEC §5: their errors can flag the
 * fields name and phone, '*Ошибка'; §8: the server's message shows in a banner). The submit is
 * disabled while a call is out, and a second click in the same instant sends nothing.
 */
export function ContactForm({
  submitLabel,
  onSubmit,
}: {
  submitLabel: string;
  onSubmit: (person: Person) => Promise<ContactResult>;
}) {
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [flags, setFlags] = useState<{ name: boolean; phone: boolean }>({ name: false, phone: false });
  const [banner, setBanner] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const sending = useRef(false);

  async function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (sending.current) return;
    sending.current = true;
    setPending(true);
    setBanner(null);
    let result: ContactResult;
    try {
      result = await onSubmit({ name: name.trim(), phone: phoneDigits(phone) });
    } catch {
      result = { ok: false, error: SERVER_ERROR, fields: {} };
    }
    // Success: the owner moves on (navigates, or thanks); the form stays locked meanwhile.
    if (result.ok) return;
    sending.current = false;
    setPending(false);
    setBanner(result.error || SERVER_ERROR);
    setFlags({ name: Boolean(result.fields.name), phone: Boolean(result.fields.phone) });
  }

  return (
    <form className="contact-form" onSubmit={submit} noValidate aria-busy={pending}>
      {banner ? (
        <p className="form-banner" role="alert">
          {banner}
        </p>
      ) : null}
      <TextField
        label="Имя"
        name="name"
        autoComplete="name"
        value={name}
        onChange={setName}
        invalid={flags.name}
        onClearError={() => setFlags((f) => ({ ...f, name: false }))}
        maxLength={100}
      />
      <PhoneField
        label="Телефон"
        name="phone"
        value={phone}
        onChange={setPhone}
        invalid={flags.phone}
        onClearError={() => setFlags((f) => ({ ...f, phone: false }))}
      />
      <button type="submit" className="button contact-form__submit" disabled={pending} aria-busy={pending}>
        {submitLabel}
      </button>
      <p className="contact-form__consent">
        Нажимая кнопку, вы соглашаетесь с <a href="/privacy-policy/">политикой конфиденциальности</a>.
      </p>
    </form>
  );
}
