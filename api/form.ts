// Form-encoded bodies of SPEC §7 write nested keys as a[b][c]; this turns them into objects.

export type FormValue = string | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

const MAX_DEPTH = 5;
const MAX_FIELDS = 500;

export function parseNestedForm(body: string | URLSearchParams): FormObject {
  const params = typeof body === 'string' ? new URLSearchParams(body) : body;
  const out: FormObject = Object.create(null) as FormObject;
  let count = 0;
  for (const [rawKey, value] of params) {
    if (++count > MAX_FIELDS) break;
    const path = splitKey(rawKey);
    if (!path) continue;
    let node: FormObject = out;
    for (let i = 0; i < path.length - 1; i++) {
      const k = path[i] as string;
      const next = node[k];
      if (typeof next === 'object') node = next;
      else {
        const created = Object.create(null) as FormObject;
        node[k] = created;
        node = created;
      }
    }
    node[path[path.length - 1] as string] = value;
  }
  return out;
}

function splitKey(key: string): string[] | null {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!m) return [key];
  const parts = [m[1] as string];
  for (const seg of (m[2] ?? '').matchAll(/\[([^[\]]*)\]/g)) parts.push(seg[1] ?? '');
  if (parts.length > MAX_DEPTH) return null;
  // Prototype keys must never become properties.
  if (parts.some((p) => p === '__proto__' || p === 'constructor' || p === 'prototype')) return null;
  return parts;
}
