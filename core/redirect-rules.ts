import { canonicalPagePath, isExternalUrl, isPagePath } from './redirects';

// Staff redirects (issue #30 "The site's words"): what a redirect's two ends may be, and the loop
// check over the whole table, pure so the admin API, the bulk import and the tests share them.

export type RedirectCheck = { ok: true; value: string } | { ok: false; error: string };

const BAD_CHARS = /[\s<>"'`\\^{}|]/;

/** The old address: a page path of this shop (not the API, media or the back office), in canonical form. */
export function checkRedirectFrom(input: string, apiPrefix = '/backend'): RedirectCheck {
  const from = input.trim();
  if (!from) return { ok: false, error: 'Укажите старый адрес' };
  if (from.length > 2000) return { ok: false, error: 'Старый адрес длиннее 2000 символов' };
  if (isExternalUrl(from) || !from.startsWith('/') || from.startsWith('//'))
    return { ok: false, error: 'Старый адрес — путь на этом сайте, начинается с «/» (например, /sale/)' };
  if (BAD_CHARS.test(from)) return { ok: false, error: 'В старом адресе есть пробелы или недопустимые знаки' };
  if (/[?#]/.test(from))
    return { ok: false, error: 'Старый адрес — без «?» и «#»: параметры при переходе сохраняются' };
  const path = canonicalPagePath(from);
  if (path === '/') return { ok: false, error: 'С главной страницы перенаправлять нельзя' };
  if (!isPagePath(path.slice(0, -1) || '/', apiPrefix) || !isPagePath(path, apiPrefix))
    return { ok: false, error: 'Этот адрес — не страница сайта (API, файлы, админка): перенаправить его нельзя' };
  return { ok: true, value: path };
}

/** The new address: a path on this shop or an absolute http(s) address. */
export function checkRedirectTo(input: string): RedirectCheck {
  const to = input.trim();
  if (!to) return { ok: false, error: 'Укажите новый адрес' };
  if (to.length > 2000) return { ok: false, error: 'Новый адрес длиннее 2000 символов' };
  if (BAD_CHARS.test(to)) return { ok: false, error: 'В новом адресе есть пробелы или недопустимые знаки' };
  if (isExternalUrl(to)) {
    try {
      const url = new URL(to);
      if (!url.hostname.includes('.')) throw new Error('no host');
      return { ok: true, value: to };
    } catch {
      return { ok: false, error: 'Новый адрес не похож на адрес сайта (https://…)' };
    }
  }
  if (!to.startsWith('/') || to.startsWith('//'))
    return { ok: false, error: 'Новый адрес — путь на этом сайте («/…») или полный адрес https://…' };
  return { ok: true, value: to };
}

/** The canonical path an internal target lands on (its query dropped), or null for another site. */
export function internalTarget(to: string): string | null {
  return isExternalUrl(to) ? null : canonicalPagePath(to);
}

/**
 * The chain a new redirect from → to would make a loop through, as the addresses visited (from
 * first, from again last), or null. `lookup` answers the stored target of a canonical path.
 */
export function findRedirectLoop(
  from: string,
  to: string,
  lookup: (path: string) => string | undefined,
): string[] | null {
  const chain = [from];
  let next = internalTarget(to);
  const seen = new Set<string>([from]);
  while (next !== null) {
    chain.push(next);
    if (next === from) return chain;
    if (seen.has(next)) return null; // a loop elsewhere, not through this redirect
    seen.add(next);
    const stored = lookup(next);
    next = stored === undefined ? null : internalTarget(stored);
    if (chain.length > 50) return null;
  }
  return null;
}

export interface ImportLine {
  line: number;
  from: string;
  to: string;
  status: number;
}

/**
 * Pasted text or CSV: one redirect a line, `old;new[;status]` (also `,` or a tab), a header line
 * and blank lines skipped. Answers the lines and the errors of lines that cannot be read.
 */
export function parseRedirectLines(text: string): { lines: ImportLine[]; errors: { line: number; error: string }[] } {
  const lines: ImportLine[] = [];
  const errors: { line: number; error: string }[] = [];
  const rows = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  rows.forEach((raw, i) => {
    const line = i + 1;
    const row = raw.trim();
    if (!row) return;
    const cells = row.split(/[;\t,]/).map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (i === 0 && !cells[0]?.startsWith('/')) return; // a header
    if (cells.length < 2 || cells.length > 3) {
      errors.push({ line, error: 'Нужно два или три поля: старый адрес; новый адрес; код (301 или 302)' });
      return;
    }
    const status = cells[2] ? Number(cells[2]) : 301;
    if (![301, 302, 307, 308].includes(status)) {
      errors.push({ line, error: 'Код перенаправления — 301, 302, 307 или 308' });
      return;
    }
    lines.push({ line, from: cells[0] ?? '', to: cells[1] ?? '', status });
  });
  return { lines, errors };
}
