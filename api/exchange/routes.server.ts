import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database } from '~/db/client.server';
import type { SmsGateway } from '~/integrations/sms/sms';
import { defineRoute } from '~/api/route.server';
import { answerText, EXCHANGE_COOKIE, safeExchangeName, type ExchangeAnswer } from '~/core/commerceml';
import { readCookie } from '~/shared/cookies';
import {
  exchangeLogin,
  exchangeSession,
  importStep,
  initExchangeDir,
  saleQuery,
  saleSuccess,
  sessionDir,
  unpackSessionArchives,
  type ExchangeSession,
} from '~/models/exchange.server';
import type { UnzipLimits } from '~/models/exchange-zip.server';
import { sendBackInStock } from '~/models/stock.server';

// The 1C exchange endpoint (issue #31, docs/exchange-1c.md): CommerceML 2 over HTTP as 1C's
// "обмен с сайтом" speaks it. 1C starts every call with ?type=…&mode=…; the answer is plain text
// whose first line is success, progress or failure. One handler serves our path
// (/backend/1c/exchange) and the legacy 1C-Bitrix one (/bitrix/admin/1c_exchange.php), so a shop
// moving from Bitrix only changes the address in 1C. State lives in the database and
// DATA_DIR/exchange: any process answers any call of a session.

export interface ExchangeOptions {
  /** DATA_DIR/exchange: one folder per session. */
  root: string;
  /** The largest piece 1C may POST at once (mode=init's file_limit). */
  fileLimit: number;
  /** The largest file 1C may send in all (its pieces appended). */
  maxFileBytes: number;
  /** Items applied by one mode=import call. */
  stepItems: number;
  /** mode=init answers zip=yes: 1C sends its files as one archive, unpacked on the first mode=import. */
  zip: boolean;
  unzip: UnzipLimits;
  /** DATA_DIR/media: 1C's pictures go there (products/1c/<random>.jpg). */
  mediaRoot: string;
  maxPictureBytes: number;
}

export interface ExchangeRouteDeps {
  db: Database;
  sms: SmsGateway;
  siteUrl: string;
  exchange: ExchangeOptions;
  /** The path of this registration: '/1c/exchange' under the API, or the legacy Bitrix path at the root. */
  url: string;
  /** The legacy path is kept out of the OpenAPI document (it is the same endpoint). */
  hidden?: boolean;
  now?: () => Date;
}

const Query = z.object({
  type: z.string().max(40).optional().describe('catalog (the catalogue from 1C) or sale (orders to 1C)'),
  mode: z
    .string()
    .max(40)
    .optional()
    .describe('checkauth, init, file, import, query, success (deactivate and complete answer success)'),
  filename: z.string().max(400).optional().describe('mode=file and mode=import: the file, e.g. import.xml'),
  version: z.string().max(40).optional().describe('The schema version 1C speaks (type=sale&mode=init)'),
});

const ANSWER = {
  200: {
    description:
      'Plain text: success, progress or failure on the first line; what follows is for 1C (cookie, limits) or its operator (the reason)',
    contentType: 'text/plain',
  },
} as const;

function send(reply: FastifyReply, answer: ExchangeAnswer | string, status = 200): FastifyReply {
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(typeof answer === 'string' ? answer : answerText(answer));
}

const failure = (reason: string): ExchangeAnswer => ({ kind: 'failure', lines: [reason] });

function basicCredentials(req: FastifyRequest): { login: string; password: string } | null {
  const header = req.headers.authorization ?? '';
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return null;
  return { login: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

/**
 * Counts the bytes of a piece; past `limit` (the file's total cap) it passes nothing more but
 * reads the rest of the body (an answer sent before the body is read can hang the client's
 * connection), and says so in `over`.
 */
function capped(limit: number): Transform & { over: boolean } {
  let seen = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) {
        t.over = true;
        done();
      } else done(null, chunk);
    },
  }) as Transform & { over: boolean };
  t.over = false;
  return t;
}

