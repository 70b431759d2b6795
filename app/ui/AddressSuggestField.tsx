import { useEffect, useId, useRef, useState } from 'react';
import type { AddressSuggestion } from '~/shared/contract';
import { useBrowserApi } from '~/app/lib/browser-api';
import { TextField } from './TextField';

/** SPEC §9: suggestions are asked for 250 ms after the last key. */
export const ADDRESS_SUGGEST_DEBOUNCE_MS = 250;
const MIN_CHARS = 2;

/**
 * SPEC §4 "Text input with suggestions" for the street: DaData suggestions (POST /api/dadata/,
 * within the chosen city) while typing, debounced; the list opens after a response and closes
 * when a suggestion is picked or the backdrop is clicked (Escape too). The error flag shows
 * '*Ошибка' and clears on the next key press. An ARIA 1.2 combobox: arrows move, Enter picks.
 */
export function AddressSuggestField({
  label,
  name,
  value,
  city,
  onChange,
  onPick,
  invalid,
  errorText,
  onClearError,
}: {
  label: string;
  name: string;
  value: string;
  city: string;
  onChange: (value: string) => void;
  onPick: (suggestion: AddressSuggestion) => void;
  invalid: boolean;
  /** The server's message for the field; '*Ошибка' without one. */
  errorText?: string | undefined;
  onClearError: () => void;
}) {
  const api = useBrowserApi();
  const listId = `${useId()}-suggestions`;
  const [suggestions, setSuggestions] = useState<AddressSuggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);

  useEffect(() => () => clearTimeout(timer.current), []);

  function ask(text: string) {
    clearTimeout(timer.current);
    const query = text.trim();
    if (query.length < MIN_CHARS) {
      latest.current++;
      setOpen(false);
      return;
    }
    timer.current = setTimeout(() => {
      const ticket = ++latest.current;
      api.suggestAddress({ query, type: 'address', city: city.trim() || undefined, restrictValue: true }).then(
        (res) => {
          // A late answer to an older query never replaces a newer one.
          if (ticket !== latest.current) return;
          setSuggestions(res.suggestions);
          setActive(-1);
          setOpen(res.suggestions.length > 0);
        },
        () => {
          // No suggestions is not an error for the shopper: they type the address themselves.
          if (ticket === latest.current) setOpen(false);
        },
      );
    }, ADDRESS_SUGGEST_DEBOUNCE_MS);
  }

  /** Also drops a question still on its way: an answer arriving after Escape, Tab or a click away must not reopen the list over the form. */
  function close() {
    latest.current++;
    clearTimeout(timer.current);
    setOpen(false);
    setActive(-1);
  }

  function pick(index: number) {
    const suggestion = suggestions[index];
    close();
    if (suggestion) onPick(suggestion);
  }

  const optionId = (i: number) => `${listId}-${i}`;
  return (
    <div className="address-suggest">
      <TextField
        label={label}
        name={name}
        value={value}
        onChange={(text) => {
          onChange(text);
          ask(text);
        }}
        invalid={invalid}
        {...(errorText ? { errorText } : {})}
        onClearError={onClearError}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        maxLength={200}
        onKeyDown={(e) => {
          if (e.key === 'Escape' || e.key === 'Tab') return close();
          if (!open) return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            const n = suggestions.length;
            setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : a <= 0 ? n - 1 : a - 1));
          } else if (e.key === 'Enter' && active >= 0) {
            e.preventDefault();
            pick(active);
          }
        }}
      />
      {open ? <div className="address-suggest__backdrop" aria-hidden="true" onClick={close} /> : null}
      <ul id={listId} role="listbox" aria-label="Подсказки адреса" className="address-suggest__list" hidden={!open}>
        {open
          ? suggestions.map((s, i) => (
              <li
                key={`${s.value}-${i}`}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className="address-suggest__option"
                // Keep the focus in the field while the pick lands.
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(i)}
              >
                {s.value}
              </li>
            ))
          : null}
      </ul>
    </div>
  );
}
