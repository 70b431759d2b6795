import fs from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { createRoutesStub } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SUPPORT_HOURS } from '~/app/lib/shop-info';
import BasketSubmitted from './basket-submitted';

// The fast order's page promises when the manager calls: the hours content/pages/contacts.md
// gives for the online shop's support, not the shops' opening hours.
const contacts = fs.readFileSync(path.join(__dirname, '..', '..', 'content', 'pages', 'contacts.md'), 'utf8');

function render(): string {
  const props = { loaderData: { meta: null, order: '12' } } as unknown as Parameters<typeof BasketSubmitted>[0];
  const Stub = createRoutesStub([{ path: '/', Component: () => <BasketSubmitted {...props} /> }]);
  return renderToStaticMarkup(<Stub />);
}

describe('/basket/submited/', () => {
  it('says the manager calls in the support hours of the contacts page', () => {
    expect(contacts).toContain(`Онлайн-поддержка работает **${SUPPORT_HOURS}**`);
    expect(render()).toContain(`в рабочее время: ${SUPPORT_HOURS}.`);
  });
});
