import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AppLink } from './app-link';

describe('AppLink', () => {
  it('is a plain link with its own attributes and none of its options', () => {
    expect(renderToString(<AppLink to="/catalog/woman/?sort=price" className="menu__link" aria-label="Женщинам" />)).toBe(
      '<a class="menu__link" aria-label="Женщинам" href="/catalog/woman/?sort=price" data-discover="true"></a>',
    );
    expect(
      renderToString(
        <AppLink to="/catalog/woman/" preventScrollReset replace>
          Платья
        </AppLink>,
      ),
    ).toBe('<a href="/catalog/woman/" data-discover="true" data-keep-scroll="" data-replace="">Платья</a>');
  });
});
