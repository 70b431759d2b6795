import { z } from 'zod';
import * as contract from '~/shared/contract';
import * as reviewsContract from '~/shared/reviews-contract';
import { StaffReturnResponse } from '~/api/staff/returns.routes.server';
import { StockLedgerResponse } from '~/api/staff/routes.server';
import { openApiPaths } from '~/api/route.server';

// The published description of the product API, built from the same zod schemas the
// storefront's types come from, so the two cannot drift apart.

type Schema = z.ZodType;

function json(schema: Schema): unknown {
  return z.toJSONSchema(schema, { target: 'openapi-3.0', unrepresentable: 'any' });
}

function ok(description: string, schema: Schema) {
  return { description, content: { 'application/json': { schema: json(schema) } } };
}

const notFound = ok('Not found', contract.ApiError);
const badRequest = ok('Bad parameters', contract.ApiError);
const param = (
  name: string,
  description: string,
  required = false,
  schema: Record<string, unknown> = { type: 'string' },
) => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});

/** A form-encoded body with string fields; `required` names the ones that must be there. */
const formBody = (properties: Record<string, string>, required: string[] = []) => ({
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        // OpenAPI 3.0: a `required` list has at least one name.
        ...(required.length ? { required } : {}),
        properties: Object.fromEntries(
          Object.entries(properties).map(([k, description]) => [k, { type: 'string', description }]),
        ),
      },
    },
  },
});
const noSession = ok('No token, or its session ended (logged out, expired, forged)', contract.ApiError);
/** The review calls' session cookie: taken only on a same-origin JSON call (docs/reviews.md). */
const cookieRefused = {
  403: ok(
    'No token in the body, and the session cookie came from another site (no same-origin Origin or Sec-Fetch-Site)',
    contract.ApiError,
  ),
  415: ok('No token in the body, and the session cookie came with a body that is not JSON', contract.ApiError),
};
const COOKIE_NOTE =
  "Without `token` in the body, the session cookie stands in, only on a JSON call from the shop's own pages (Origin, or Sec-Fetch-Site: same-origin); any other call with the cookie and no token is refused (403, 415).";

