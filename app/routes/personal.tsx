import { data, Form } from 'react-router';
import type { Route } from './+types/personal';
import type {
  AddressesResponse,
  BonusesResponse,
  CitiesResponse,
  OrdersResponse,
  ReturnsResponse,
} from '~/shared/contract';
import { formatPhoneMask } from '~/core/phone';
import { requireShopper } from '~/app/lib/session.server';
import { CACHE_PRIVATE, orNull } from '~/app/lib/route-data.server';
import { pageMetaTags } from '~/app/lib/seo';
import {
  ACCOUNT_INTENTS,
  SERVER_ERROR,
  type AccountActionResult,
  type AccountIntent,
} from '~/app/components/account/account-action';
import { ProfileForm } from '~/app/components/account/ProfileForm';
import { AddressBook } from '~/app/components/account/AddressBook';
import { OrderList } from '~/app/components/account/OrderList';
import { ReturnList } from '~/app/components/account/ReturnList';
import { NewsletterToggle } from '~/app/components/account/NewsletterToggle';
import { BonusAccount } from '~/app/components/account/BonusAccount';
import { formatBonuses, LOYALTY } from '~/core/loyalty';

// SPEC §2 /personal/ (customers only): the profile, bonuses, addresses, orders, returns, the newsletter
// switch, logging out here or everywhere. Every change posts to this route's action, which
// calls the API on the server with the shopper's token: browser code never sees the token.

