// Text that may reach the database (issue #27): PostgreSQL refuses a NUL byte in text and an
// unpaired surrogate escape in jsonb, and no field of the shop has a use for other control
// characters. Tabs and line breaks stay (comments and addresses are typed in text areas).

/** A control character other than tab and line breaks, or half of a surrogate pair. */
const REFUSED =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const CONTROL_CHARACTER_ERROR = 'недопустимые символы';

export function hasRefusedCharacter(text: string): boolean {
  return REFUSED.test(text);
}

const REFUSED_ALL = new RegExp(REFUSED.source, 'g');

/** The text with each refused character made a space: for a search box, where such a character means nothing and refusing the page helps nobody. */
export function withoutRefusedCharacters(text: string): string {
  return text.replace(REFUSED_ALL, ' ');
}

/**
 * Where in a parsed query or body (strings, arrays, plain objects, keys included) the first
 * refused character is: its path, or null when there is none. Deeper than `maxDepth` is not
 * looked at (the form parser stops at 5 levels, JSON bodies are capped by size).
 */
export function findRefusedText(
  value: unknown,
  path: (string | number)[] = [],
  maxDepth = 32,
): (string | number)[] | null {
  if (typeof value === 'string') return hasRefusedCharacter(value) ? path : null;
  if (value === null || typeof value !== 'object' || path.length >= maxDepth) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findRefusedText(value[i], [...path, i], maxDepth);
      if (found) return found;
    }
    return null;
  }
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (hasRefusedCharacter(key)) return [...path, key];
    const found = findRefusedText(inner, [...path, key], maxDepth);
    if (found) return found;
  }
  return null;
}
