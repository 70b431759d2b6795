import { useEffect, useId, useRef } from 'react';
import { onDemand, useOnDemand } from '~/app/lib/on-demand';
import { SearchIcon } from '~/app/ui/icons';
import type * as SearchBoxModule from './SearchBox';
import type { TypedSoFar } from './SearchBox';

const searchBox = onDemand(() => import('./SearchBox'));

/**
 * The header's search field as the server sends it: a plain form to /search/ that works without
 * JavaScript. The suggestions (SearchBox, with the API client) load when the field first takes
 * the focus and replace this in the same markup, keeping what was typed, the caret and the focus.
 * SearchField.test.tsx checks both render the same HTML.
 */
export function SearchField({ id }: { id: string }) {
  const listId = `${useId()}-suggest`;
  const input = useRef<HTMLInputElement>(null);
  const { loaded, ask } = useOnDemand<typeof SearchBoxModule, TypedSoFar>(searchBox);
  // Sent before the code was in: SearchBox submits it on taking over (a blank one goes nowhere).
  const submitted = useRef(false);
  const take = (): TypedSoFar => {
    const el = input.current;
    return {
      value: el?.value ?? '',
      focused: el !== null && el === document.activeElement,
      selection: [el?.selectionStart ?? null, el?.selectionEnd ?? null],
      submitted: submitted.current,
    };
  };
  // A field focused while the page was still loading (a tap before hydration) asks at once.
  useEffect(() => {
    if (input.current && input.current === document.activeElement) ask(take);
  });
  if (loaded) return <loaded.module.SearchBox id={id} listId={listId} typed={loaded.from} />;
  return (
    <form
      action="/search/"
      method="get"
      role="search"
      className="search-field search-box"
      onSubmit={(e) => {
        e.preventDefault();
        submitted.current = true;
        ask(take);
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        Поиск по каталогу
      </label>
      <input
        ref={input}
        id={id}
        name="q"
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={false}
        aria-controls={listId}
        placeholder="Поиск"
        autoComplete="off"
        enterKeyHint="search"
        defaultValue=""
        maxLength={200}
        onFocus={() => ask(take)}
      />
      <button type="submit" className="icon-button" aria-label="Найти">
        <SearchIcon size={18} />
      </button>
      <ul id={listId} role="listbox" aria-label="Подсказки поиска" className="suggest" hidden />
    </form>
  );
}
