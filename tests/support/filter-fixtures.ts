import { readFileSync } from 'node:fs';

// The security filter's fixtures (tests/fixtures/attack-strings.txt, honest-urls.txt), read by
// its unit tests (core/security-filter.test.ts) and its HTTP tests (tests/api/security-filter.test.ts).

export interface FixtureLine {
  text: string;
  section: string;
}

/** Fixture lines; '#' starts a comment, "# @section name" starts a section. */
export function readFixture(name: 'attack-strings.txt' | 'honest-urls.txt'): FixtureLine[] {
  const text = readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
  const lines: FixtureLine[] = [];
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const directive = /^#\s*@section\s+(\S+)/.exec(line);
    if (directive) section = directive[1]!;
    if (line.trim() === '' || line.startsWith('#')) continue;
    lines.push({ text: line, section });
  }
  return lines;
}

/** Characters a URL may carry as they are (RFC 3986), minus '&' and '#', which would cut the value. */
export const RAW_QUERY_VALUE_RE = /^(?:[A-Za-z0-9\-._~!$'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/;
export const RAW_PATH_RE = /^(?:[A-Za-z0-9\-._~!$'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;

/** Every other ASCII letter upper-cased, the rest lower-cased: `<sCrIpT>`, `%2E%2e`. */
export function mixedCase(text: string): string {
  let letters = 0;
  return text.replace(/[a-z]/gi, (ch) => (letters++ % 2 === 0 ? ch.toUpperCase() : ch.toLowerCase()));
}

/** How Node hands over a raw (not percent-encoded) UTF-8 target: its bytes read as latin1. */
export function asLatin1(target: string): string {
  return Buffer.from(target, 'utf8').toString('latin1');
}
