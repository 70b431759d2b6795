import { data, redirect } from 'react-router';
import type { Route } from './+types/auth';
import { phoneDigits } from '~/core/phone-mask';
import { CACHE_PRIVATE } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import { favouritesCookieOf, listCookie } from '~/app/lib/wishlist.server';
import { GUEST_VIEWS_LIMIT, parseIdList, parseProductId } from '~/core/wishlist';
import {
  clearCookies,
  codeStepCookies,
  emailCodeStepCookie,
  getShopper,
  readCodeStep,
  readEmailCodeStep,
  sessionCookies,
} from '~/app/lib/session.server';
import { LoginForm, type LoginStep } from '~/app/components/auth/LoginForm';
import { EmailLoginForm, type EmailLoginStep } from '~/app/components/auth/EmailLoginForm';
import { normalizeEmail, RESEND_SECONDS } from '~/core/auth';
import { COOKIE, readCookie } from '~/shared/cookies';
import { cartForRequest, preordersForRequest } from '~/core/basket';
import { readBasketCookies } from '~/app/lib/basket-state';
import { acceptedBasketCookies } from '~/app/lib/accepted-basket';

// SPEC §2 /auth/ (phone login). The form posts here; the action calls the API on the server,
// so the session token it gets back goes straight into an HttpOnly cookie and never reaches
// browser code. /auth/email/ shares this module.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

