// Request security filter of SPEC §5 (last rule) and §8: the server runs it first on every
// request and answers 403 INJECTION_BLOCKED_MESSAGE when it finds something. Pure and
// framework-free; all patterns are compiled once at module load.
//
// How it works: the raw target is split into the path and the query; the path, the whole
// query and every query key and value are decoded until they stop changing, at most
// MAX_DECODE_ROUNDS times (percent escapes incl. %uXXXX and overlong UTF-8, '+' as space in the
// query, HTML entities, NFKC and a few slash look-alikes), and every intermediate form is checked
// in two spellings: control characters turned into spaces (so `<img\tsrc=x\tonerror=` keeps its
// word boundaries) and control characters removed (so `java\tscript:` reads as the browser reads
// it). A dot, slash or backslash spelt as overlong or invalid UTF-8 (`%c0%ae`, `%c1%1c`) is a
// traversal by itself: no browser writes one, old servers decoded them to get past filters.

export const INJECTION_BLOCKED_MESSAGE = 'Доступ запрещен: обнаружена попытка внедрения вредоносного кода';

export type InjectionKind = 'traversal' | 'system-path' | 'script-function' | 'script-tag' | 'scheme' | 'event-handler';

/**
 * Enough for any honest link (ad redirect chains re-encode a UTM value three or four times) and
 * for markers hidden under many layers; each round costs one pass over the string.
 */
const MAX_DECODE_ROUNDS = 12;

// ---------------------------------------------------------------------------------------------
// Patterns. No `g` flag anywhere: they are used with .test() and must keep no state.

/**
 * A `..` path step: a run of two or more dots that starts a segment (start, slash, backslash,
 * `=` or a quote before it) and is followed by a slash or backslash (Tomcat's `..;/` too), or a
 * bare `..` closing a path. Dots inside text (`пальто...`, `пальто.../`, `/media/...jpg`) are not
 * a step and pass.
 */