export async function exchangeRoutes(app: FastifyInstance, deps: ExchangeRouteDeps): Promise<void> {
  const { db, exchange } = deps;
  const now = deps.now ?? (() => new Date());
  // mode=file's body is the file itself (any content type, or none): read as a stream, never whole.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  const sessionOf = async (req: FastifyRequest): Promise<ExchangeSession | null> => {
    const header = req.headers.cookie;
    const token = readCookie(Array.isArray(header) ? header.join('; ') : header, EXCHANGE_COOKIE);
    if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
    return exchangeSession({ db, token, now: now() });
  };

  defineRoute(app, {
    method: ['GET', 'POST'],
    url: deps.url,
    ...(deps.hidden ? { hidden: true } : {}),
    tags: ['1C exchange'],
    summary: '1C exchange (CommerceML 2): catalogue and stock from 1C, orders to 1C',
    description:
      'Called by 1C (УТ 11, Розница, УНФ, МойСклад) as its «обмен с сайтом». mode=checkauth takes HTTP Basic of a staff account of role exchange and answers the cookie 1C sends on later calls. Also at /bitrix/admin/1c_exchange.php. docs/exchange-1c.md.',
    query: Query,
    responses: ANSWER,
    handler: async ({ query }, req, reply) => {
      const type = query.type ?? '';
      const mode = query.mode ?? '';
      if (type !== 'catalog' && type !== 'sale')
        return send(reply, failure(`Тип обмена «${type}» не поддерживается: нужен catalog или sale`));

      if (mode === 'checkauth') {
        const credentials = basicCredentials(req);
        if (!credentials) {
          void reply.header('www-authenticate', 'Basic realm="1C exchange", charset="UTF-8"');
          return send(reply, failure('Нужны логин и пароль (HTTP Basic) учётной записи обмена'), 401);
        }
        const login = await exchangeLogin({
          db,
          email: credentials.login,
          password: credentials.password,
          type,
          ip: req.ip,
          now: now(),
        });
        if (!login.ok) {
          req.log.warn({ exchange: 'checkauth', reason: login.reason, ip: req.ip }, '1C exchange: login refused');
          if (login.reason === 'capped')
            return send(reply, failure(`Слишком много неудачных попыток. Повторите через ${login.retryAfter} с`), 429);
          return send(reply, failure('Неверный логин или пароль, или учётная запись не для обмена с 1С'), 401);
        }
        req.log.info({ exchange: 'checkauth', type, sessionId: login.sessionId }, '1C exchange: session opened');
        return send(reply, {
          kind: 'success',
          lines: [EXCHANGE_COOKIE, login.token, `timestamp=${Math.floor(now().getTime() / 1000)}`],
        });
      }

      const session = await sessionOf(req);
      if (!session) return send(reply, failure('Сеанс обмена не найден или истёк: начните с mode=checkauth'), 401);

      if (mode === 'init') {
        await initExchangeDir(exchange.root, session.id);
        return send(
          reply,
          [
            `zip=${exchange.zip ? 'yes' : 'no'}`,
            `file_limit=${exchange.fileLimit}`,
            ...(type === 'sale' ? ['version=2.08'] : []),
          ].join('\n'),
        );
      }

      if (mode === 'file') {
        if (req.method !== 'POST') return send(reply, failure('mode=file ждёт файл методом POST'));
        const name = safeExchangeName(query.filename ?? '');
        if (!name) return send(reply, failure(`Недопустимое имя файла «${query.filename ?? ''}»`));
        const dir = sessionDir(exchange.root, session.id);
        const target = path.join(dir, name);
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        const size = (await fs.promises.stat(target).catch(() => null))?.size ?? 0;
        const body = req.body as Readable | undefined;
        if (!body || typeof (body as Readable).pipe !== 'function') return send(reply, { kind: 'success' });
        const counter = capped(exchange.maxFileBytes - size);
        await pipeline(body, counter, fs.createWriteStream(target, { flags: 'a' }));
        if (counter.over) {
          req.log.warn({ exchange: 'file', file: name }, '1C exchange: file too large');
          // What was appended of this piece goes: the file stays as it was before it.
          await fs.promises.truncate(target, size);
          return send(
            reply,
            failure(`Файл ${name} больше допустимого (${Math.round(exchange.maxFileBytes / 1048576)} МБ)`),
          );
        }
        return send(reply, { kind: 'success' });
      }

      if (mode === 'import') {
        const name = safeExchangeName(query.filename ?? '');
        if (!name) return send(reply, failure(`Недопустимое имя файла «${query.filename ?? ''}»`));
        // An archive 1C sent (zip=yes) is unpacked by the first mode=import call, which answers progress.
        const unpacked = await unpackSessionArchives({
          db,
          exchangeRoot: exchange.root,
          session,
          limits: exchange.unzip,
          now: now(),
        });
        if (unpacked) {
          if (unpacked.kind === 'failure')
            req.log.warn({ exchange: 'unzip', reason: unpacked.lines }, '1C exchange: archive refused');
          return send(reply, unpacked);
        }
        if (!/\.xml$/i.test(name)) return send(reply, { kind: 'success' });
        const result = await importStep({
          db,
          exchangeRoot: exchange.root,
          // The call's type says what the file is: a catalogue (type=catalog) or 1C's orders (type=sale).
          session: { ...session, type },
          filename: name,
          stepItems: exchange.stepItems,
          mediaRoot: exchange.mediaRoot,
          maxPictureBytes: exchange.maxPictureBytes,
          ip: req.ip,
          requestId: String(req.id),
          now: now(),
        });
        if (result.answer.kind === 'failure')
          req.log.warn({ exchange: 'import', file: name, reason: result.answer.lines }, '1C exchange: import refused');
        if (result.notices.length > 0)
          await sendBackInStock({ db, sms: deps.sms, log: req.log, siteUrl: deps.siteUrl, notices: result.notices });
        return send(reply, result.answer);
      }

      if (mode === 'query' && type === 'sale') {
        const xml = await saleQuery({ db, session });
        return reply.header('cache-control', 'no-store').type('application/xml; charset=utf-8').send(xml);
      }
      if (mode === 'success' && type === 'sale') {
        const confirmed = await saleSuccess({ db, session });
        req.log.info({ exchange: 'sale', confirmed }, '1C exchange: order export confirmed');
        return send(reply, { kind: 'success' });
      }
      if (mode === 'deactivate' || mode === 'complete') return send(reply, { kind: 'success' });
      return send(reply, failure(`Режим «${mode}» не поддерживается`));
    },
  });
}
