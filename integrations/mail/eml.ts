// A small reader of RFC 5322 messages as nodemailer writes them (headers with RFC 2047
// encoded words, multipart/alternative, base64 or quoted-printable parts): enough for the
// outbox reader and for tests to read back what was sent. Not a general MIME parser.

export interface ParsedMail {
  /** Header names lower-cased; values unfolded and decoded. The first of repeated headers. */
  headers: Record<string, string>;
  from: string;
  /** The bare address of the first recipient. */
  to: string;
  subject: string;
  /** The text/plain part, line breaks as \n. */
  text: string;
  /** The text/html part, or null. */
  html: string | null;
}

function splitHead(raw: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { head: raw, body: '' };
  return { head: raw.slice(0, match.index), body: raw.slice(match.index + match[0].length) };
}

function decodeBytes(bytes: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset.toLowerCase() || 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function decodeQuotedPrintable(text: string, underscoreIsSpace = false): Uint8Array {
  const source = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    const hex = source.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (ch === '_' && underscoreIsSpace) {
      bytes.push(0x20);
    } else {
      // Bodies arrive as latin1 (one char a byte); header words are ASCII.
      const code = ch.charCodeAt(0);
      if (code < 256) bytes.push(code);
      else for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
    }
  }
  return Uint8Array.from(bytes);
}

/** RFC 2047: `=?UTF-8?B?...?=` and `=?UTF-8?Q?...?=`; adjacent words join without the space between. */
export function decodeEncodedWords(value: string): string {
  const word = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
  let out = '';
  let last = 0;
  // Bytes of consecutive encoded words are decoded together: a character may span two words.
  let pending: { charset: string; bytes: number[] } | null = null;
  const flush = () => {
    if (pending) out += decodeBytes(Uint8Array.from(pending.bytes), pending.charset);
    pending = null;
  };
  for (let m = word.exec(value); m; m = word.exec(value)) {
    const between = value.slice(last, m.index);
    if (!(pending && /^\s*$/.test(between))) {
      flush();
      out += between;
    }
    const charset = m[1]!.replace(/\*.*$/, '');
    const bytes = /[Bb]/.test(m[2]!) ? Buffer.from(m[3]!, 'base64') : decodeQuotedPrintable(m[3]!, true);
    const current = pending as { charset: string; bytes: number[] } | null;
    if (current && current.charset.toLowerCase() === charset.toLowerCase()) current.bytes.push(...bytes);
    else {
      flush();
      pending = { charset, bytes: [...bytes] };
    }
    last = m.index + m[0].length;
  }
  flush();
  return out + value.slice(last);
}

function parseHeaders(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const lines = head.split(/\r?\n/);
  const unfolded: string[] = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && unfolded.length > 0) unfolded[unfolded.length - 1] += line;
    else unfolded.push(line);
  }
  for (const line of unfolded) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // The head was read as latin1: raw UTF-8 in a header (SMTPUTF8) becomes text again here.
    const value = Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8');
    if (!(name in headers)) headers[name] = decodeEncodedWords(value);
  }
  return headers;
}

/** `text/plain; charset="utf-8"` → the type and its parameters. */
function parseContentType(value: string | undefined): { type: string; params: Record<string, string> } {
  const [type = 'text/plain', ...rest] = (value ?? 'text/plain').split(';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    params[part.slice(0, eq).trim().toLowerCase()] = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  return { type: type.trim().toLowerCase(), params };
}

interface Part {
  type: string;
  disposition: string;
  text: string;
}

function readParts(raw: string): { headers: Record<string, string>; parts: Part[] } {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const { type, params } = parseContentType(headers['content-type']);
  if (type.startsWith('multipart/') && params.boundary) {
    const delimiter = `--${params.boundary}`;
    const parts: Part[] = [];
    const chunks = body.split(delimiter);
    // chunks[0] is the preamble; the chunk after the closing delimiter starts with '--'.
    for (const chunk of chunks.slice(1)) {
      if (chunk.startsWith('--')) break;
      parts.push(...readParts(chunk.replace(/^\r?\n/, '').replace(/\r?\n$/, '')).parts);
    }
    return { headers, parts };
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(body)
        : Buffer.from(body, 'latin1');
  const text = decodeBytes(bytes, params.charset ?? 'utf-8').replace(/\r\n/g, '\n');
  return { headers, parts: [{ type, disposition: (headers['content-disposition'] ?? '').toLowerCase(), text }] };
}

/** The bare address of an address header: `Anna <anna@example.com>` → `anna@example.com`. */
export function bareAddress(value: string): string {
  const angle = /<([^<>]+)>/.exec(value);
  return (angle ? angle[1]! : value.split(',')[0]!).trim();
}

/** Reads one message, given as its bytes (or as text, which is taken as UTF-8). */
export function parseEml(raw: string | Buffer): ParsedMail {
  // One char a byte, so 8-bit parts keep their bytes until their charset decodes them.
  const source = (typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw).toString('latin1');
  const { headers, parts } = readParts(source);
  const inline = parts.filter((p) => !p.disposition.startsWith('attachment'));
  return {
    headers,
    from: headers.from ?? '',
    to: bareAddress(headers.to ?? ''),
    subject: headers.subject ?? '',
    text: inline.find((p) => p.type === 'text/plain')?.text ?? '',
    html: inline.find((p) => p.type === 'text/html')?.text ?? null,
  };
}