const TRAVERSAL_RE = /(?:^|[\\/='"])\.{2,}(?:;[^\\/]*)?[\\/]|[\\/]\.\.;?$/;

const SYSTEM_PATH_RE = new RegExp(
  [
    // A Unix system directory as a whole path, whatever file follows: the request path or a query
    // value starting with it (`/etc/anything`, `/./usr/local/x`), after a character that starts
    // a path in a command or a list (`cat /etc/x`, `f=/proc/1`, `'/var/x`), or after an empty
    // segment (`/media//etc/x`, from `/media/%2Fetc%2Fx`). A shop path that merely has such a
    // segment (`/catalog/woman/etc/`) is not one.
    String.raw`(?:(?:^|[\s'"=;|&\x60(,:<>])[\\/]+|[\\/]{2,})(?:\.[\\/]+)*(?:etc|proc|sys|dev|var|usr|bin|sbin|boot|root|lib(?:32|64)?|opt|home|tmp)(?:[\\/]|$)`,
    // Unix files and directories an attacker reads or runs.
    String.raw`(?:^|[^a-z0-9_])etc[\\/]+(?:passwd|shadow|gshadow|group|hosts|hostname|issue|motd|fstab|crontab|sudoers|profile|environment|resolv\.conf|os-release|lsb-release|redhat-release|debian_version|inittab|master\.passwd|security[\\/]|ssh[\\/]|nginx[\\/]|apache2?[\\/]|httpd[\\/]|mysql[\\/]|php[\\/0-9]|init\.d|pam\.d|cron)`,
    String.raw`(?:^|[^a-z0-9_])proc[\\/]+(?:self|thread-self|\d+[\\/]|version|cmdline|environ|cpuinfo|meminfo|mounts|net[\\/]|sched_debug|kcore|modules|partitions)`,
    String.raw`[\\/](?:usr[\\/]+(?:local[\\/]+)?)?s?bin[\\/]+(?:(?:ba|z|da|k|c|tc|fi|a)?sh|busybox|nc|netcat|ncat|cat|id|whoami|uname|wget|curl|perl|python[0-9.]*|ruby|php|env|ls|ping|chmod|rm)(?![a-z0-9_])`,
    String.raw`[\\/]usr[\\/]+(?:local[\\/]+)?s?bin[\\/]`,
    String.raw`[\\/]var[\\/]+(?:log|www|mail|spool|lib|run|backups)(?:[\\/]|$)`,
    String.raw`[\\/]root[\\/]+\.`,
    String.raw`[\\/]dev[\\/]+(?:tcp|udp|null|zero|u?random|stdin|stdout|stderr|fd[\\/]|shm[\\/])`,
    String.raw`(?:^|[\\/])\.(?:ssh|git|svn|hg|aws|docker)(?:[\\/]|$)`,
    String.raw`(?:^|[\\/])\.(?:env|bash_history|bashrc|bash_profile|zsh_history|mysql_history|netrc|pgpass)(?![a-z0-9_])`,
    String.raw`\.ht(?:access|passwd)(?![a-z0-9_])`,
    String.raw`(?:^|[^a-z0-9_])(?:id_(?:rsa|dsa|ecdsa|ed25519)|authorized_keys|known_hosts)(?![a-z0-9_])`,
    String.raw`(?:^|[^a-z0-9_])(?:web-inf|meta-inf)[\\/]`,
    String.raw`(?:^|[^a-z0-9_])(?:wp-config\.php|web\.config|php\.ini)(?![a-z0-9_])`,
    // Windows.
    String.raw`(?:^|[^a-z0-9])[a-z]:[\\/]+(?:windows|winnt|boot\.ini|inetpub|program ?files|users[\\/]|documents and settings|system32)`,
    String.raw`[\\/](?:windows|winnt)[\\/]+(?:system32|system|win\.ini|system\.ini|repair|debug|panther|temp|php\.ini)`,
    String.raw`(?:^|[^a-z0-9_])(?:boot|win|system)\.ini(?![a-z0-9_])`,
    String.raw`(?:^|[^a-z0-9_])(?:system32|cmd\.exe|powershell\.exe)(?![a-z0-9_])`,
    String.raw`%(?:systemroot|windir|comspec)%`,
    // Local-file URLs.
    String.raw`(?:^|[^a-z0-9_])file:[\\/]{2}`,
  ].join('|'),
  'i',
);

/** `<script`, also `</script`, `< script`, `<script/x`; not `<scripts` or words like description. */
const SCRIPT_TAG_RE = /<\s*\/?\s*script(?![a-z0-9_-])/i;

/** Other tags that load or run code; checked last so that e.g. `<svg/onload=` reports event-handler. */
const ACTIVE_TAG_RE =
  /<\s*\/?\s*(?:iframe|i?layer|frame|frameset|object|embed|applet|base|meta|link|style|svg|math|xml|import|isindex|xss|bgsound|portal|xmp|plaintext)(?![a-z0-9_-])/i;

/** DOM event handler attribute names without the leading "on". */
const EVENT_NAMES = [
  'abort',
  'activate',
  'afterprint',
  'afterscriptexecute',
  'afterupdate',
  'animationcancel',
  'animationend',
  'animationiteration',
  'animationstart',
  'auxclick',
  'beforeactivate',
  'beforecopy',
  'beforecut',
  'beforedeactivate',
  'beforeeditfocus',
  'beforeinput',
  'beforematch',
  'beforepaste',
  'beforeprint',
  'beforescriptexecute',
  'beforetoggle',
  'beforeunload',
  'beforeupdate',
  'begin',
  'blur',
  'bounce',
  'cancel',
  'canplay',
  'canplaythrough',
  'cellchange',
  'change',
  'click',
  'close',
  'command',
  'contextlost',
  'contextmenu',
  'contextrestored',
  'controlselect',
  'copy',
  'cuechange',
  'cut',
  'dataavailable',
  'datasetchanged',
  'datasetcomplete',
  'dblclick',
  'deactivate',
  'drag',
  'dragdrop',
  'dragend',
  'dragenter',
  'dragexit',
  'dragleave',
  'dragover',
  'dragstart',
  'drop',
  'durationchange',
  'emptied',
  'end',
  'ended',
  'error',
  'errorupdate',
  'filterchange',
  'finish',
  'focus',
  'focusin',
  'focusout',
  'formchange',
  'formdata',
  'forminput',
  'fullscreenchange',
  'fullscreenerror',
  'gotpointercapture',
  'hashchange',
  'help',
  'input',
  'invalid',
  'keydown',
  'keypress',
  'keyup',
  'languagechange',
  'layoutcomplete',
  'load',
  'loadeddata',
  'loadedmetadata',
  'loadend',
  'loadstart',
  'losecapture',
  'lostpointercapture',
  'message',
  'messageerror',
  'mousedown',
  'mouseenter',
  'mouseleave',
  'mousemove',
  'mouseout',
  'mouseover',
  'mouseup',
  'mousewheel',
  'move',
  'moveend',
  'movestart',
  'offline',
  'online',
  'pagehide',
  'pagereveal',
  'pageshow',
  'pageswap',
  'paste',
  'pause',
  'play',
  'playing',
  'pointercancel',
  'pointerdown',
  'pointerenter',
  'pointerleave',
  'pointermove',
  'pointerout',
  'pointerover',
  'pointerrawupdate',
  'pointerup',
  'popstate',
  'progress',
  'propertychange',
  'ratechange',
  'readystatechange',
  'rejectionhandled',
  'repeat',
  'reset',
  'resize',
  'resizeend',
  'resizestart',
  'rowenter',
  'rowexit',
  'rowsdelete',
  'rowsinserted',
  'scroll',
  'scrollend',
  'scrollsnapchange',
  'scrollsnapchanging',
  'search',
  'securitypolicyviolation',
  'seeked',
  'seeking',
  'select',
  'selectionchange',
  'selectstart',
  'show',
  'slotchange',
  'stalled',
  'start',
  'stop',
  'storage',
  'submit',
  'suspend',
  'timeupdate',
  'toggle',
  'touchcancel',
  'touchend',
  'touchmove',
  'touchstart',
  'transitioncancel',
  'transitionend',
  'transitionrun',
  'transitionstart',
  'unhandledrejection',
  'unload',
  'volumechange',
  'waiting',
  'webkitanimationend',
  'webkitanimationiteration',
  'webkitanimationstart',
  'webkittransitionend',
  'wheel',
  'zoom',
];

/**
 * `onerror=`, `onload =`, `<svg/onload=`, `"onmouseover=`, old-Gecko `onload!#$%&()*~=`. The name
 * must be a real handler (so `one=`, `online=`, `only=`, `ON SALE` pass) and not the tail of a
 * longer word; inside a `<tag ...>` any `on...=` attribute counts.
 */
const EVENT_HANDLER_RE = new RegExp(
  String.raw`(?<![a-z0-9_])on(?:${EVENT_NAMES.join('|')})(?![a-z0-9_])[^\s=<>]*\s*=` +
    String.raw`|<[a-z][a-z0-9-]*[\s/"'\x60][^<>]*?(?<![a-z0-9_])on[a-z]{3,}\s*=`,
  'i',
);

/**
 * Script-running URL schemes. `javascript:`/`vbscript:` count anywhere (no honest shop text says
 * that). `data:` counts only as a data URL — followed by a media type (`data:text/html`,
 * `data: image/svg+xml`), by `,` or `;` (`data:,alert(1)`, `data:;base64,`), or by `//` — so the
 * word in `data: 2024` or `metadata: x` passes.
 */
const SCHEME_RE = new RegExp(
  [
    String.raw`(?:java|vb|live|ecma|j)script:`,
    String.raw`(?<![a-z0-9_.+-])data:\s*(?:[a-z]+\/[a-z0-9.+-]|[,;]|\/\/)`,
    String.raw`(?<![a-z0-9_.+-])(?:view-source|ms-its|mhtml|ms-msdt|search-ms|jar):`,
    String.raw`(?<![a-z0-9_.+-])(?:gopher|dict|ldaps?|rmi|jndi):\/\/`,
  ].join('|'),
  'i',
);

/** PHP/JS function names that no honest text calls, even with a space before the bracket. */
const DISTINCT_FUNCTIONS = [
  'base64_decode',
  'shell_exec',
  'passthru',
  'phpinfo',
  'proc_open',
  'popen',
  'pcntl_exec',
  'create_function',
  'call_user_func',
  'call_user_func_array',
  'preg_replace',
  'file_get_contents',
  'file_put_contents',
  'fsockopen',
  'pfsockopen',
  'show_source',
  'highlight_file',
  'gzinflate',
  'gzuncompress',
  'gzdecode',
  'str_rot13',
  'unserialize',
  'phpversion',
  'assert_options',
  'ini_set',
  'move_uploaded_file',
  'readfile',
  'fpassthru',
  'escapeshellcmd',
  'escapeshellarg',
  'posix_[a-z_]+',
  'array_map',
  'array_filter',
  'usort',
  'uasort',
  'uksort',
  'register_shutdown_function',
  'register_tick_function',
  'extract',
  'parse_str',
  'putenv',
  'dl',
  'mb_ereg_replace',
  '__import__',
  'fromcharcode',
  'settimeout',
  'setinterval',
  'execscript',
  'getruntime',
  'processbuilder',
];

/** Names that are also ordinary words (eval in evaluation, system, include): only as a call. */
const WORD_FUNCTIONS = [
  'eval',
  'assert',
  'system',
  'exec',
  'include',
  'include_once',
  'require',
  'require_once',
  'fopen',
  'fwrite',
  'alert',
  'prompt',
  'confirm',
  'print_r',
  'var_dump',
  'expression',
  'atob',
  'chr',
  'exit',
  'die',
];

const SCRIPT_FUNCTION_RE = new RegExp(
  [
    String.raw`(?<![a-z0-9_$])(?:${DISTINCT_FUNCTIONS.join('|')})\s*\(`,
    // eval( / alert`1` directly, or with a space when the argument starts like code: eval ('…'), system ("id")
    String.raw`(?<![a-z0-9_$])(?:${WORD_FUNCTIONS.join('|')})(?:\(|\x60|\s+\(\s*['"\x60$])`,
    String.raw`document\s*\.\s*(?:cookie|domain|write)|window\s*\.\s*location|\.innerhtml\s*=|string\s*\.\s*fromcharcode`,
    String.raw`child_process|process\s*\.\s*(?:mainmodule|binding)|runtime\s*\.\s*getruntime`,
  ].join('|'),
  'i',
);

/**
 * Server-side code that is not a call: PHP/ASP code tags, template / expression-language / JNDI
 * injection (`${jndi:ldap://…}`, `{{7*7}}`), shell substitution and PHP stream wrappers. Checked
 * before the scheme rule so that `${jndi:ldap://…}` reports script-function.
 */
const SERVER_CODE_RE = new RegExp(
  [
    String.raw`<\?(?:php|=)|<%[=@]`,
    // Server-side includes (`<!--#exec cmd=…-->`, `<!--#include virtual=…-->`) and edge-side
    // includes (`<esi:include src=…>`, `$(HTTP_COOKIE)`): the web server or CDN runs them when
    // the text comes back in a page.
    String.raw`<!--\s*#\s*(?:exec|include|echo|config|fsize|flastmod|printenv|set|if|elif|else|endif)(?![a-z0-9_])`,
    String.raw`#\s*(?:exec\s+(?:cmd|cgi)|include\s+(?:virtual|file)|echo\s+var|config\s+(?:errmsg|timefmt|sizefmt)|fsize\s+(?:virtual|file)|flastmod\s+(?:virtual|file)|set\s+var)\s*=`,
    String.raw`<\s*\/?\s*esi:[a-z]|<!--\s*esi(?![a-z0-9_])`,
    String.raw`\$\(\s*(?:http_[a-z_]+|query_string|remote_addr)\s*[{)]`,
    String.raw`[$#]\{\s*[a-z0-9_:(\[{$#'"]`,
    String.raw`\{\{[^}]*\}\}|\{%[^%]*%\}`,
    String.raw`\$\(\s*(?:id|whoami|uname|cat|ls|wget|curl|sleep|nslookup|ping)(?![a-z0-9_])`,
    String.raw`(?<![a-z0-9_.+-])(?:php|phar|expect|zip|zlib|glob|compress\.zlib|compress\.bzip2|ogg|rar|ssh2(?:\.[a-z]+)?):\/\/`,
  ].join('|'),
  'i',
);

/** In priority order: the first kind any decoded form matches is reported. */
const RULES: ReadonlyArray<readonly [InjectionKind, RegExp]> = [
  ['traversal', TRAVERSAL_RE],
  ['system-path', SYSTEM_PATH_RE],
  ['script-function', SERVER_CODE_RE],
  ['script-tag', SCRIPT_TAG_RE],
  ['event-handler', EVENT_HANDLER_RE],
  ['scheme', SCHEME_RE],
  ['script-function', SCRIPT_FUNCTION_RE],
  ['script-tag', ACTIVE_TAG_RE],
];

// ---------------------------------------------------------------------------------------------
// Decoding. Nothing here throws, whatever the input.

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  const lower = code | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87; // a-f
  return -1;
}

function byteEscape(byte: number): string {
  return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** What decoding noticed on the way (set, never cleared, by the decoders below). */
interface DecodeNotes {
  /** A dot, slash or backslash spelt as overlong or invalid UTF-8. */
  disguisedPathChar: boolean;
}

const isPathChar = (cp: number) => cp === 0x2e || cp === 0x2f || cp === 0x5c;
/** The smallest code point each sequence length may carry; below it the form is overlong. */
const MIN_CODE_POINT = [0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000];

/**
 * Lenient UTF-8: accepts overlong forms (`%c0%ae` is '.', `%c0%af` is '/', `%e0%80%ae` is '.'),
 * as old servers did, and IIS's reading of a two-byte lead before a byte that does not continue
 * it (`%c1%1c` is '\\', `%c0%2f` is '/') where that gives a dot or a slash; bytes that form no
 * character stay as their `%XX` escape (cp1251 text).
 */
function decodeUtf8Bytes(bytes: number[], notes: DecodeNotes): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      out += String.fromCharCode(lead);
      i++;
      continue;
    }
    let need: number;
    let cp: number;
    if (lead >= 0xc0 && lead < 0xe0) [need, cp] = [1, lead & 0x1f];
    else if (lead >= 0xe0 && lead < 0xf0) [need, cp] = [2, lead & 0x0f];
    else if (lead >= 0xf0 && lead < 0xf8) [need, cp] = [3, lead & 0x07];
    else if (lead >= 0xf8 && lead < 0xfc) [need, cp] = [4, lead & 0x03];
    else if (lead >= 0xfc && lead < 0xfe) [need, cp] = [5, lead & 0x01];
    else {
      out += byteEscape(lead);
      i++;
      continue;
    }
    let ok = i + need < bytes.length;
    for (let k = 1; ok && k <= need; k++) {
      const cont = bytes[i + k]!;
      if ((cont & 0xc0) !== 0x80) ok = false;
      else cp = cp * 64 + (cont & 0x3f);
    }
    if (ok && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) {
      if (cp < MIN_CODE_POINT[need]! && isPathChar(cp)) notes.disguisedPathChar = true;
      out += String.fromCodePoint(cp);
      i += need + 1;
      continue;
    }
    // IIS: 0xC0/0xC1 and an ASCII byte, its top bits ignored. Only a dot or slash counts: other
    // pairs may be cp1251 text.
    const next = bytes[i + 1];
    if (lead <= 0xc1 && next !== undefined && next < 0x80) {
      const iis = ((lead & 0x01) << 6) | (next & 0x3f);
      if (isPathChar(iis)) {
        notes.disguisedPathChar = true;
        out += String.fromCharCode(iis);
        i += 2;
        continue;
      }
    }
    out += byteEscape(lead);
    i++;
  }
  return out;
}