export const meta: Route.MetaFunction = (args) => [
  ...pageMetaTags(args),
  { name: 'robots', content: 'noindex, nofollow' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const shopper = await requireShopper(request, context.api);
  const { token, profile } = shopper;
  const [meta, addresses, orders, returns, bonuses, cities] = await Promise.all([
    context.api.getPageMeta(new URL(request.url).pathname),
    orNull<AddressesResponse>(context.log, 'personal: addresses', context.api.getAddresses(token)),
    orNull<OrdersResponse>(context.log, 'personal: orders', context.api.getOrders(token)),
    orNull<ReturnsResponse>(context.log, 'personal: returns', context.api.getReturns(token)),
    orNull<BonusesResponse>(context.log, 'personal: bonuses', context.api.getBonuses(token)),
    // The address form's city suggestions start from the shop's cities, as checkout's do.
    orNull<CitiesResponse>(context.log, 'personal: cities', context.api.getCities()),
  ]);
  return data(
    {
      meta,
      profile: profile.userInfo,
      subscribed: profile.subscribed,
      addresses: addresses && 'addresses' in addresses ? addresses.addresses : [],
      // SPEC §8: an error of the address call is shown; the list is not replaced.
      addressesError: !addresses ? SERVER_ERROR : 'error' in addresses ? addresses.error : null,
      orders: orders?.value.orders ?? null,
      returns: returns?.value.orders ?? null,
      bonuses,
      cities: cities?.cities ?? [],
    },
    { headers: CACHE_PRIVATE },
  );
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

async function runIntent(
  intent: AccountIntent,
  form: FormData,
  token: string,
  api: Route.ActionArgs['context']['api'],
): Promise<AccountActionResult> {
  switch (intent) {
    case 'profile': {
      const res = await api.changeProfile(token, {
        firstname: text(form, 'firstname'),
        lastname: text(form, 'lastname'),
        secondname: text(form, 'secondname'),
        email: text(form, 'email'),
      });
      return res.success
        ? { intent, ok: true, message: 'Данные сохранены' }
        : { intent, ok: false, error: res.error, field: res.field };
    }
    case 'address-save': {
      const id = Number(text(form, 'id'));
      const res = await api.saveAddress(token, {
        id: Number.isSafeInteger(id) && id > 0 ? id : undefined,
        fields: {
          city: text(form, 'city'),
          street: text(form, 'street'),
          house: text(form, 'house'),
          flat: text(form, 'flat'),
          postal_code: text(form, 'postal_code'),
          comment: text(form, 'comment'),
        },
      });
      return res.success
        ? { intent, ok: true, message: 'Адрес сохранён' }
        : { intent, ok: false, error: res.error, field: res.field };
    }
    case 'address-remove': {
      const id = Number(text(form, 'id'));
      if (!Number.isSafeInteger(id) || id <= 0) return { intent, ok: false, error: 'Адрес не найден' };
      const res = await api.removeAddress(token, id);
      return res.success ? { intent, ok: true, message: 'Адрес удалён' } : { intent, ok: false, error: res.error };
    }
    case 'subscribe': {
      const res = await api.setSubscribed(token, text(form, 'active') === 'yes');
      return { intent, ok: true, message: res.subscribed ? 'Вы подписаны на рассылку' : 'Вы отписались от рассылки' };
    }
    case 'return': {
      const orderId = Number(text(form, 'order_id'));
      const items: Record<number, number> = {};
      for (const [key, value] of form) {
        const m = /^items\[(\d{1,10})\]$/.exec(key);
        const quantity = Number(value);
        if (m && Number.isSafeInteger(quantity) && quantity > 0) items[Number(m[1])] = quantity;
      }
      if (!Number.isSafeInteger(orderId) || orderId <= 0) return { intent, ok: false, error: 'Заказ не найден' };
      const res = await api.createReturn(token, { orderId, items, reason: text(form, 'reason') });
      return res.success
        ? { intent, ok: true, message: `Заявка на возврат № ${res.id} принята. Мы пришлём адрес для отправки посылки.` }
        : { intent, ok: false, error: res.error };
    }
    case 'birthday': {
      const res = await api.setBirthday(token, text(form, 'birthday'));
      if (!res.success) return { intent, ok: false, error: res.error, field: res.field };
      const gift = formatBonuses(LOYALTY.birthdayKopecks);
      return {
        intent,
        ok: true,
        message: res.granted ? `Дата рождения сохранена. Подарок — ${gift} — уже на счёте` : 'Дата рождения сохранена',
      };
    }
  }
}

/** One endpoint for the account's forms, switching on `intent`; an unknown one is a 400. */
export async function action({ context, request }: Route.ActionArgs) {
  const { token } = await requireShopper(request, context.api);
  const form = await request.formData();
  const intent = text(form, 'intent');
  if (!(ACCOUNT_INTENTS as readonly string[]).includes(intent))
    return data({ intent: 'unknown', ok: false, error: 'Неизвестное действие' } satisfies AccountActionResult, {
      status: 400,
      headers: CACHE_PRIVATE,
    });
  try {
    return data(await runIntent(intent as AccountIntent, form, token, context.api), { headers: CACHE_PRIVATE });
  } catch (err) {
    context.log.error({ err }, `personal: ${intent} failed`);
    return data({ intent: intent as AccountIntent, ok: false, error: SERVER_ERROR } satisfies AccountActionResult, {
      status: 502,
      headers: CACHE_PRIVATE,
    });
  }
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export default function Personal({ loaderData }: Route.ComponentProps) {
  const { profile, subscribed, addresses, addressesError, orders, returns, bonuses, cities } = loaderData;
  const name = [profile.FIRSTNAME, profile.LASTNAME].filter(Boolean).join(' ');
  return (
    <article className="page account">
      <h1 className="page__title">Личный кабинет</h1>
      <div className="account__grid">
        <div className="account__side">
          <section className="account__card" aria-labelledby="account-profile">
            <h2 className="account__title" id="account-profile">
              {name || 'Профиль'}
            </h2>
            <dl className="account__facts">
              <div>
                <dt>Телефон</dt>
                <dd>{formatPhoneMask(profile.PHONE)}</dd>
              </div>
              <div>
                <dt>Бонусный счёт</dt>
                <dd>{bonuses ? <a href="#bonuses">{formatBonuses(bonuses.balance * 100)}</a> : '—'}</dd>
              </div>
            </dl>
            <NewsletterToggle subscribed={subscribed} />
          </section>
          <section className="account__card">
            <ProfileForm profile={profile} />
          </section>
          <div className="account__actions">
            {/* A POST: a GET of /logout/ only asks (issue #27, cross-site links). */}
            <Form method="post" action="/logout/" reloadDocument>
              <button type="submit" className="button button--ghost">
                Выйти
              </button>
            </Form>
            <Form method="post" action="/logout/" reloadDocument>
              <input type="hidden" name="all" value="yes" />
              <button type="submit" className="link-button">
                Выйти на всех устройствах
              </button>
            </Form>
          </div>
        </div>
        <div className="account__main">
          <BonusAccount bonuses={bonuses} />
          {orders ? (
            <OrderList orders={orders} />
          ) : (
            <p className="form-banner" role="alert">
              Не удалось загрузить заказы. {SERVER_ERROR}
            </p>
          )}
          {returns ? <ReturnList returns={returns} /> : null}
          <AddressBook addresses={addresses} error={addressesError} cities={cities} />
        </div>
      </div>
    </article>
  );
}
