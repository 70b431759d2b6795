import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { MemoryRouter, NavLink } from 'react-router';
import { AppLink, IntentLink, isNavLinkActive, NavAppLink } from './app-link';

describe('AppLink', () => {
  it('is a plain link with its own attributes and none of its options', () => {
    expect(
      renderToString(<AppLink to="/catalog/woman/?sort=price" className="menu__link" aria-label="Женщинам" />),
    ).toBe('<a class="menu__link" aria-label="Женщинам" href="/catalog/woman/?sort=price" data-discover="true"></a>');
    expect(
      renderToString(
        <AppLink to="/catalog/woman/" preventScrollReset replace>
          Платья
        </AppLink>,
      ),
    ).toBe('<a href="/catalog/woman/" data-discover="true" data-keep-scroll="" data-replace="">Платья</a>');
  });

  it('is written the same by the browser build, whose shorter form is a second copy', async () => {
    const props = {
      to: '/catalog/woman/?sort=price',
      className: 'filter__value',
      preventScrollReset: true,
      replace: true,
      children: 'Платья',
    };
    const server = renderToString(<AppLink {...props} />);
    vi.stubEnv('SSR', false);
    vi.resetModules();
    try {
      const browser = await import('./app-link');
      expect(browser.AppLink).not.toBe(AppLink);
      expect(renderToString(<browser.AppLink {...props} />)).toBe(server);
      expect(renderToString(<browser.AppLink to="/blog/" />)).toBe(renderToString(<AppLink to="/blog/" />));
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it('is the link of a prefetching <Link>, written on the server without its hooks', () => {
    // The server's build (import.meta.env.SSR): no router around it is needed.
    expect(
      renderToString(<IntentLink to="/catalog/woman/coat/" className="card__media" aria-hidden="true" tabIndex={-1} />),
    ).toBe(
      '<a class="card__media" aria-hidden="true" tabindex="-1" href="/catalog/woman/coat/" data-discover="true"></a>',
    );
  });
});

describe('NavAppLink', () => {
  const at = (pathname: string, link: React.ReactElement) =>
    renderToString(<MemoryRouter initialEntries={[pathname]}>{link}</MemoryRouter>);

  it.each([
    ['/', '/blog/'],
    ['/blog/', '/blog/'],
    ['/BLOG/', '/blog/'],
    ['/blog', '/blog/'],
    ['/blog/kak-vybrat-palto/', '/blog/'],
    ['/blogs/', '/blog/'],
    ['/catalog/new-collection/filter/color-is-belyj/apply/', '/catalog/new-collection/'],
    ['/catalog/', '/catalog/new-collection/'],
    ['/', '/'],
  ])('at %s, the link to %s is written as <NavLink> writes it', (pathname, to) => {
    const server = at(
      pathname,
      <NavAppLink to={to} className="header__link" prefetch="intent">
        Блог
      </NavAppLink>,
    );
    const navLink = at(
      pathname,
      <NavLink to={to} className="header__link" prefetch="intent">
        Блог
      </NavLink>,
    );
    expect(server).toBe(navLink);
    expect(server.includes('aria-current="page"')).toBe(isNavLinkActive(pathname, to));
  });

  it('is active on the page and under it only', () => {
    expect(isNavLinkActive('/blog/x/', '/blog/')).toBe(true);
    expect(isNavLinkActive('/blog/', '/blog/')).toBe(true);
    expect(isNavLinkActive('/blogs/', '/blog/')).toBe(false);
    expect(isNavLinkActive('/', '/blog/')).toBe(false);
  });
});