/** One round of percent-decoding (`%XX` runs as UTF-8, IIS `%uXXXX`); stray `%` stays as it is. */
function percentDecode(input: string, plusAsSpace: boolean, notes: DecodeNotes): string {
  const s = plusAsSpace ? input.replace(/\+/g, ' ') : input;
  if (!s.includes('%')) return s;
  let out = '';
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length > 0) {
      out += decodeUtf8Bytes(bytes, notes);
      bytes = [];
    }
  };
  let i = 0;
  while (i < s.length) {
    const ch = s.charCodeAt(i);
    if (ch === 37 /* % */) {
      const next = s.charCodeAt(i + 1);
      if ((next | 0x20) === 117 /* u */) {
        const h1 = hexValue(s.charCodeAt(i + 2));
        const h2 = hexValue(s.charCodeAt(i + 3));
        const h3 = hexValue(s.charCodeAt(i + 4));
        const h4 = hexValue(s.charCodeAt(i + 5));
        if (h1 >= 0 && h2 >= 0 && h3 >= 0 && h4 >= 0) {
          flush();
          out += String.fromCharCode(h1 * 4096 + h2 * 256 + h3 * 16 + h4);
          i += 6;
          continue;
        }
      } else {
        const hi = hexValue(next);
        const lo = hexValue(s.charCodeAt(i + 2));
        if (hi >= 0 && lo >= 0) {
          bytes.push(hi * 16 + lo);
          i += 3;
          continue;
        }
      }
    }
    flush();
    out += s[i];
    i++;
  }
  flush();
  return out;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
  colon: ':',
  semi: ';',
  tab: '\t',
  newline: '\n',
  nbsp: ' ',
  lpar: '(',
  rpar: ')',
  sol: '/',
  bsol: '\\',
  period: '.',
  equals: '=',
  num: '#',
  excl: '!',
  quest: '?',
  comma: ',',
  dollar: '$',
  percnt: '%',
  plus: '+',
  lcub: '{',
  rcub: '}',
  lbrace: '{',
  rbrace: '}',
  lsqb: '[',
  rsqb: ']',
  lbrack: '[',
  rbrack: ']',
  grave: '`',
  ast: '*',
  midast: '*',
  lowbar: '_',
  verbar: '|',
  vert: '|',
  hat: '^',
  commat: '@',
  dash: '-',
  hyphen: '-',
  minus: '-',
};

