import type { FastifyReply, FastifyRequest } from 'fastify';
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router';
import { hasRefusedCharacter } from '~/core/input-text';

// One guard in front of every storefront action (issue #27, docs/hardening.md). Every action
// reads a form (request.formData()), so what is not a form, a method no route answers, or a
// request from another site never reaches a route: it gets a short Russian answer (a page for
// a person, JSON for the shop's own scripts) and a warning in the log, never a 500.
//
// Runs in the pages' preHandler (the body is a buffer by then, see server/app.server.ts).

/** What the guard says, per refusal. */
export const ACTION_GUARD_TEXT = {
  method: {
    title: 'Такой запрос здесь не принимается',
    text: 'Эта страница не принимает такой запрос. Откройте её заново и повторите действие.',
  },
  form: {
    title: 'Форма пришла в неверном виде',
    text: 'Мы не смогли прочитать отправленную форму. Обновите страницу и отправьте её ещё раз.',
  },
  origin: {
    title: 'Запрос пришёл с другого сайта',
    text: 'Из соображений безопасности действие не выполнено. Откройте страницу магазина и повторите его там.',
  },
} as const;

type Refusal = keyof typeof ACTION_GUARD_TEXT;

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data']);

interface RouteInfo {
  hasAction: boolean;
  /** A resource route (no component): its callers are scripts that read JSON. */
  resource: boolean;
}

interface MatchableRoute {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children: MatchableRoute[];
}

