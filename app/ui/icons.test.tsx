import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BagIcon, ChatIcon } from './icons';

// An icon's shapes are one string of markup (one element for React to render): the document
// must carry the same SVG as when the shapes were elements of their own.
describe('icons', () => {
  it('render the same SVG as shapes written as elements', () => {
    expect(renderToStaticMarkup(<BagIcon size={20} />)).toBe(
      renderToStaticMarkup(
        <svg
          width={20}
          height={20}
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.4"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
          focusable="false"
        >
          <path d="M5 8h14l-1 12H6L5 8z" />
          <path d="M9 8V6a3 3 0 0 1 6 0v2" />
        </svg>,
      ),
    );
    expect(renderToStaticMarkup(<ChatIcon />)).toContain(
      '<path d="M9 11.5h.01M12.5 11.5h.01M16 11.5h.01" stroke-width="2"></path></svg>',
    );
  });
});