/**
 * `&#60;` `&#x3c;` (`;` optional, leading zeros allowed: `&#0000106`), named entities with `;`,
 * and the legacy `&lt` `&gt` `&amp` `&quot` without `;` when no letter or digit follows.
 */
const ENTITY_RE = /&(?:#x([0-9a-f]{1,8});?|#([0-9]{1,10});?|([a-z]{2,12});|(lt|gt|amp|quot)(?![a-z0-9]))/gi;

function decodeEntities(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(
    ENTITY_RE,
    (match, hex: string | undefined, dec: string | undefined, name: string | undefined, legacy: string | undefined) => {
      if (hex !== undefined || dec !== undefined) {
        const cp = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
        return cp <= 0x10ffff ? String.fromCodePoint(cp) : match;
      }
      return NAMED_ENTITIES[(name ?? legacy ?? '').toLowerCase()] ?? match;
    },
  );
}

// eslint-disable-next-line no-control-regex
const ASCII_ONLY_RE = /^[\x00-\x7f]*$/;
/** Slash look-alikes NFKC leaves alone (`%u2215` is a classic traversal trick). */
const SLASH_LOOKALIKE_RE = /[\u2215\u2044\u29f8]/g;
const BACKSLASH_LOOKALIKE_RE = /[\u2216\u29f5\u29f9]/g;

function normalise(s: string): string {
  if (ASCII_ONLY_RE.test(s)) return s;
  return s.normalize('NFKC').replace(SLASH_LOOKALIKE_RE, '/').replace(BACKSLASH_LOOKALIKE_RE, '\\');
}

function decodeRound(s: string, plusAsSpace: boolean, notes: DecodeNotes): string {
  return normalise(decodeEntities(percentDecode(s, plusAsSpace, notes)));
}

/** Adds the raw string and each further decoding of it, stopping once nothing changes. */
function addDecodings(raw: string, plusAsSpace: boolean, into: Set<string>, notes: DecodeNotes): void {
  if (raw === '') return;
  into.add(raw);
  let current = raw;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    // '+' is a space only in the query as received; a decoded %2B is a real plus.
    const next = decodeRound(current, plusAsSpace && round === 0, notes);
    if (next === current) break;
    into.add(next);
    current = next;
  }
}

