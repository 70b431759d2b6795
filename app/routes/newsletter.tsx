import { data, Form, Link } from 'react-router';
import type { Route } from './+types/newsletter';
import { NEWSLETTER_CONFIRM_PATH, NEWSLETTER_PAGE_TEXT as T, NEWSLETTER_UNSUBSCRIBE_PATH } from '~/core/newsletter';
import { CACHE_PRIVATE } from '~/app/lib/route-data.server';
import type { NewsletterLinkResponse } from '~/shared/contract';

// The pages the newsletter letters link to (issue #26), /newsletter/confirm/?token= and
// /newsletter/unsubscribe/?token=. Opening one changes nothing: mail scanners open links. The
// button sends a POST to the same address, and so does a mail client's one-click unsubscribe
// (RFC 8058: List-Unsubscribe-Post, no login, no CSRF token; the body is not read). The token is
// the only credential; the pages are personal: never cached, never indexed.

type Kind = 'confirm' | 'unsubscribe';

// A client-side POST arrives as `/newsletter/unsubscribe.data`: the path without its slash.
const kindOf = (url: URL): Kind =>
  url.pathname.startsWith(NEWSLETTER_UNSUBSCRIBE_PATH.slice(0, -1)) ? 'unsubscribe' : 'confirm';

async function ask(
  context: Route.LoaderArgs['context'],
  action: 'status' | Kind,
  token: string,
): Promise<NewsletterLinkResponse> {
  if (token === '') return { status: 'unknown', email: null, changed: false };
  return context.api.newsletterLink(action, token);
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get('token') ?? '';
  return data({ kind: kindOf(url), token, link: await ask(context, 'status', token) }, { headers: CACHE_PRIVATE });
}

export async function action({ context, request }: Route.ActionArgs) {
  const url = new URL(request.url);
  const kind = kindOf(url);
  return data(
    { kind, link: await ask(context, kind, url.searchParams.get('token') ?? '') },
    { headers: CACHE_PRIVATE },
  );
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return actionHeaders.has('Cache-Control') ? actionHeaders : loaderHeaders;
}

export const meta: Route.MetaFunction = ({ data: page }) => [
  { title: `${page?.kind === 'unsubscribe' ? T.unsubscribeTitle : T.confirmTitle} — Vitrina` },
  { name: 'robots', content: 'noindex, nofollow' },
];

/** What the page says: a question with its button, or the outcome. */
function outcome(kind: Kind, link: NewsletterLinkResponse, answered: boolean): { text: string; button: string | null } {
  const email = link.email ?? '';
  if (kind === 'confirm') {
    if (link.status === 'pending') return { text: T.confirmAsk(email), button: T.confirmButton };
    if (link.status === 'confirmed')
      return { text: answered && link.changed ? T.confirmed : T.alreadyConfirmed, button: null };
    return { text: T.badLink, button: null };
  }
  if (link.status === 'pending' || link.status === 'confirmed')
    return { text: T.unsubscribeAsk(email), button: T.unsubscribeButton };
  if (link.status === 'unsubscribed')
    return { text: answered && link.changed ? T.unsubscribed : T.alreadyUnsubscribed, button: null };
  return { text: T.badLink, button: null };
}

export default function NewsletterLink({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, token } = loaderData;
  const link = actionData?.link ?? loaderData.link;
  const { text, button } = outcome(kind, link, actionData !== undefined);
  const path = kind === 'unsubscribe' ? NEWSLETTER_UNSUBSCRIBE_PATH : NEWSLETTER_CONFIRM_PATH;
  return (
    <section className="page page--narrow newsletter-page">
      <h1 className="page__title">{kind === 'unsubscribe' ? T.unsubscribeTitle : T.confirmTitle}</h1>
      <p className="newsletter-page__text" role={actionData ? 'status' : undefined}>
        {text}
      </p>
      {button ? (
        <Form method="post" action={`${path}?token=${encodeURIComponent(token)}`} className="newsletter-page__form">
          <button type="submit" className="button">
            {button}
          </button>
        </Form>
      ) : (
        <p className="newsletter-page__form">
          <Link to="/" className="button button--ghost">
            {T.toHome}
          </Link>
        </p>
      )}
    </section>
  );
}
