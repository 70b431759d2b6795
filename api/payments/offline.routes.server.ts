import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { formatRub } from '~/core/money';
import { parseAmount } from '~/integrations/cloudpayments/cloudpayments';
import type { NotificationKind, OfflineCloudPayments } from '~/integrations/cloudpayments/offline.server';
import { ApiError } from '~/shared/contract';
import { defineRoute, refuseWith } from '~/api/route.server';

// The offline CloudPayments (INTEGRATIONS.md §1 "Stand-in"), served by the API so the whole
// payment path runs with no internet:
// - widget.js defines `cp.CloudPayments` with the legacy `pay('charge', params, callbacks)` and
//   the current `start(params)`; it opens the payment page in an overlay frame and settles the
//   callbacks from the page's postMessage.
// - pay/ is that page: the amount, the receipt, a card field, 'Оплатить' / 'Отклонить', a
//   3-D Secure step ('0000' fails).
// - charge/ is the stand-in's processing: it signs and sends the shop's own Check, then Pay or
//   Fail notifications (offline.server.ts), exactly as CloudPayments would.

export const OFFLINE_BASE_PATH = '/api/cloudpayments/offline';
export const OFFLINE_WIDGET_PATH = `${OFFLINE_BASE_PATH}/widget.js`;
export const OFFLINE_MESSAGE_SOURCE = 'vitrina-cloudpayments-offline';

interface OfflineRouteDeps {
  stand: OfflineCloudPayments;
  notificationPath: (kind: NotificationKind) => string;
}

/** What the widget hands the page (base64url JSON in `p`): the legacy `pay()` parameters. */
const PagePayment = z.object({
  publicId: z.string().max(200),
  description: z.string().max(500).default(''),
  amount: z.union([z.number(), z.string()]),
  currency: z.string().max(3).default('RUB'),
  invoiceId: z.string().max(100).default(''),
  accountId: z.string().max(100).default(''),
  email: z.string().max(300).default(''),
  data: z.unknown().optional(),
});
type PagePayment = z.infer<typeof PagePayment>;