// eslint-disable-next-line no-control-regex
const NUL_RE = /\x00/g;
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\x01-\x1f\x7f-\x9f]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_OR_NUL_RE = /[\x00-\x1f\x7f-\x9f]/g;
const INVISIBLE_RE = /[\u00ad\u200b-\u200f\u2060\ufeff]/g;
// eslint-disable-next-line no-control-regex
const HAS_SPECIAL_RE = /[\x00-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u2060\ufeff]/;
const COMMENT_RE = /\/\*[\s\S]*?\*\//g;
/** `/./` steps, which hide system paths (`/etc/./passwd`). */
const DOT_SEGMENT_RE = /[\\/]\.[\\/]/;
const DOT_SEGMENTS_RE = /([\\/])(?:\.[\\/])+/g;
const JS_ESCAPE_RE = /\\(?:x([0-9a-f]{2})|u\{([0-9a-f]{1,6})\}|u([0-9a-f]{4}))/gi;

function unescapeJs(s: string): string {
  return s.replace(JS_ESCAPE_RE, (match, x: string | undefined, braced: string | undefined, u: string | undefined) => {
    const cp = parseInt(x ?? braced ?? u ?? '', 16);
    return cp <= 0x10ffff ? String.fromCodePoint(cp) : match;
  });
}

