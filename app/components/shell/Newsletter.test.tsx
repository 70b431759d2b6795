import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { NewsletterForm } from './NewsletterForm';
import { Newsletter } from './Newsletter';

function render(element: React.ReactElement): string {
  const Stub = createRoutesStub([{ path: '/', Component: () => element }]);
  return renderToStaticMarkup(<Stub />);
}

describe('Newsletter', () => {
  it('renders the same HTML as the NewsletterForm that replaces it when used, ids included', () => {
    expect(render(<Newsletter />)).toBe(render(<NewsletterForm typed={null} />));
  });
});
