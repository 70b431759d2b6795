// Cookie names of SPEC §9 and a tolerant reader that works on the server and in the browser.
export const COOKIE = {
  /** The session token: HttpOnly, set and read only by the server. */
  token: 'token',
  /** '1' beside a token: lets the shell show 'Аккаунт' without the secret (guest pages stay cacheable). */
  loggedIn: 'logged_in',
  /** When the last login code was sent (ms), beside `phone`: both live 59 s (SPEC §9). */
  codeSentAt: 'code_sent_at',
  cart: 'cart',
  promoCode: 'promo_code',
  preorders: 'preorders',
  /** A logged-in customer's saved basket revision the cookies' copy was made from. */
  cartRev: 'cart_rev',
  phone: 'phone',
  /** The e-mail login's code step, '<sent at ms>:<address>', 59 s like `phone`. */
  loginEmail: 'login_email',
  favourites: 'favourites',
  views: 'views',
} as const;

export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/** Number of items in an 'id:qty,id:qty' cart string; junk pairs count as nothing. */
export function countCartItems(value: string | null): number {
  if (!value) return 0;
  let total = 0;
  for (const pair of value.split(',')) {
    const m = /^\s*(\d{1,10}):(\d{1,4})\s*$/.exec(pair);
    if (m) total += Number(m[2]);
  }
  return total;
}

/** Number of ids in a comma-separated id list. */
export function countIds(value: string | null): number {
  if (!value) return 0;
  return value.split(',').filter((id) => /^\d{1,10}$/.test(id.trim())).length;
}
