// Shoppers' personal data never reaches the logs: SPEC §7's guest calls are GETs (fast order,
// waiting list), so their name and phone travel in the query string of the logged URL.

const PERSONAL_PARAMS = new Set(['name', 'phone', 'email', 'code', 'token', 'key']);

/** The URL with the values of personal query parameters replaced by '***'. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = key;
      try {
        decoded = decodeURIComponent(key);
      } catch {
        // a malformed key is logged as it came
      }
      return eq !== -1 && PERSONAL_PARAMS.has(decoded.toLowerCase()) ? `${key}=***` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}
