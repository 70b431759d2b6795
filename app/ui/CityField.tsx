import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { DeliveryCity } from '~/shared/contract';
import { useBrowserApi } from '~/app/lib/browser-api';
import { TextField } from './TextField';
import { ADDRESS_SUGGEST_DEBOUNCE_MS } from './AddressSuggestField';

const MAX_SHOWN = 8;

interface Option {
  name: string;
  /** Region and country, shown beside the name. */
  detail: string;
}

const norm = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/^(г\.?|город)\s+/, '');

/** The shop's cities that match what is typed: names starting with it first, then containing it. */
export function matchCities(cities: readonly DeliveryCity[], text: string): DeliveryCity[] {
  const q = norm(text);
  if (q === '') return cities.slice(0, MAX_SHOWN);
  const starts = cities.filter((c) => norm(c.NAME).startsWith(q) || norm(c.COUNTRY).startsWith(q));
  const contains = cities.filter((c) => !starts.includes(c) && norm(c.NAME).includes(q));
  return [...starts, ...contains].slice(0, MAX_SHOWN);
}

const detailOf = (c: DeliveryCity) => [c.REGION, c.COUNTRY].filter(Boolean).join(', ');

/**
 * The city, as an ARIA 1.2 combobox: the shop's cities (get_cities.php) filtered as the shopper
 * types, each with its country; other Russian towns come from DaData's city suggestions (250 ms
 * after the last key, SPEC §9). Picking a city, leaving the field or Enter commits it: only then
 * are the delivery methods asked for, not on every key.
 */
export function CityField({
  value,
  cities,
  onChange,
  onCommit,
  error,
  onClearError,
}: {
  value: string;
  cities: readonly DeliveryCity[];
  onChange: (value: string) => void;
  onCommit: (value: string) => void;
  error: string | undefined;
  onClearError: () => void;
}) {
  const api = useBrowserApi();
  const listId = `${useId()}-cities`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [more, setMore] = useState<Option[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);

  useEffect(() => () => clearTimeout(timer.current), []);

  const options = useMemo<Option[]>(() => {
    const own = matchCities(cities, value).map((c) => ({ name: c.NAME, detail: detailOf(c) }));
    const known = new Set(own.map((o) => norm(o.name)));
    return [...own, ...more.filter((o) => !known.has(norm(o.name)))].slice(0, MAX_SHOWN + 4);
  }, [cities, value, more]);

  function askDadata(text: string) {
    clearTimeout(timer.current);
    const query = text.trim();
    const ticket = ++latest.current;
    setMore([]);
    if (query.length < 2) return;
    timer.current = setTimeout(() => {
      api.suggestAddress({ query, type: 'city', restrictValue: false }).then(
        (res) => {
          // A late answer to an older query never replaces a newer one.
          if (ticket !== latest.current) return;
          const seen = new Set<string>();
          const found: Option[] = [];
          for (const s of res.suggestions) {
            const name = s.data.city ?? s.data.settlement_with_type ?? s.value;
            if (!name || seen.has(norm(name))) continue;
            seen.add(norm(name));
            found.push({ name, detail: [s.data.region_with_type, s.data.country].filter(Boolean).join(', ') });
          }
          setMore(found);
        },
        () => {
          // No suggestions is not an error for the shopper: the city list still works.
        },
      );
    }, ADDRESS_SUGGEST_DEBOUNCE_MS);
  }

  /** What is typed, or the one shop city it is the start of ('Санкт' → 'Санкт-Петербург'). */
  function commitTyped() {
    const q = norm(value);
    const only = q === '' ? [] : matchCities(cities, value);
    const city = only.length === 1 && only[0] && norm(only[0].NAME).startsWith(q) ? only[0].NAME : value;
    if (city !== value) onChange(city);
    onCommit(city);
  }

  function close() {
    setOpen(false);
    setActive(-1);
  }

  function pick(index: number) {
    const option = options[index];
    latest.current++;
    clearTimeout(timer.current);
    close();
    if (!option) return;
    onChange(option.name);
    onCommit(option.name);
  }

  const optionId = (i: number) => `${listId}-${i}`;
  const shown = open && options.length > 0;
  return (
    <div className="address-suggest checkout__city">
      <TextField
        label="Город"
        name="city"
        value={value}
        onChange={(text) => {
          onChange(text);
          setOpen(true);
          setActive(-1);
          askDadata(text);
        }}
        invalid={error !== undefined}
        errorText={error}
        onClearError={onClearError}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={shown}
        aria-controls={listId}
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
        autoComplete="address-level2"
        maxLength={100}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          close();
          commitTyped();
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            // Enter chooses (a city, or what is typed); it never sends the order from this field.
            e.preventDefault();
            if (shown && active >= 0) pick(active);
            else {
              close();
              commitTyped();
            }
            return;
          }
          if (!shown) {
            if (e.key === 'ArrowDown') setOpen(true);
            return;
          }
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            const n = options.length;
            setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : a <= 0 ? n - 1 : a - 1));
          } else if (e.key === 'Escape') close();
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Города"
        className="address-suggest__list"
        hidden={!shown}
        // Keep the focus in the field while the pick lands (the blur would commit the typed text).
        onMouseDown={(e) => e.preventDefault()}
        onClick={(e) => {
          const item = (e.target as HTMLElement).closest<HTMLElement>('[data-index]');
          if (item) pick(Number(item.dataset.index));
        }}
      >
        {shown
          ? options.map((o, i) => (
              <li
                key={`${o.name}-${i}`}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className="address-suggest__option city-option"
                data-index={i}
                onMouseEnter={() => setActive(i)}
              >
                <span className="city-option__name">{o.name}</span>
                {o.detail ? <span className="city-option__detail">{`, ${o.detail}`}</span> : null}
              </li>
            ))
          : null}
      </ul>
    </div>
  );
}