/** The build's route tree, as matchRoutes takes it. */
function routeTree(build: ServerBuild): MatchableRoute[] {
  const byId = new Map<string, MatchableRoute>();
  for (const r of Object.values(build.routes)) {
    if (!r) continue;
    byId.set(r.id, {
      id: r.id,
      ...(r.path !== undefined ? { path: r.path } : {}),
      ...(r.index ? { index: true } : {}),
      caseSensitive: r.caseSensitive,
      children: [],
    });
  }
  const roots: MatchableRoute[] = [];
  for (const r of Object.values(build.routes)) {
    if (!r) continue;
    const node = byId.get(r.id) as MatchableRoute;
    const parent = r.parentId ? byId.get(r.parentId) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** The route path a request addresses: single-fetch's `.data` suffix and a trailing slash taken off, as React Router does. */
export function routePathOf(pathname: string): { path: string; data: boolean } {
  if (pathname === '/_root.data') return { path: '/', data: true };
  const data = pathname.endsWith('.data');
  let path = data ? pathname.slice(0, -'.data'.length) : pathname;
  if (path !== '/' && path.endsWith('/')) path = path.slice(0, -1);
  return { path: path || '/', data };
}

/**
 * React Router's own rule for actions (lib/actions.ts, throwIfPotentialCSRFAttack), for every
 * action including resource routes, which React Router does not check: an Origin header that is
 * there must be this request's origin, the shop's public origin, or one the build allows.
 * Without Origin, a browser's Sec-Fetch-Site saying "cross-site" is refused too.
 */
export function isSameOriginAction(input: {
  origin: string | undefined;
  fetchSite: string | undefined;
  requestOrigin: string;
  siteOrigin: string | null;
  allowed: readonly string[];
}): boolean {
  const { origin } = input;
  if (origin === undefined || origin === '') return input.fetchSite !== 'cross-site';
  if (origin === 'null') return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin === input.requestOrigin || (input.siteOrigin !== null && url.origin === input.siteOrigin)) return true;
  return input.allowed.some((pattern) => pattern === url.host || matchWildcardDomain(url.host, pattern));
}

/** React Router's wildcard rule for allowedActionOrigins ('*.example.com', '**.example.com'). */
function matchWildcardDomain(domain: string, pattern: string): boolean {
  const domainParts = domain.split('.');
  const patternParts = pattern.split('.');
  if (domainParts.length < patternParts.length) return false;
  while (patternParts.length) {
    const p = patternParts.pop();
    const d = domainParts.pop();
    if (p === '') return false;
    if (p === '*') {
      if (!d) return false;
      continue;
    }
    if (p === '**') return patternParts.length === 0 && d !== undefined;
    if (d !== p) return false;
  }
  return domainParts.length === 0;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}

/** The short page a person sees: standalone, no scripts, so it cannot fail in turn. */
export function refusalPage(refusal: Refusal): string {
  const { title, text } = ACTION_GUARD_TEXT[refusal];
  return (
    `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)} — Vitrina</title>` +
    `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:12vh auto;padding:0 1.25rem;color:#1a1a1a}a{color:inherit}</style></head>` +
    `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p><p><a href="/">На главную</a></p></body></html>`
  );
}

/** The body as the Fetch API reads a form (what every action does first), or null when it cannot. */
async function readForm(contentType: string, body: Buffer | undefined): Promise<FormData | null> {
  try {
    return await new Response(body && body.length ? new Uint8Array(body) : null, {
      headers: { 'content-type': contentType },
    }).formData();
  } catch {
    return null;
  }
}

/** The first field whose name or text has a character no field of the shop takes (core/input-text.ts). */
function refusedField(form: FormData): string | null {
  for (const [name, value] of form)
    if (hasRefusedCharacter(name) || (typeof value === 'string' && hasRefusedCharacter(value))) return name;
  return null;
}

export interface ActionGuardOptions {
  /** The shop's public address (PUBLIC_SITE_URL): behind a proxy the request's own origin may differ. */
  siteUrl: string;
}

export function createActionGuard(build: ServerBuild, { siteUrl }: ActionGuardOptions) {
  const tree = routeTree(build);
  const info = new Map<string, RouteInfo>();
  for (const r of Object.values(build.routes)) {
    if (!r) continue;
    info.set(r.id, {
      hasAction: typeof r.module.action === 'function',
      resource: typeof r.module.default !== 'function',
    });
  }
  let siteOrigin: string | null = null;
  try {
    siteOrigin = new URL(siteUrl).origin;
  } catch {
    siteOrigin = null;
  }
  const allowed = Array.isArray(build.allowedActionOrigins) ? build.allowedActionOrigins : [];

  /** The route whose action a request to this address runs (the deepest match; an index route only with ?index). */
  function target(pathname: string, search: string): RouteInfo | null {
    // An index route never has children: the shapes agree, only the type's union cannot see it.
    const matches = matchRoutes(tree as unknown as RouteObject[], pathname, build.basename) ?? [];
    let last = matches.at(-1);
    if (last?.route.index && !new URLSearchParams(search).has('index')) last = matches.at(-2);
    return last?.route.id ? (info.get(last.route.id) ?? null) : null;
  }

  return async function actionGuard(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (req.method === 'GET' || req.method === 'HEAD') return;
    const q = req.url.indexOf('?');
    const rawPath = q === -1 ? req.url : req.url.slice(0, q);
    const search = q === -1 ? '' : req.url.slice(q);
    let pathname: string;
    try {
      pathname = decodeURI(rawPath);
    } catch {
      pathname = rawPath;
    }
    const { path, data } = routePathOf(pathname);
    const route = target(path, search);
    const json = data || route?.resource === true || !String(req.headers.accept ?? '').includes('text/html');

    const refuse = (status: number, refusal: Refusal, why: string, headers: Record<string, string> = {}) => {
      req.log.warn({ method: req.method, path: rawPath.slice(0, 300), status, why }, 'storefront action refused');
      void reply.code(status).headers({ 'cache-control': 'no-store', ...headers });
      if (json) return reply.type('application/json; charset=utf-8').send({ error: ACTION_GUARD_TEXT[refusal].text });
      return reply.type('text/html; charset=utf-8').send(refusalPage(refusal));
    };

    // Every action of the shop is a POST: other methods, and a POST where no action is, are 405.
    if (!route?.hasAction) return refuse(405, 'method', 'no action here', { allow: 'GET, HEAD' });
    if (req.method !== 'POST') return refuse(405, 'method', 'method', { allow: 'GET, HEAD, POST' });

    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    const fetchSite = typeof req.headers['sec-fetch-site'] === 'string' ? req.headers['sec-fetch-site'] : undefined;
    if (!isSameOriginAction({ origin, fetchSite, requestOrigin: `${req.protocol}://${req.host}`, siteOrigin, allowed }))
      return refuse(403, 'origin', `cross-site: ${String(origin ?? fetchSite).slice(0, 200)}`);

    const contentType = String(req.headers['content-type'] ?? '');
    const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (!FORM_TYPES.has(mediaType)) return refuse(415, 'form', `content-type: ${contentType.slice(0, 100) || 'none'}`);
    const form = await readForm(contentType, Buffer.isBuffer(req.body) ? req.body : undefined);
    if (!form) return refuse(400, 'form', 'unreadable form');
    // Control characters (a NUL PostgreSQL refuses) stop here, as they do at the API's edge: no
    // person types them, and an action would only pass them on to an API that refuses them.
    const field = refusedField(form);
    if (field !== null) return refuse(400, 'form', `control character in «${field.slice(0, 50)}»`);
  };
}
