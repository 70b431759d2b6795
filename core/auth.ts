// Login by a one-time code (SPEC §4 Auth, §5, §9): the numbers and the texts, one home for the
// API, the data functions and the storefront. Pure: hashing and randomness live on the server.

/** SPEC §9: six code boxes. */
export const LOGIN_CODE_LENGTH = 6;
/** A code is good for five minutes... */
export const LOGIN_CODE_TTL_MS = 5 * 60_000;
/** ...and for five tries: the sixth is refused whatever it says. */
export const LOGIN_CODE_MAX_ATTEMPTS = 5;
/** SPEC §9: the resend countdown, and the phone / send-time cookies' lifetime. */
export const RESEND_SECONDS = 59;
/** SPEC §5: 'Войти' is enabled from four digits, although six boxes exist. */
export const LOGIN_CODE_MIN_TO_SUBMIT = 4;
/** How long a login lasts without logging in again. */
export const SESSION_TTL_DAYS = 30;

/**
 * Limits on sending codes. Per phone (or address): one per RESEND_SECONDS, five an hour, ten a
 * day. Per client IP, per number prefix (bulk sends to one operator's premium range: SMS
 * pumping) and for the whole shop a day, so a botnet cannot run up the SMS bill either.
 */
export const SEND_LIMITS = {
  perTargetHour: 5,
  perTargetDay: 10,
  perIpHour: 20,
  perIpDay: 50,
  perPrefixHour: 30,
  shopPerDay: 5000,
} as const;

/** Digits of a phone that name its operator range: country code 7 and the first 6 national digits; others their first 7. */
export function phonePrefix(phone: string): string {
  return phone.slice(0, 7);
}

export const AUTH_TEXT = {
  phone: 'Введите номер телефона полностью',
  email: 'Проверьте адрес электронной почты',
  captcha: 'Не удалось проверить, что вы не робот. Обновите страницу и попробуйте ещё раз.',
  tooMany: 'Слишком много запросов кода. Попробуйте позже.',
  sendFailed: 'Не удалось отправить код. Попробуйте позже.',
  codeFormat: 'Введите код из сообщения',
  codeWrong: 'Неверный код',
  codeExpired: 'Код устарел. Запросите новый',
  codeAttempts: 'Слишком много попыток. Запросите новый код',
  sessionGone: 'Войдите снова',
  // A customer blocked by staff (issue #29): SPEC gives no text; the tone of LOYALTY_TEXT.birthdayOnce.
  blocked: 'Вход в личный кабинет закрыт. Если это ошибка, напишите нам в чат',
} as const;

/** SPEC §4: 'Получить новый код через: N сек.' */
export function resendText(seconds: number): string {
  return `Получить новый код через: ${Math.max(0, Math.ceil(seconds))} сек.`;
}

/** The SMS that carries a code. */
export function loginSmsText(code: string): string {
  return `Код для входа в Vitrina: ${code}. Никому его не сообщайте.`;
}

/** Only digits, at most six: what a code box row holds (a paste of '12 34 56' gives '123456'). */
export function cleanCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, LOGIN_CODE_LENGTH);
}

/** A code the server will compare: 4 to 6 digits (SPEC §5's button rule; a short one simply never matches). */
export function isCodeShaped(code: string): boolean {
  return /^\d{4,6}$/.test(code);
}

/** Seconds left before another code may be asked for, from the time the last one was sent. */
export function resendSecondsLeft(sentAtMs: number, nowMs: number): number {
  return Math.max(0, RESEND_SECONDS - (nowMs - sentAtMs) / 1000);
}

/** Lower-cased, trimmed; null unless it looks like one address (the server's only check before sending). */
export function normalizeEmail(input: string): string | null {
  const email = input.trim().toLowerCase();
  if (email.length > 254) return null;
  return /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[a-zа-яё0-9-]{2,}$/i.test(email) ? email : null;
}

/** Longest `token` cookie read as a session: the shop's own tokens are about 200 characters. */
export const SESSION_TOKEN_MAX_LENGTH = 1000;

/**
 * A `token` cookie the shop could have written (a compact JWT of base64url parts, not too long);
 * anything else is no session at all and never goes to the API (issue #27: a cookie the shop
 * cannot read is treated as none, whatever its length or content).
 */
export function isSessionTokenShaped(token: string | null | undefined): token is string {
  return (
    typeof token === 'string' &&
    token.length <= SESSION_TOKEN_MAX_LENGTH &&
    /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)
  );
}
