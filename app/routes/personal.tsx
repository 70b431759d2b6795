import { data, Form } from 'react-router';
import type { Route } from './+types/personal';
import { formatPhoneMask } from '~/core/phone';
import { requireShopper } from '~/app/lib/session.server';
import { CACHE_PRIVATE } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';

// SPEC §2 /personal/ (customers only): who is logged in, and logging out here or everywhere.
// Profile editing, addresses, orders and returns are the rest of the account issue.

export const meta: Route.MetaFunction = (args) => [...pageMetaTags(args), { name: 'robots', content: 'noindex, nofollow' }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const shopper = await requireShopper(request, context.api);
  const meta = await context.api.getPageMeta(new URL(request.url).pathname);
  const { userInfo } = shopper.profile;
  return data(
    { meta, name: [userInfo.FIRSTNAME, userInfo.LASTNAME].filter(Boolean).join(' '), phone: userInfo.PHONE, email: userInfo.EMAIL },
    { headers: CACHE_PRIVATE },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Personal({ loaderData }: Route.ComponentProps) {
  const { name, phone, email } = loaderData;
  return (
    <article className="page account">
      <h1 className="page__title">Личный кабинет</h1>
      <section className="account__card" aria-labelledby="account-profile">
        <h2 className="account__title" id="account-profile">
          {name || 'Профиль'}
        </h2>
        <dl className="account__facts">
          <div>
            <dt>Телефон</dt>
            <dd>{formatPhoneMask(phone)}</dd>
          </div>
          {email ? (
            <div>
              <dt>E-mail</dt>
              <dd>{email}</dd>
            </div>
          ) : null}
          <div>
            <dt>Бонусный счёт</dt>
            <dd>0 бонусов</dd>
          </div>
        </dl>
      </section>
      <div className="account__actions">
        <a href="/logout/" className="button button--ghost">
          Выйти
        </a>
        <Form method="post" action="/logout/" reloadDocument>
          <input type="hidden" name="all" value="yes" />
          <button type="submit" className="link-button">
            Выйти на всех устройствах
          </button>
        </Form>
      </div>
    </article>
  );
}