/** Only a path of this shop: an open redirect would hand a fresh login to another site. */
function safeNext(value: unknown): string | null {
  return typeof value === 'string' && /^\/(?!\/)[^\s\\]*$/.test(value) ? value : null;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const next = safeNext(url.searchParams.get('next'));
  if (await getShopper(request, context.api)) throw redirect(next ?? '/personal/', { headers: CACHE_PRIVATE });
  const meta = await context.api.getPageMeta(url.pathname);
  // SPEC §4: a phone kept in a 59-second cookie restores the code step after a reload.
  const kept = url.searchParams.has('change') ? null : readCodeStep(request);
  const step: LoginStep = kept
    ? { step: 'code', phone: kept.phone, sentAt: kept.sentAt, now: Date.now(), error: null }
    : { step: 'phone', phone: '', error: null };
  const keptEmail = url.searchParams.has('change') ? null : readEmailCodeStep(request);
  const emailStep: EmailLoginStep = keptEmail
    ? { step: 'code', email: keptEmail.email, sentAt: keptEmail.sentAt, now: Date.now(), error: null }
    : EMAIL_START;
  const headers = new Headers(CACHE_PRIVATE);
  if (url.searchParams.has('change'))
    for (const c of clearCookies([COOKIE.phone, COOKIE.codeSentAt, COOKIE.loginEmail])) headers.append('Set-Cookie', c);
  return data({ meta, byEmail: url.pathname.startsWith('/auth/email'), step, emailStep, next }, { headers });
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = form.get('intent');
  const phone = phoneDigits(String(form.get('phone') ?? ''));
  const typedEmail = String(form.get('email') ?? '').slice(0, 254);
  const email = normalizeEmail(typedEmail) ?? typedEmail.trim();
  const headers = new Headers(CACHE_PRIVATE);
  if (intent === 'send') {
    const sent = await context.api.sendLoginCode({ phone, captchaToken: String(form.get('captcha') ?? '') });
    if (!sent.success) {
      // Asked again too soon: the code step is still there, with its countdown.
      const kept = readCodeStep(request);
      if (sent.resend_in !== undefined && kept?.phone === phone)
        return data(
          { step: 'code', phone, sentAt: kept.sentAt, now: Date.now(), error: sent.error } satisfies LoginStep,
          { headers },
        );
      return data({ step: 'phone', phone, error: sent.error } satisfies LoginStep, { headers });
    }
    const sentAt = Date.now();
    for (const c of codeStepCookies(phone, sentAt, context.siteUrl)) headers.append('Set-Cookie', c);
    return data({ step: 'code', phone, sentAt, now: sentAt, error: null } satisfies LoginStep, { headers });
  }
  if (intent === 'send-email') {
    const sent = await context.api.sendEmailCode({ email, captchaToken: String(form.get('captcha') ?? '') });
    if (sent.success) {
      const sentAt = Date.now();
      headers.append('Set-Cookie', emailCodeStepCookie(email, sentAt, context.siteUrl));
      return data({ step: 'code', email, sentAt, now: Date.now(), error: null } satisfies EmailLoginStep, { headers });
    }
    // Asked again too soon (the address sent twice): the code step of the code already sent,
    // its countdown counted from the server's answer; the countdown says it all, no error.
    if (sent.resend_in !== undefined) {
      const sentAt = Date.now() - (RESEND_SECONDS - sent.resend_in) * 1000;
      return data({ step: 'code', email, sentAt, now: Date.now(), error: null } satisfies EmailLoginStep, { headers });
    }
    return data({ step: 'email', email, error: sent.error } satisfies EmailLoginStep, { headers });
  }
  if (intent === 'verify' || intent === 'verify-email') {
    const sentAt = Number(form.get('sentAt')) || Date.now();
    const code = String(form.get('code') ?? '');
    // Both logins end alike from here: the same cookies, basket and redirect.
    const answer =
      intent === 'verify' ? await context.api.authPhone({ phone, code }) : await context.api.authEmail({ email, code });
    if ('data' in answer)
      return data(
        intent === 'verify'
          ? ({ step: 'code', phone, sentAt, now: Date.now(), error: answer.data.error } satisfies LoginStep)
          : ({ step: 'code', email, sentAt, now: Date.now(), error: answer.data.error } satisfies EmailLoginStep),
        { headers },
      );
    for (const c of sessionCookies(answer.user.jwt_token, context.siteUrl)) headers.append('Set-Cookie', c);
    const token = answer.user.jwt_token;
    // SPEC §4 Favourites: the hearts and counts of this browser start from the account's list,
    // with the heart that asked for this login added (issue #26: the action finishes).
    let favourites: string | null = null;
    const pending = parseProductId(String(form.get('favourite') ?? ''));
    if (pending !== null)
      try {
        favourites = listCookie(
          COOKIE.favourites,
          (await context.api.wishlist({ mode: 'wishlist', action: 'add', token, ids: [pending] })).ITEMS.map(
            (i) => i.ID,
          ),
          context.siteUrl,
        );
      } catch (err) {
        context.log.error({ err }, 'login: the favourite was not added');
      }
    headers.append('Set-Cookie', favourites ?? favouritesCookieOf(answer.user.wishlist, context.siteUrl));
    // What the guest looked at joins the customer's recently viewed (latest first), and this
    // browser's views cookie becomes the joined list.
    const views = parseIdList(readCookie(request.headers.get('cookie'), COOKIE.views), GUEST_VIEWS_LIMIT);
    if (views.length)
      try {
        const joined = await context.api.wishlist({ mode: 'watched', action: 'add', token, ids: views });
        headers.append(
          'Set-Cookie',
          listCookie(
            COOKIE.views,
            joined.ITEMS.map((i) => i.ID),
            context.siteUrl,
          ),
        );
      } catch (err) {
        context.log.error({ err }, 'login: the viewed products were not joined');
      }
    // The guest basket of this browser joins the one kept for the customer (quantities added,
    // cut to stock), and this browser gets the result.
    const guest = readBasketCookies(request.headers.get('cookie'));
    try {
      const merged = await context.api.getCart({
        token: answer.user.jwt_token,
        ids: cartForRequest(guest.cart),
        preorderIds: preordersForRequest(guest.preorders),
        promoCode: guest.promoCode,
        merge: true,
      });
      for (const c of acceptedBasketCookies(merged, guest)) headers.append('Set-Cookie', c);
    } catch (err) {
      // The login stands; the basket page merges nothing then, but loads the saved basket.
      context.log.error({ err }, 'login: basket merge failed');
    }
    // SPEC §2: after login outside the basket, the personal account.
    throw redirect(safeNext(form.get('next')) ?? '/personal/', { headers });
  }
  return data({ step: 'phone', phone: '', error: 'Неверный запрос' } satisfies LoginStep, { status: 400, headers });
}

export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return actionHeaders.has('set-cookie') ? actionHeaders : loaderHeaders;
}

export default function Auth({ loaderData, actionData }: Route.ComponentProps) {
  // One action answers both forms: each takes only its own answers.
  const phoneStep = actionData && 'phone' in actionData ? (actionData as LoginStep) : loaderData.step;
  const emailStep = actionData && 'email' in actionData ? (actionData as EmailLoginStep) : loaderData.emailStep;
  return (
    <article className="page page--narrow auth-page" data-keep-clear>
      <h1 className="page__title">{loaderData.byEmail ? 'Вход по e-mail' : 'Вход'}</h1>
      {loaderData.byEmail ? (
        <EmailLoginForm state={emailStep} next={loaderData.next ?? undefined} />
      ) : (
        <LoginForm state={phoneStep} next={loaderData.next ?? undefined} />
      )}
    </article>
  );
}

const EMAIL_START: EmailLoginStep = { step: 'email', email: '', error: null };
