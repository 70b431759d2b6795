import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { SearchHit } from '~/shared/contract';
import { formatRoubles } from '~/core/pricing';
import { useBrowserApi } from '~/app/lib/browser-api';
import { SearchIcon } from '~/app/ui/icons';
import { Image } from '~/app/ui/Image';

/** SPEC §9: suggestions wait 250 ms after the last key. */
export const SUGGEST_DEBOUNCE_MS = 250;
export const SUGGEST_MIN_CHARS = 2;
export const SUGGEST_LIMIT = 6;

/** What the shopper had typed into the field before this code loaded (shell/SearchField.tsx). */
export interface TypedSoFar {
  value: string;
  focused: boolean;
  selection: [number | null, number | null];
  /** The form was sent. */
  submitted: boolean;
}

/**
 * The header's search field (SPEC §2): submits to /search/?q= only when the text is not empty,
 * and suggests up to six products while typing, as an ARIA 1.2 combobox with a listbox popup
 * (arrow keys move, Enter opens, Escape closes, then clears).
 */
export function SearchBox({ id, listId, typed }: { id: string; listId: string; typed: TypedSoFar | null }) {
  const api = useBrowserApi();
  const navigate = useNavigate();
  const location = useLocation();
  const [value, setValue] = useState(typed?.value ?? '');
  const [result, setResult] = useState<{ q: string; hits: SearchHit[] } | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Suggestions belong to the page they were asked on: a navigation closes them.
  const [openAt, setOpenAt] = useState(location.key);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);

  useEffect(() => () => clearTimeout(timer.current), []);

  // Taking over from the plain field: the focus and the caret stay where they were, before the
  // frame is painted, and text typed meanwhile is asked about as if typed here.
  const field = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    if (!typed) return;
    if (typed.focused) {
      field.current?.focus();
      field.current?.setSelectionRange(typed.selection[0], typed.selection[1]);
    }
    if (typed.submitted) submit(typed.value);
    else if (typed.value) ask(typed.value);
    // Once, on taking over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const hits = result?.hits ?? [];
  const expanded = open && openAt === location.key && result !== null && value.trim().length >= SUGGEST_MIN_CHARS;
  // The options: the hits, then «all results».
  const optionCount = expanded ? hits.length + 1 : 0;
  const optionId = (i: number) => `${listId}-${i}`;

  function ask(text: string) {
    clearTimeout(timer.current);
    const q = text.trim();
    if (q.length < SUGGEST_MIN_CHARS) {
      latest.current++;
      setResult(null);
      setActive(-1);
      return;
    }
    timer.current = setTimeout(() => {
      const ticket = ++latest.current;
      api.search(q, SUGGEST_LIMIT).then(
        (res) => {
          // An older answer arriving late never replaces a newer one.
          if (ticket !== latest.current) return;
          setResult({ q, hits: res.hits.slice(0, SUGGEST_LIMIT) });
          setActive(-1);
          setOpen(true);
          setOpenAt(location.key);
        },
        () => {
          if (ticket === latest.current) setResult(null);
        },
      );
    }, SUGGEST_DEBOUNCE_MS);
  }

  function close() {
    setOpen(false);
    setActive(-1);
  }

  function submit(q: string) {
    const text = q.trim();
    if (!text) return;
    close();
    void navigate(`/search/?q=${encodeURIComponent(text)}`);
  }

  function choose(index: number) {
    const hit = hits[index];
    close();
    if (hit) {
      setValue('');
      setResult(null);
      void navigate(hit.url);
    } else submit(value);
  }

  return (
    <form
      action="/search/"
      method="get"
      role="search"
      className="search-field search-box"
      onSubmit={(e) => {
        e.preventDefault();
        if (expanded && active >= 0) choose(active);
        else submit(value);
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        Поиск по каталогу
      </label>
      <input
        ref={field}
        id={id}
        name="q"
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        placeholder="Поиск"
        autoComplete="off"
        enterKeyHint="search"
        value={value}
        maxLength={200}
        onChange={(e) => {
          setValue(e.target.value);
          setOpen(true);
          ask(e.target.value);
        }}
        onFocus={() => {
          if (result) {
            setOpen(true);
            setOpenAt(location.key);
          }
        }}
        onBlur={close}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            if (!result) return;
            e.preventDefault();
            if (!expanded) {
              setOpen(true);
              setOpenAt(location.key);
              setActive(e.key === 'ArrowDown' ? 0 : hits.length);
              return;
            }
            const n = optionCount;
            setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : a <= 0 ? n - 1 : a - 1));
          } else if (e.key === 'Escape') {
            e.preventDefault();
            if (expanded) close();
            else {
              setValue('');
              setResult(null);
            }
          }
        }}
      />
      <button type="submit" className="icon-button" aria-label="Найти">
        <SearchIcon size={18} />
      </button>
      <ul id={listId} role="listbox" aria-label="Подсказки поиска" className="suggest" hidden={!expanded}>
        {expanded
          ? hits.map((hit, i) => (
              <li
                key={hit.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className="suggest__option"
                // Keep the focus in the field, so the click lands before the list closes.
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => choose(i)}
              >
                <span className="suggest__photo">
                  {hit.image ? (
                    <Image src={hit.image} alt="" width={48} height={64} widths={[320]} sizes="48px" loading="eager" />
                  ) : null}
                </span>
                <span className="suggest__text">
                  <span className="suggest__name">{hit.name}</span>
                  <span className="suggest__meta">{hit.color}</span>
                </span>
                <span className="suggest__price">
                  {formatRoubles(hit.price)}
                  {hit.old_price ? <s>{formatRoubles(hit.old_price)}</s> : null}
                </span>
              </li>
            ))
          : null}
        {expanded ? (
          <li
            id={optionId(hits.length)}
            role="option"
            aria-selected={active === hits.length}
            className="suggest__all"
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(hits.length)}
            onClick={() => submit(value)}
          >
            {hits.length
              ? `Все результаты по запросу «${value.trim()}»`
              : `Ничего не нашлось. Искать «${value.trim()}» в каталоге`}
          </li>
        ) : null}
      </ul>
    </form>
  );
}