function handWrittenOpenApi(serverUrl: string): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Vitrina product API',
      version: '1.0.0',
      description:
        'The contract between the Vitrina storefront and its backend (SPEC §7). Paths are relative to the API base. Prices are roubles with at most two decimals.',
    },
    servers: [{ url: serverUrl }],
    paths: {
      '/catalog/': {
        get: {
          summary: 'Menu sections (iscollection=no), otherwise the whole catalogue',
          parameters: [param('iscollection', "'no' for the menu")],
          responses: {
            200: ok(
              'Menu sections or the catalogue listing',
              z.union([contract.SectionsResponse, contract.CatalogSectionResponse]),
            ),
          },
        },
      },
      '/catalog/{path}': {
        get: {
          summary: 'A section listing (with filter URLs) or a product page',
          description:
            'Filter grammar: {section}/filter/size-is-42-or-44/color-is-chernyj/price-base-from-5000-to-20000/apply/. A product: {section path}{slug}/.',
          parameters: [
            { name: 'path', in: 'path', required: true, schema: { type: 'string' } },
            param('sort', 'popular | new | price_asc | price_desc'),
            param('PAGEN_1', 'Page number, from 1'),
            param('offer', 'Offer id to mark as SELECTED on a product page'),
          ],
          responses: {
            200: ok(
              'Listing (ITEMS) or product (ITEM)',
              z.union([contract.CatalogSectionResponse, contract.ProductResponse]),
            ),
            404: notFound,
          },
        },
      },
      '/wishlist/': {
        get: {
          summary: 'Favourites (mode=wishlist) or viewed products (mode=watched) as catalogue cards, latest first',
          description:
            "With a token: the customer's list; add puts the filter ids first (no duplicates; 100 favourites and 30 views kept), remove takes them out. Without a token: show only, the cards of the filter ids (a guest's views). Junk ids are ignored; inactive products are left out.",
          parameters: [
            param('action', 'show (default), add or remove'),
            param('mode', 'wishlist (default) or watched'),
            param('token', 'Session token; required for add and remove'),
            param('filter', "Product ids, comma-separated ('1,2,3'); filter[ids] is read the same way"),
          ],
          responses: { 200: ok('The list after the call', contract.WishlistResponse), 400: badRequest, 401: noSession },
        },
      },
      '/api/search': {
        get: {
          summary: 'Product search: Russian word forms, prefixes, one typo per word, article numbers',
          parameters: [param('q', 'The query', true), param('limit', 'At most this many hits (1–48, default 24)')],
          responses: { 200: ok('Hits, best first', contract.SearchResponse) },
        },
      },
      '/api/personal/get_cart.php': {
        post: {
          summary: 'The basket priced by the server: lines with their sizes, gift covers, promo code, totals',
          description:
            "Form body. Prices are always the catalogue's; the answer's cart and preorders are the basket as accepted (junk dropped, quantities cut to stock).",
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  properties: {
                    ids: { type: 'string', description: "'offerId:quantity' pairs joined by commas" },
                    preorder_ids: { type: 'string', description: 'Pre-order lines, same format' },
                    promo_code: { type: 'string' },
                  },
                },
              },
            },
          },
          responses: { 200: ok('The basket', contract.CartResponse), 400: badRequest },
        },
      },
      '/api/catalog/fastorder.php': {
        get: {
          summary:
            'Order one offer as a guest in one step (a pre-order when the size is out of stock but open for pre-order)',
          description:
            'Capped per IP (FAST_ORDERS_PER_IP_HOUR), per phone (FAST_ORDERS_PER_PHONE_DAY) and per offer and IP (FAST_ORDERS_PER_OFFER_IP_DAY): beyond a cap, `success: false` with the Russian text. Stock taken is held for FAST_ORDER_HOLD_HOURS unless staff confirm the order.',
          parameters: [
            param('id', 'Offer id', true),
            param('name', 'Customer name', true),
            param('phone', 'Phone, any formatting', true),
            param(
              'key',
              'Idempotency key of this submission (8–64 of A–Z, a–z, 0–9, -): a repeat gets the first answer',
            ),
            param(
              'recaptcha_token',
              'Captcha token of action fast_order (as send_sms.php); offline, any non-empty token but offline-fail passes',
              true,
            ),
          ],
          responses: {
            200: ok('The order id, or the error with the fields to flag', contract.FastOrderResponse),
            400: badRequest,
          },
        },
      },
      '/api/catalog/addtowishlist.php': {
        get: {
          summary: 'Join the back-in-stock waiting list of a sold-out size (one SMS when it is back)',
          description:
            'Capped per IP (WAITING_LIST_PER_IP_HOUR), per phone (WAITING_LIST_PER_PHONE_DAY) and per offer and IP (WAITING_LIST_PER_OFFER_IP_DAY).',
          parameters: [
            param('product_id', 'Offer id', true),
            param('name', 'Name', true),
            param('phone', 'Phone', true),
          ],
          responses: {
            200: ok('Joined, or the error with the fields to flag', contract.WaitingListResponse),
            400: badRequest,
          },
        },
      },
      '/api/catalog/check_certificate.php': {
        post: {
          summary: 'The balance of a gift certificate by its number',
          description:
            'Form body. `code`: the 16 digits (spaces and hyphens allowed), `token` optional. A number of the wrong shape or check digit, an unknown, expired or spent certificate answer 200 with `success: false` and the text to show. Each unknown well-formed number counts against 10 an hour per IP and 30 a day per customer; beyond either, every check answers 429, a right number too.',
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  required: ['code'],
                  properties: {
                    code: { type: 'string', maxLength: 64, example: '1234 5678 9012 3452' },
                    token: { type: 'string', description: 'Session token (jwt_token)' },
                  },
                },
              },
            },
          },
          responses: {
            200: ok(
              'The balance (roubles), the number in groups and the last day it is valid; or the error',
              contract.CertificateCheckResponse,
            ),
            400: badRequest,
            429: ok('Too many unknown numbers from this IP or customer', contract.CertificateCheckResponse),
          },
        },
      },
      '/api/personal/subscribe_form.php': {
        post: {
          summary:
            'Subscribe an e-mail address to the newsletter: pending until the link in the confirmation letter is confirmed',
          description:
            'Form body. A bad address and too many tries from one IP (10 an hour) answer 200 with `error`, the text to show above the field; an address already subscribed answers a `message` too.',
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  required: ['email'],
                  properties: { email: { type: 'string', maxLength: 254 } },
                },
              },
            },
          },
          responses: { 200: ok('The message to show, or the error', contract.NewsletterResponse), 400: badRequest },
        },
      },
      '/api/newsletter/status': {
        post: {
          summary: 'A newsletter letter’s link: the subscription’s state',
          description:
            'JSON or form body `token` (from the letter’s link; no login). An unknown or malformed token answers status `unknown`.',
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['token'],
                  properties: { token: { type: 'string', maxLength: 200 } },
                },
              },
            },
          },
          responses: {
            200: ok(
              'The subscription’s state, its address masked, whether this call changed it',
              contract.NewsletterLinkResponse,
            ),
            400: badRequest,
          },
        },
      },
      '/api/newsletter/confirm': {
        post: {
          summary: 'Confirm a pending subscription (double opt-in); the first confirmation sends the welcome letter',
          description:
            'JSON or form body `token` (from the letter’s link; no login). An unknown or malformed token answers status `unknown`.',
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['token'],
                  properties: { token: { type: 'string', maxLength: 200 } },
                },
              },
            },
          },
          responses: {
            200: ok(
              'The subscription’s state, its address masked, whether this call changed it',
              contract.NewsletterLinkResponse,
            ),
            400: badRequest,
          },
        },
      },
      '/api/newsletter/unsubscribe': {
        post: {
          summary: 'Unsubscribe (the page behind List-Unsubscribe calls it)',
          description:
            'JSON or form body `token` (from the letter’s link; no login). An unknown or malformed token answers status `unknown`.',
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['token'],
                  properties: { token: { type: 'string', maxLength: 200 } },
                },
              },
            },
          },
          responses: {
            200: ok(
              'The subscription’s state, its address masked, whether this call changed it',
              contract.NewsletterLinkResponse,
            ),
            400: badRequest,
          },
        },
      },
      '/api/dadata/': {
        post: {
          summary: 'Address suggestions while typing (a proxy of DaData, or its offline stand-in)',
          description:
            "Form body. type: 'address' (city to house, the default), 'city' (cities and settlements) or 'street' (streets, within city when given). restrict_value 'true' drops the city given from each value. A blank or over-200-character query answers no suggestions; more than 120 calls a minute from one IP answer 429.",
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  required: ['query'],
                  properties: {
                    query: { type: 'string', maxLength: 200 },
                    type: { type: 'string', enum: ['address', 'city', 'street'], default: 'address' },
                    restrict_value: { type: 'string', enum: ['true', 'false'] },
                    city: { type: 'string', maxLength: 100, description: 'Restrict to this city' },
                  },
                },
              },
            },
          },
          responses: {
            200: ok('Suggestions, best first (none when the provider fails)', contract.AddressSuggestionsResponse),
            400: badRequest,
            429: ok('Too many calls from this IP: try in a minute', contract.ApiError),
          },
        },
      },
      '/staff/returns/': {
        post: {
          summary:
            'Staff only (Authorization: Bearer STAFF_TOKEN): approve a return request (refunds: certificate and bonuses at once, card or instalments by a job, pay on receipt by a manual transfer), reject it with a reason, or record the transfer made',
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  required: ['action', 'request_id'],
                  properties: {
                    action: { type: 'string', enum: ['approve', 'reject', 'transferred'] },
                    request_id: { type: 'integer' },
                    delivery: {
                      type: 'string',
                      enum: ['0', '1'],
                      description: "approve: '1' refunds the delivery too (once per order)",
                    },
                    note: {
                      type: 'string',
                      maxLength: 500,
                      description: 'reject: the reason the customer sees (required); approve: kept with the decision',
                    },
                  },
                },
              },
            },
          },
          responses: {
            200: ok('The request after the decision, with its refunds', StaffReturnResponse),
            400: badRequest,
            401: ok('No or a wrong staff key', contract.ApiError),
          },
        },
      },
      '/staff/feeds/': {
        get: {
          summary:
            'Staff only (Authorization: Bearer STAFF_TOKEN): the product feeds (docs/feeds.md): their addresses, the settings, each last build with the offers it left out and why',
          responses: {
            200: ok('The feeds', contract.StaffFeedsResponse),
            401: ok('No or a wrong staff key', contract.ApiError),
          },
        },
        post: {
          summary:
            "Staff only: 'settings' stores a partial settings object over the current one (JSON: { action, settings }); 'build' builds a feed now (channel yandex, google or vk; all without it)",
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['action'],
                  properties: {
                    action: { type: 'string', enum: ['settings', 'build'] },
                    settings: {
                      type: 'object',
                      description: 'settings: the fields to change (FeedSettings, lists and UTM tags replaced whole)',
                    },
                    channel: { type: 'string', enum: [...contract.FEED_CHANNELS] },
                  },
                },
              },
            },
          },
          responses: {
            200: ok('The feeds after the change, or the fields refused', contract.StaffFeedsActionResponse),
            400: badRequest,
            401: ok('No or a wrong staff key', contract.ApiError),
          },
        },
      },
      '/staff/stock/': {
        post: {
          summary:
            "Staff only (Authorization: Bearer STAFF_TOKEN): set (a count) or add to an offer's stock, written to the stock ledger; a size coming back notifies its waiting list. 'verify' checks that every offer's quantity is the sum of its ledger moves",
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  required: ['action'],
                  properties: {
                    action: { type: 'string', enum: ['set', 'add', 'verify'] },
                    offer_id: { type: 'integer', description: 'set, add' },
                    quantity: { type: 'integer', description: 'set, add' },
                  },
                },
              },
            },
          },
          responses: {
            200: ok(
              'The change (set, add) or the ledger check (verify)',
              z.union([contract.StockChangeResponse, StockLedgerResponse]),
            ),
            400: badRequest,
            401: ok('No or a wrong staff key', contract.ApiError),
          },
        },
      },
      '/api/personal/send_sms.php': {
        post: {
          summary: 'Send a login code by SMS (6 digits, 5 minutes, 5 tries)',
          description:
            'Refused, with the Russian reason, without a good captcha token, within 59 s of the last code to the phone (resend_in says how long), or past the caps: 5 an hour and 10 a day per phone, per client IP, per number range, per day for the shop. The answer never says whether the phone has an account.',
          requestBody: formBody(
            { phone: 'Digits only, country code first', recaptcha_token: 'Captcha token of action send_sms' },
            ['phone', 'recaptcha_token'],
          ),
          responses: { 200: ok('Sent, or why not', contract.SendCodeResponse), 400: badRequest },
        },
      },
      '/api/personal/auth_phone.php': {
        post: {
          summary: 'Log in with the code: the session token (jwt_token) and the main data, or data.error',
          requestBody: formBody({ phone: 'Digits only', code: 'The code from the SMS' }, ['phone', 'code']),
          responses: { 200: ok('user, or data.error', contract.AuthResponse), 400: badRequest },
        },
      },
      '/api/personal/send_email_code.php': {
        post: {
          summary: 'Send a login code by e-mail (6 digits, 5 minutes, 5 tries)',
          description:
            'For customers with this e-mail in their profile; any other well-formed address gets the same answer and a letter saying no account uses it (no code), so the answer never says whether the address is registered. The same refusals as send_sms.php: captcha (action send_email), 59 s between codes (resend_in), 5 an hour and 10 a day per address, per client IP, per day for the shop.',
          requestBody: formBody(
            { email: 'The e-mail address', recaptcha_token: 'Captcha token of action send_email' },
            ['email', 'recaptcha_token'],
          ),
          responses: { 200: ok('Sent, or why not', contract.SendCodeResponse), 400: badRequest },
        },
      },
      '/api/personal/auth_email.php': {
        post: {
          summary:
            'Log in with the code from the e-mail: the session token (jwt_token) and the main data, or data.error',
          requestBody: formBody({ email: 'The e-mail address', code: 'The code from the letter' }, ['email', 'code']),
          responses: { 200: ok('user, or data.error', contract.AuthResponse), 400: badRequest },
        },
      },
      '/api/personal/profile_main.php': {
        post: {
          summary: "The token's customer: main data and profile",
          requestBody: formBody({ 'params[token]': 'Session token (jwt_token)' }, ['params[token]']),
          responses: { 200: ok('The profile', contract.ProfileResponse), 400: badRequest, 401: noSession },
        },
      },
      '/api/personal/logout.php': {
        post: {
          summary: "End the token's session, or with all=yes every session of its customer",
          requestBody: formBody({ token: 'Session token', all: "'yes' to log out on every device" }, ['token']),
          responses: { 200: ok('How many sessions ended', contract.LogoutResponse), 400: badRequest },
        },
      },
      '/api/personal/profile_change.php': {
        post: {
          summary:
            "Change the token's customer's profile: only non-empty change[...] fields (lower-cased names); the e-mail checked",
          requestBody: formBody(
            {
              token: 'Session token',
              'change[firstname]': 'First name',
              'change[lastname]': 'Last name',
              'change[secondname]': 'Patronymic',
              'change[email]': 'E-mail (stored lower-cased)',
            },
            ['token'],
          ),
          responses: {
            200: ok('The profile after the change, or why not (Russian)', contract.ProfileChangeResponse),
            400: badRequest,
            401: noSession,
          },
        },
      },
      '/api/personal/addresses.php': {
        post: {
          summary: "The token's customer's saved addresses, oldest first",
          requestBody: formBody({ token: 'Session token' }, ['token']),
          responses: { 200: ok('addresses, or error', contract.AddressesResponse), 400: badRequest, 401: noSession },
        },
      },
      '/api/personal/address_add.php': {
        post: {
          summary: "Add an address (at most 20), or with id edit one of the customer's own; city and street required",
          requestBody: formBody(
            {
              token: 'Session token',
              id: "The address to edit (one of the customer's own)",
              city: 'City',
              street: 'Street',
              house: 'House',
              flat: 'Flat',
              postal_code: 'Postal code',
              comment: 'Comment for the courier',
            },
            ['token', 'city', 'street'],
          ),
          responses: {
            200: ok('The address id, or why not', contract.AddressChangeResponse),
            400: badRequest,
            401: noSession,
          },
        },
      },
      '/api/personal/address_remove.php': {
        post: {
          summary: "Remove one of the customer's own addresses",
          requestBody: formBody({ token: 'Session token', id: 'Address id' }, ['token', 'id']),
          responses: {
            200: ok('Removed, or not found', contract.AddressChangeResponse),
            400: badRequest,
            401: noSession,
          },
        },
      },
      '/api/personal/orders.php': {
        post: {
          summary:
            "The customer's orders, newest first: Russian dates and status labels, lines with integer rouble prices, totals",
          requestBody: formBody({ token: 'Session token' }, ['token']),
          responses: { 200: ok('value.orders', contract.OrdersResponse), 400: badRequest, 401: noSession },
        },
      },
      '/api/reviews/list.php': {
        get: {
          summary:
            "A product's published reviews (10 a page), its rating and the fit advice (issue #32, docs/reviews.md)",
          parameters: [
            param('product_id', 'Product id', true),
            param('sort', 'new (default) or helpful'),
            param('rating', '1–5: only reviews with this rating'),
            param('photos', '1: only reviews with photos'),
            param('page', 'Page, from 1'),
          ],
          responses: {
            200: ok('Summary and the page of reviews', reviewsContract.ReviewListResponse),
            400: badRequest,
          },
        },
      },
      '/api/personal/review_lines.php': {
        post: {
          summary: "The customer's order lines with their review state (of one order or one product)",
          description: COOKIE_NOTE,
          requestBody: formBody({ token: 'Session token', order_id: 'Order id', product_id: 'Product id' }),
          responses: {
            200: ok('The lines', reviewsContract.ReviewLinesResponse),
            400: badRequest,
            401: noSession,
            ...cookieRefused,
          },
        },
      },
      '/api/personal/review_add.php': {
        post: {
          summary:
            'A review of a received and kept order line, once per line, within 60 days (JSON; photos as base64, at most 5)',
          description:
            "JSON body: token (or the session cookie from the shop's own pages), order_id, offer_id, is_preorder, rating 1–5, fit small|true|large, text, height, usual_size, photos[]. Mistakes answer 200 with success false and the Russian text. " +
            COOKIE_NOTE,
          responses: {
            200: ok('The review, or the error', reviewsContract.ReviewWriteResponse),
            400: badRequest,
            401: noSession,
            ...cookieRefused,
          },
        },
      },
      '/api/personal/review_resend.php': {
        post: {
          summary:
            'A rejected review edited and sent again, once (JSON: review_id and the fields of review_add.php; keep_photos true keeps them)',
          description: COOKIE_NOTE,
          responses: {
            200: ok('The review, or the error', reviewsContract.ReviewWriteResponse),
            400: badRequest,
            401: noSession,
            ...cookieRefused,
          },
        },
      },
      '/api/reviews/helpful.php': {
        post: {
          summary: '«Помог отзыв»: one vote per customer and review (not a toggle: a second press changes nothing)',
          description:
            "A review on show, not the customer's own (success false with the Russian text otherwise). A call without a session: 401 «Войдите, чтобы отметить отзыв полезным». " +
            COOKIE_NOTE,
          requestBody: formBody({ token: 'Session token', review_id: 'Review id' }, ['review_id']),
          responses: {
            200: ok('The count after the call and whether the vote is there', reviewsContract.ReviewHelpfulResponse),
            400: badRequest,
            401: ok('No session: «Войдите, чтобы отметить отзыв полезным»', contract.ApiError),
            ...cookieRefused,
          },
        },
      },
      '/api/personal/returns.php': {
        post: {
          summary: "The customer's return requests, newest first, with the lines asked back",
          requestBody: formBody({ token: 'Session token' }, ['token']),
          responses: { 200: ok('value.orders', contract.ReturnsResponse), 400: badRequest, 401: noSession },
        },
      },
      '/api/personal/return_add.php': {
        post: {
          summary:
            "Ask back lines of one of the customer's received orders within the return period (7 days from receipt, 14 for pre-orders)",
          requestBody: formBody(
            {
              token: 'Session token',
              order_id: 'Order id',
              'items[{offer id}]': 'Quantity to return',
              reason: 'Why (500 characters at most)',
            },
            ['token', 'order_id'],
          ),
          responses: {
            200: ok('The request id, or why not', contract.ReturnCreateResponse),
            400: badRequest,
            401: noSession,
          },
        },
      },
      '/api/personal/subscribe.php': {
        post: {
          summary: "Set the customer's newsletter flag",
          requestBody: formBody({ token: 'Session token', active: "'yes' or 'no'" }, ['token', 'active']),
          responses: { 200: ok('The flag as set', contract.SubscribeResponse), 400: badRequest, 401: noSession },
        },
      },
      '/api/personal/bonuses.php': {
        post: {
          summary:
            "The customer's bonuses (content/pages/loyalty.md): the balance to spend now (whole roubles), the birthday, the history newest first (Russian text, signed amount, the last day added bonuses can be spent) and the bonuses received orders will bring 14 days after receipt",
          requestBody: formBody({ token: 'Session token' }, ['token']),
          responses: {
            200: ok('balance, birthday, history, pending', contract.BonusesResponse),
            400: badRequest,
            401: noSession,
          },
        },
      },
      '/api/personal/birthday.php': {
        post: {
          summary:
            "Set the customer's birthday, once (a second, different date is refused); if its bonus window (7 days before to 7 after) is open, the 2 000 bonuses are granted at once",
          requestBody: formBody({ token: 'Session token', birthday: "'ДД.ММ.ГГГГ' or 'YYYY-MM-DD'" }, [
            'token',
            'birthday',
          ]),
          responses: {
            200: ok('The birthday as stored, or why not (Russian)', contract.BirthdayResponse),
            400: badRequest,
            401: noSession,
          },
        },
      },
      '/api/catalog/get_cities.php': {
        get: {
          summary:
            'The cities the shop delivers to (Russia, Belarus, Kazakhstan, other CIS; one entry for the rest of the world)',
          responses: { 200: ok('cities', contract.CitiesResponse) },
        },
      },
      '/api/catalog/get_order_params.php': {
        get: {
          summary: 'Delivery methods (with cost, dates, pickup points) and payment methods for a city and basket',
          parameters: [
            param('city', 'City name'),
            param('ids', "Cart lines 'id:qty,...'"),
            param('preorder_ids', "Pre-order lines 'id:qty,...'"),
            param('promo_code', 'Promo code'),
          ],
          responses: { 200: ok('delivery_methods and payment_methods', contract.OrderParamsResponse), 400: badRequest },
        },
      },
      '/api/catalog/getdeliverycost.php': {
        get: {
          summary: 'The delivery cost of one method for this basket and city (null: to be confirmed by staff)',
          parameters: [
            param('data[city]', 'City name (or city)'),
            param('delivery_id', 'Delivery method id', true),
            param('code_pvz', 'CDEK pickup point code'),
            param('delivery_address', 'Address'),
            param('basketcost', 'Basket cost the page shows (not trusted)'),
            param('ids', "Cart lines 'id:qty,...'"),
            param('preorder_ids', "Pre-order lines 'id:qty,...'"),
          ],
          responses: { 200: ok('deliverycost', contract.DeliveryCostResponse), 400: badRequest },
        },
      },
      '/api/catalog/order.php': {
        post: {
          summary:
            "Place the session customer's order (GET with the same fields as a query also works, as SPEC writes it). Everything is recomputed by the server; a different delivery cost is answered with the new one",
          requestBody: formBody(
            {
              token: 'Session token',
              ids: "Cart lines 'id:qty,...'",
              preorder_ids: "Pre-order lines 'id:qty,...'",
              promo_code: 'Promo code',
              firstname: 'First name',
              lastname: 'Last name',
              secondname: 'Patronymic',
              phone: 'Phone',
              email: 'E-mail (the receipt goes there)',
              city: 'City name (get_cities.php)',
              delivery_id: "'1' Moscow courier, '139' CDEK pickup point, '137' CDEK courier, '200' by agreement",
              street: 'Street (or the whole foreign address for 200)',
              house: 'House',
              flat: 'Flat',
              postcode: 'Postcode',
              comment: 'Comment',
              code_pvz: 'CDEK pickup point code (139)',
              payment_id: "'1' on receipt (Moscow courier only), '9' card online",
              deliverycost: "The delivery cost the shopper saw, roubles ('' when to be confirmed)",
              key: 'Idempotency key of this submission (8-64 of A-Z a-z 0-9 -)',
            },
            ['token'],
          ),
          responses: {
            200: ok(
              'The order id, or data as the error set (field → Russian message; error for the form)',
              contract.CheckoutOrderResponse,
            ),
            400: badRequest,
            401: ok('No session', contract.CheckoutOrderResponse),
            500: ok('Произошла ошибка на сервере. Пожалуйста, попробуйте позже.', contract.ApiError),
          },
        },
      },
      '/api/catalog/payment_params.php': {
        post: {
          summary:
            "The CloudPayments widget's options and pay('charge', …) parameters (with the SPEC §3 receipt) for the customer's order awaiting card payment",
          requestBody: formBody({ token: 'Session token', order_id: 'Order id' }, ['token', 'order_id']),
          responses: {
            200: ok('payment, or error with the order status', contract.PaymentParamsResponse),
            400: badRequest,
          },
        },
      },
      '/api/catalog/success_payment_order.php': {
        get: {
          summary:
            'The browser says a payment went through: the server answers paid only when it verified it (already paid, or CloudPayments asked)',
          description:
            "Only the order's owner (token) learns anything, and only for the owner is the provider asked, at most PAYMENT_CHECKS_PER_ORDER_MINUTE times a minute per order (beyond, the stored state). PAYMENT_CHECKS_PER_IP_MINUTE calls a minute per IP; beyond, status `unknown` with the Russian text in `message`.",
          parameters: [
            param('order_id', 'Order id', true),
            param('payment_num', 'The transaction id the widget gave'),
            param('token', 'Session token'),
          ],
          responses: { 200: ok('Whether the order is paid', contract.PaymentStatusResponse), 400: badRequest },
        },
      },
      '/api/cloudpayments/{kind}/': {
        post: {
          summary:
            'CloudPayments notifications: kind is check, pay, fail or refund. Form body as CloudPayments sends it, accepted only with a valid Content-HMAC over the raw body; answers {"code":0} (Check: 10, 11, 12, 13 or 20 when refused)',
          parameters: [
            {
              name: 'kind',
              in: 'path',
              required: true,
              schema: { type: 'string', enum: ['check', 'pay', 'fail', 'refund'] },
            },
          ],
          responses: { 200: { description: '{ code }' }, 401: ok('Missing or bad signature', contract.ApiError) },
        },
      },
      '/api/catalog/instalment_link.php': {
        post: {
          summary:
            "Pay in parts: the provider's page (Dolyami or Yandex Split; offline, the stand-in's) for the customer's order awaiting payment",
          requestBody: formBody({ token: 'Session token', order_id: 'Order id' }, ['token', 'order_id']),
          responses: {
            200: ok('link and provider, or error with the order status', contract.InstalmentLinkResponse),
            400: badRequest,
            502: ok('The provider failed', contract.InstalmentLinkResponse),
          },
        },
      },
      '/api/catalog/change_payment.php': {
        post: {
          summary:
            "Another online method (9 card, 10 Dolyami, 11 Yandex Split) for the customer's order still awaiting payment",
          requestBody: formBody({ token: 'Session token', order_id: 'Order id', payment_id: '9, 10 or 11' }, [
            'token',
            'order_id',
            'payment_id',
          ]),
          responses: {
            200: ok('success, or error with the order status', contract.ChangePaymentResponse),
            400: badRequest,
          },
        },
      },
      '/api/dolyami/callback/': {
        post: {
          summary:
            "Dolyami's callback (JSON {id, status, amount}, unsigned): only makes the server ask Dolyami (info, then commit); answers 200, or 503 to be retried",
          responses: { 200: { description: '{ status: "ok" }' }, 400: ok('No id', contract.ApiError) },
        },
      },
      '/api/yandex-split/v1/webhook': {
        post: {
          summary:
            "Yandex Split's webhook: the body is an ES256 JWT (application/octet-stream) checked against Yandex's JWKS; then GET /orders confirms it",
          responses: {
            200: { description: '{ status: "success" }' },
            403: { description: '{ reasonCode: "FORBIDDEN" } for a bad token' },
          },
        },
      },
      '/api/personal/order_detail.php': {
        post: {
          summary: "One of the customer's orders with its delivery, payment and status history",
          requestBody: formBody({ token: 'Session token', order_id: 'Order id' }, ['token', 'order_id']),
          responses: {
            200: ok("The order, or error when it is not the customer's", contract.OrderDetailResponse),
            400: badRequest,
            401: noSession,
          },
        },
      },
      '/api/personal/order_to_cart.php': {
        post: {
          summary:
            "Puts the lines of one of the customer's orders back in their saved basket (summed, cut to stock; pre-orders as pre-orders while they can be): the basket as saved",
          requestBody: formBody({ token: 'Session token', order_id: 'Order id' }, ['token', 'order_id']),
          responses: {
            200: ok(
              "The basket, or error when the order is not the customer's or still awaits its payment",
              contract.OrderToCartResponse,
            ),
            400: badRequest,
            401: noSession,
          },
        },
      },
      '/api/cdek/': {
        get: {
          summary:
            "CDEK map widget proxy (action=offices: the city's delivery points, CDEK's shape) or the pickup-point map page (action=map&city_code=)",
          parameters: [
            param('action', "'offices' or 'map'", true),
            param('city_code', 'CDEK city code'),
            param('type', 'PVZ, POSTAMAT or ALL'),
          ],
          responses: {
            200: { description: 'Delivery points (JSON) or the map page (text/html)' },
            400: badRequest,
            502: ok('CDEK failed', contract.ApiError),
          },
        },
        post: {
          summary:
            'piniaState (form) → { html }: the pickup-point map page of the state\'s city; or JSON {"action":"calculate", …}: the widget\'s tariff list',
          requestBody: formBody({
            piniaState: 'The storefront state as JSON (city or cityCode read)',
            city_code: 'CDEK city code',
          }),
          responses: {
            200: { description: '{ html } or the tariff list' },
            400: badRequest,
            502: ok('CDEK failed', contract.ApiError),
          },
        },
      },
    },
  };
}

/**
 * The published document: the routes defined with api/route.server.ts defineRoute, described from
 * the zod schemas they validate with, over the descriptions still written here by hand (a defined
 * route's operation replaces a hand-written one of the same method and path).
 */
export function buildOpenApi(serverUrl: string): Record<string, unknown> {
  const doc = handWrittenOpenApi(serverUrl) as { paths: Record<string, Record<string, unknown>> };
  const paths = { ...doc.paths };
  for (const [path, operations] of Object.entries(openApiPaths(serverUrl)))
    paths[path] = { ...paths[path], ...operations };
  return { ...doc, paths };
}