/** The spellings of one decoded form that the rules are run on. */
function addSpellings(s: string, into: string[]): void {
  let spaced = s;
  let joined = s;
  if (HAS_SPECIAL_RE.test(s)) {
    // Null bytes and invisible characters vanish; other controls either separate or vanish.
    const cleaned = s.replace(NUL_RE, '').replace(INVISIBLE_RE, '');
    spaced = cleaned.replace(CONTROL_RE, ' ');
    joined = cleaned.replace(CONTROL_OR_NUL_RE, '');
  }
  into.push(spaced);
  if (joined !== spaced) into.push(joined);
  if (joined.includes('/*')) into.push(joined.replace(COMMENT_RE, ''));
  if (DOT_SEGMENT_RE.test(joined)) into.push(joined.replace(DOT_SEGMENTS_RE, '$1'));
  if (joined.includes('\\')) {
    const unescaped = unescapeJs(joined);
    if (unescaped !== joined) into.push(unescaped);
  }
}

/**
 * rawTarget is the request target exactly as received: path plus optional "?query", still
 * percent-encoded. Returns what was found, or null for an honest request.
 */
export function findInjection(rawTarget: string): InjectionKind | null {
  if (typeof rawTarget !== 'string' || rawTarget === '') return null;
  const q = rawTarget.indexOf('?');
  const path = q < 0 ? rawTarget : rawTarget.slice(0, q);
  const query = q < 0 ? '' : rawTarget.slice(q + 1);

  const forms = new Set<string>();
  const notes: DecodeNotes = { disguisedPathChar: false };
  addDecodings(path, false, forms, notes);
  if (query !== '') {
    addDecodings(query, true, forms, notes);
    if (query.includes('&') || query.includes('=')) {
      for (const pair of query.split('&')) {
        const eq = pair.indexOf('=');
        if (eq < 0) {
          addDecodings(pair, true, forms, notes);
        } else {
          addDecodings(pair.slice(0, eq), true, forms, notes);
          addDecodings(pair.slice(eq + 1), true, forms, notes);
        }
      }
    }
  }

  const spellings: string[] = [];
  for (const form of forms) addSpellings(form, spellings);

  for (const [kind, re] of RULES) {
    for (const s of spellings) if (re.test(s)) return kind;
  }
  // Nothing else found (`/etc/passwd` behind `%c0%af` stays a system path): still no honest form.
  if (notes.disguisedPathChar) return 'traversal';
  return null;
}