function readPayment(p: unknown): (PagePayment & { amountKopecks: number }) | null {
  if (typeof p !== 'string' || p.length > 60_000) return null;
  try {
    const parsed = PagePayment.safeParse(JSON.parse(Buffer.from(p, 'base64url').toString('utf8')));
    if (!parsed.success) return null;
    const amountKopecks = parseAmount(
      typeof parsed.data.amount === 'number' ? parsed.data.amount.toFixed(2) : parsed.data.amount,
    );
    return amountKopecks === null || amountKopecks <= 0 ? null : { ...parsed.data, amountKopecks };
  } catch {
    return null;
  }
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

interface ReceiptItemView {
  label?: unknown;
  quantity?: unknown;
  amount?: unknown;
}

function receiptItems(data: unknown): ReceiptItemView[] {
  const items = (data as { CloudPayments?: { CustomerReceipt?: { Items?: unknown } } } | null)?.CloudPayments
    ?.CustomerReceipt?.Items;
  return Array.isArray(items) ? (items as ReceiptItemView[]) : [];
}

const Charge = z.object({
  p: z.string().max(60_000).describe('The payment, as the page was given it'),
  action: z.enum(['pay', 'decline']),
  card: z.string().max(40).default('').describe('Card number (4012 8888 8888 1881: insufficient funds)'),
  code: z.string().max(12).default('').describe("3-D Secure code ('0000' fails)"),
});
const ChargeAnswer = z.object({
  success: z.boolean(),
  transactionId: z.string().optional(),
  reasonCode: z.number().int().optional(),
  message: z.string(),
});
const PAYMENT_REFUSED = { success: false, message: 'Неверные параметры платежа' };

/** The page's `p`: checked by the page itself (readPayment), a bad one answers the error page. */
const PayPageQuery = z.object({
  p: z.unknown().optional().meta({
    type: 'string',
    description: 'The pay() parameters as base64url JSON (publicId, description, amount, currency, invoiceId, …)',
  }),
});

// Sends a notification the stand-in sent before once more (tests, trying idempotency by hand).
const Replay = z.object({
  transactionId: z.string().regex(/^\d{1,20}$/),
  kind: z.enum(['check', 'pay', 'fail', 'refund']),
});
const NO_NOTICE = { error: 'Нет такого уведомления' };
const TAGS = ['offline stand-ins'];
const NO_STORE = { 'cache-control': 'no-store' };

export async function offlinePaymentRoutes(
  app: FastifyInstance,
  { stand, notificationPath }: OfflineRouteDeps,
): Promise<void> {
  const prefix = app.prefix;
  // The stand-in reaches the shop's notification handlers in-process: no port, no internet.
  stand.connect(async (kind, body, headers) => {
    const res = await app.inject({ method: 'POST', url: `${prefix}${notificationPath(kind)}`, headers, payload: body });
    let code: number | null = null;
    try {
      const parsed = JSON.parse(res.body) as { code?: unknown };
      code = typeof parsed.code === 'number' ? parsed.code : null;
    } catch {
      code = null;
    }
    return { status: res.statusCode, code };
  });

  defineRoute(app, {
    method: 'GET',
    url: `${OFFLINE_BASE_PATH}/widget.js`,
    summary: "Offline CloudPayments: the widget script (`cp.CloudPayments` as CloudPayments' own script defines it)",
    tags: TAGS,
    responses: {
      200: { description: 'The script', schema: z.string(), contentType: 'text/javascript; charset=utf-8' },
    },
    handler: async (_input, _req, reply) => {
      reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8');
      return widgetScript(`${prefix}${OFFLINE_BASE_PATH}/pay/`);
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: `${OFFLINE_BASE_PATH}/pay/`,
    summary: 'Offline CloudPayments: the payment page the widget opens (amount, receipt, card, 3-D Secure step)',
    tags: TAGS,
    query: PayPageQuery,
    parse: refuseWith(400, PAYMENT_REFUSED),
    responses: {
      200: { description: 'The page', schema: z.string(), contentType: 'text/html; charset=utf-8' },
      400: {
        description: 'The error page: bad payment parameters',
        schema: z.string(),
        contentType: 'text/html; charset=utf-8',
      },
    },
    handler: async ({ query }, _req, reply) => {
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      const payment = readPayment(query.p);
      if (!payment)
        return reply
          .code(400)
          .send(pageHtml({ title: 'Ошибка оплаты', body: '<p role="alert">Неверные параметры платежа.</p>' }));
      return payPage(payment, String(query.p), `${prefix}${OFFLINE_BASE_PATH}/charge/`);
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${OFFLINE_BASE_PATH}/charge/`,
    summary:
      "Offline CloudPayments: the page's pay or decline; the stand-in sends the shop's Check, then Pay or Fail, signed as CloudPayments would",
    tags: TAGS,
    bodyType: 'json',
    body: Charge,
    parse: refuseWith(400, PAYMENT_REFUSED, NO_STORE),
    responses: {
      200: { description: 'The outcome the page shows', schema: ChargeAnswer },
      400: { description: 'Bad payment parameters', schema: ChargeAnswer },
    },
    handler: async ({ body }, req, reply) => {
      reply.header('cache-control', 'no-store');
      const payment = readPayment(body.p);
      if (!payment) return reply.code(400).send(PAYMENT_REFUSED);
      const result = await stand.charge({
        invoiceId: payment.invoiceId,
        accountId: payment.accountId,
        email: payment.email,
        description: payment.description,
        amountKopecks: payment.amountKopecks,
        currency: payment.currency,
        data: payment.data ?? null,
        cardNumber: body.card || '4242424242424242',
        secureCode: body.code,
        decline: body.action === 'decline',
      });
      return result.success
        ? { success: true, transactionId: result.transactionId, message: 'Оплата прошла' }
        : {
            success: false,
            transactionId: result.transactionId,
            reasonCode: result.reasonCode,
            message: result.message,
          };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: `${OFFLINE_BASE_PATH}/replay/`,
    summary: 'Offline CloudPayments: send a notification it sent before once more (tests, idempotency by hand)',
    tags: TAGS,
    bodyType: ['json', 'form'],
    body: Replay,
    parse: refuseWith(404, NO_NOTICE, NO_STORE),
    responses: {
      200: {
        description: "The shop's answer to it: HTTP status and code",
        schema: z.object({ status: z.number().int(), code: z.number().int().nullable() }),
      },
      404: { description: 'No such notification was sent', schema: ApiError },
    },
    handler: async ({ body }, _req, reply) => {
      reply.header('cache-control', 'no-store');
      if (!stand.payment(body.transactionId)?.notices[body.kind]) return reply.code(404).send(NO_NOTICE);
      return stand.replay(body.transactionId, body.kind);
    },
  });
}

function pageHtml({ title, body, script = '' }: { title: string; body: string; script?: string }): string {
  return `<!doctype html>
<html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)}</title>
<style>
*{box-sizing:border-box}body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1d1d1b;background:#f4f2ee}
main{max-width:440px;margin:24px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 8px 30px rgba(0,0,0,.12)}
h1{font-size:20px;margin:0 0 4px}.test{display:inline-block;font-size:12px;background:#fff3c4;color:#5c4400;border-radius:4px;padding:2px 6px;margin-bottom:12px}
.amount{font-size:28px;font-weight:700;margin:8px 0 16px}table{width:100%;border-collapse:collapse;font-size:14px;margin-bottom:16px}
td{padding:4px 0;vertical-align:top}td.sum{text-align:right;white-space:nowrap;padding-left:12px}caption{text-align:left;font-weight:600;padding-bottom:4px}
label{display:block;font-weight:600;margin:12px 0 4px}input{width:100%;font:inherit;padding:10px 12px;border:1px solid #8a8a85;border-radius:8px}
input:focus-visible,button:focus-visible{outline:3px solid #1d5fd1;outline-offset:2px}.hint{font-size:13px;color:#55554f;margin:4px 0 0}
.row{display:flex;gap:12px;margin-top:20px}button{flex:1;font:inherit;font-weight:600;padding:12px;border-radius:8px;border:1px solid #1d1d1b;cursor:pointer}
.primary{background:#1d1d1b;color:#fff}.secondary{background:#fff;color:#1d1d1b}button[disabled]{opacity:.6;cursor:progress}
.framed,.framed body{background:transparent}.result{font-size:18px;font-weight:600;margin:12px 0}.ok{color:#11632c}.bad{color:#a3121f}[hidden]{display:none!important}
</style></head><body><main>${body}</main>${script ? `<script>${script}</script>` : ''}</body></html>`;
}

function payPage(payment: PagePayment & { amountKopecks: number }, p: string, chargeUrl: string): string {
  const items = receiptItems(payment.data);
  const rows = items
    .map((i) => {
      const amount = typeof i.amount === 'number' ? parseAmount(i.amount.toFixed(2)) : null;
      return `<tr><td>${esc(String(i.label ?? ''))}${typeof i.quantity === 'number' && i.quantity !== 1 ? ` × ${i.quantity}` : ''}</td><td class="sum">${amount === null ? '' : esc(formatRub(amount))}</td></tr>`;
    })
    .join('');
  const body = `
<h1>Оплата картой</h1><span class="test">Тестовый режим: деньги не списываются</span>
<p>${esc(payment.description)}</p>
<p class="amount">${esc(formatRub(payment.amountKopecks))}</p>
${rows ? `<table><caption>Чек</caption><tbody>${rows}</tbody></table>` : ''}
<form id="card" novalidate>
  <label for="card-number">Номер карты</label>
  <input id="card-number" name="card" inputmode="numeric" autocomplete="cc-number" value="4242 4242 4242 4242" maxlength="23" aria-describedby="card-hint">
  <p class="hint" id="card-hint">Тестовые карты: 4242 4242 4242 4242 — успешно, 4012 8888 8888 1881 — недостаточно средств.</p>
  <div class="row"><button type="submit" class="primary" id="pay">Оплатить</button><button type="button" class="secondary" id="decline">Отклонить</button></div>
</form>
<form id="secure" novalidate hidden>
  <h2 style="font-size:18px;margin:16px 0 0">Подтверждение 3-D Secure</h2>
  <label for="sms-code">Код из SMS</label>
  <input id="sms-code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="8" aria-describedby="sms-hint">
  <p class="hint" id="sms-hint">Подойдёт любой код из 4 цифр и более; код 0000 — ошибка проверки.</p>
  <p class="hint bad" id="sms-error" role="alert" hidden>Введите не меньше 4 цифр</p>
  <div class="row"><button type="submit" class="primary" id="confirm">Подтвердить</button></div>
</form>
<div id="done" hidden><p class="result" id="result" role="status" aria-live="polite"></p>
<div class="row"><button type="button" class="primary" id="back">Вернуться в магазин</button></div></div>`;
  const script = `(function(){
var P=${JSON.stringify(p)},URL_=${JSON.stringify(chargeUrl)},SRC=${JSON.stringify(OFFLINE_MESSAGE_SOURCE)};
var $=function(id){return document.getElementById(id)};var outcome=null;
if(window.parent!==window)document.documentElement.className='framed';
function post(msg){msg.source=SRC;if(window.parent&&window.parent!==window)window.parent.postMessage(msg,location.origin)}
function finish(r){outcome=r;$('card').hidden=true;$('secure').hidden=true;$('done').hidden=false;var el=$('result');
el.textContent=r.success?'Оплата прошла':'Платёж отклонён: '+(r.message||'ошибка');el.className='result '+(r.success?'ok':'bad');$('back').disabled=false;$('back').focus();
setTimeout(function(){post({type:'result',result:r})},1500)}
function charge(action,code){var b=document.querySelectorAll('button');for(var i=0;i<b.length;i++)b[i].disabled=true;
fetch(URL_,{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({p:P,action:action,card:$('card-number').value,code:code||''})})
.then(function(r){return r.json()}).then(finish,function(){finish({success:false,message:'Нет связи с платёжным сервисом'})})}
$('card').addEventListener('submit',function(e){e.preventDefault();$('card').hidden=true;$('secure').hidden=false;$('sms-code').focus()});
$('decline').addEventListener('click',function(){charge('decline')});
$('secure').addEventListener('submit',function(e){e.preventDefault();var c=$('sms-code').value.replace(/\\D/g,'');
if(c.length<4){$('sms-error').hidden=false;$('sms-code').setAttribute('aria-invalid','true');$('sms-code').focus();return}charge('pay',c)});
$('back').addEventListener('click',function(){post({type:'result',result:outcome})});
document.addEventListener('keydown',function(e){if(e.key==='Escape'&&!outcome)post({type:'close'})});
})();`;
  return pageHtml({ title: 'Оплата заказа — тестовый платёжный сервис', body, script });
}

/** The stand-in widget script: `cp.CloudPayments` as CloudPayments' own script defines it. */
export function widgetScript(pageUrl: string): string {
  return `/* Vitrina: offline stand-in for CloudPayments' widget (test mode). */
(function(){
'use strict';
var PAGE=${JSON.stringify(pageUrl)},SRC=${JSON.stringify(OFFLINE_MESSAGE_SOURCE)};
function b64(s){var bytes=new TextEncoder().encode(s),bin='';for(var i=0;i<bytes.length;i++)bin+=String.fromCharCode(bytes[i]);
return btoa(bin).replace(/\\+/g,'-').replace(/\\//g,'_').replace(/=+$/,'')}
function open(params,settle){
  var payload={publicId:params.publicId,description:params.description||'',amount:params.amount,currency:params.currency||'RUB',
    invoiceId:params.invoiceId==null?'':String(params.invoiceId),accountId:params.accountId==null?'':String(params.accountId),
    email:params.email||'',data:params.data==null?null:params.data};
  var overlay=document.createElement('div');overlay.setAttribute('role','dialog');overlay.setAttribute('aria-modal','true');
  overlay.setAttribute('aria-label','Оплата картой');overlay.setAttribute('data-cloudpayments-offline','');
  overlay.style.cssText='position:fixed;inset:0;z-index:2147483000;background:rgba(20,20,20,.55);display:flex;align-items:center;justify-content:center';
  var frame=document.createElement('iframe');frame.title='Оплата картой';frame.src=PAGE+'?p='+b64(JSON.stringify(payload));
  frame.style.cssText='width:min(480px,100%);height:min(760px,100%);border:0;background:transparent';
  var close=document.createElement('button');close.type='button';close.setAttribute('aria-label','Закрыть оплату');close.textContent='\\u00d7';
  close.style.cssText='position:absolute;top:12px;right:16px;font:32px/1 sans-serif;background:none;border:0;color:#fff;cursor:pointer';
  overlay.appendChild(frame);overlay.appendChild(close);document.body.appendChild(overlay);
  var previous=document.activeElement;var done=false;
  function onKey(e){if(e.key==='Escape')end(null)}document.addEventListener('keydown',onKey);
  function end(result){if(done)return;done=true;window.removeEventListener('message',onMessage);document.removeEventListener('keydown',onKey);overlay.remove();
    if(previous&&previous.focus)previous.focus();settle(result)}
  function onMessage(e){if(e.source!==frame.contentWindow||!e.data||e.data.source!==SRC)return;
    if(e.data.type==='result'&&e.data.result)end(e.data.result);else if(e.data.type==='close')end(null)}
  window.addEventListener('message',onMessage);close.addEventListener('click',function(){end(null)});
  frame.addEventListener('load',function(){try{frame.contentWindow.focus()}catch(_){}} );
}
function CloudPayments(options){this.options=options||{}}
CloudPayments.prototype.pay=function(kind,params,callbacks){
  callbacks=callbacks||{};var options=params;
  open(params,function(r){
    var result=r?{success:!!r.success,code:r.success?0:(r.reasonCode||0),message:r.message||null,transactionId:r.transactionId||null}
      :{success:false,code:null,message:'User has cancelled',transactionId:null};
    var withTx=Object.assign({},options,{transactionId:result.transactionId});
    if(result.success){if(callbacks.onSuccess)callbacks.onSuccess(withTx)}
    else if(callbacks.onFail)callbacks.onFail(r?result.message:'User has cancelled',withTx);
    if(callbacks.onComplete)callbacks.onComplete(result,withTx);
  });
};
CloudPayments.prototype.charge=function(params,onSuccess,onFail){this.pay('charge',params,{onSuccess:onSuccess,onFail:onFail})};
CloudPayments.prototype.auth=CloudPayments.prototype.charge;
CloudPayments.prototype.start=function(p){
  p=p||{};var u=p.userInfo||{};
  var params={publicId:p.publicTerminalId||p.publicId,description:p.description,amount:p.amount,currency:p.currency||'RUB',
    invoiceId:p.externalId!=null?p.externalId:p.invoiceId,accountId:u.accountId!=null?u.accountId:p.accountId,email:u.email||p.email,
    data:p.metadata!=null?p.metadata:(p.receipt?{CloudPayments:{CustomerReceipt:p.receipt}}:p.data)};
  return new Promise(function(resolve){open(params,function(r){
    if(!r)resolve({type:'cancel',status:'fail',data:null});
    else resolve({type:'payment',status:r.success?'success':'fail',data:{transactionId:r.transactionId||null,ReasonCode:r.success?0:(r.reasonCode||0)}});
  })});
};
window.cp=window.cp||{};window.cp.CloudPayments=CloudPayments;
})();
`;
}
