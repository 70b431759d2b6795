import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { SearchBox } from './SearchBox';
import { SearchField } from './SearchField';

function render(element: React.ReactElement): string {
  const Stub = createRoutesStub([{ path: '/', Component: () => element }]);
  return renderToStaticMarkup(<Stub />);
}

describe('SearchField', () => {
  it('renders the same HTML as the SearchBox that replaces it when used', () => {
    const light = render(<SearchField id="header-search" />);
    // The stand-in's list id, handed on to the SearchBox.
    const listId = /aria-controls="([^"]+)"/.exec(light)?.[1] ?? '';
    expect(listId).toMatch(/-suggest$/);
    expect(render(<SearchBox id="header-search" listId={listId} typed={null} />)).toBe(light);
  });
});
