import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { KeptPart } from './kept-part';
import { keptMarkupSize } from './kept-markup';

// These tests run as the server's build (import.meta.env.SSR): a KeptPart's content comes from
// kept markup. The browser's build renders the content itself; hydration needs the same HTML.

function Links({ items }: { items: string[] }) {
  return (
    <ul>
      {items.map((t) => (
        <li key={t}>
          <a href={`/${t}/`}>{t}</a> & {t.length}
        </li>
      ))}
    </ul>
  );
}

describe('KeptPart', () => {
  it('writes the same HTML as the browser build, which renders the content itself', async () => {
    const items = ['пальто', 'юбки', '"кавычки"'];
    const part = (K: typeof KeptPart) => (
      <K className="cols" role="group" aria-label="Колонки" part="test-links" data={items}>
        {() => <Links items={items} />}
      </K>
    );
    const server = renderToString(part(KeptPart));
    expect(server).toContain(
      '<div class="cols" role="group" aria-label="Колонки"><ul><li><a href="/пальто/">пальто</a> &amp; <!-- -->6</li>',
    );
    vi.stubEnv('SSR', false);
    vi.resetModules();
    try {
      const browser = await import('./kept-part');
      expect(browser.keptMarkup).toBeNull();
      expect(renderToString(part(browser.KeptPart))).toBe(server);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it('keeps the <li>s of a <ul> the same way', async () => {
    const items = ['42', '44', '<46>'];
    const part = (K: typeof KeptPart) => (
      <K as="ul" className="facet__values" part="test-list" data={items}>
        {() => (
          <>
            {items.map((t) => (
              <li key={t}>
                <a href={`/size-${t}/`}>{t}</a>
              </li>
            ))}
          </>
        )}
      </K>
    );
    const server = renderToString(part(KeptPart));
    expect(server).toBe(
      '<ul class="facet__values"><li><a href="/size-42/">42</a></li><li><a href="/size-44/">44</a></li><li><a href="/size-&lt;46&gt;/">&lt;46&gt;</a></li></ul>',
    );
    vi.stubEnv('SSR', false);
    vi.resetModules();
    try {
      const browser = await import('./kept-part');
      expect(renderToString(part(browser.KeptPart))).toBe(server);
    } finally {
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });

  it('renders the content once per part and data', () => {
    const render = vi.fn(() => <Links items={['a']} />);
    const before = keptMarkupSize().entries;
    const first = renderToString(
      <KeptPart part="test-once" data={{ v: 1 }}>
        {render}
      </KeptPart>,
    );
    expect(
      renderToString(
        <KeptPart part="test-once" data={{ v: 1 }}>
          {render}
        </KeptPart>,
      ),
    ).toBe(first);
    expect(render).toHaveBeenCalledTimes(1);
    renderToString(
      <KeptPart part="test-once" data={{ v: 2 }}>
        {render}
      </KeptPart>,
    );
    renderToString(
      <KeptPart part="test-other" data={{ v: 1 }}>
        {render}
      </KeptPart>,
    );
    expect(render).toHaveBeenCalledTimes(3);
    expect(keptMarkupSize().entries).toBe(before + 3);
  });
});
