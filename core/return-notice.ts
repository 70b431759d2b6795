import { formatRub } from './money';
import { formatBonuses } from './loyalty';

// Returns as the customer and staff read about them (content/pages/return.md «Когда вернутся
// деньги»): the SMS and the e-mail once a return is decided, the account's status line, and the
// staff command's refusals. Pure.

/** How money of a return goes back (the refunds table's means). */
export type RefundMeans = 'cloudpayments' | 'dolyami' | 'yandex-split' | 'certificate' | 'bonus' | 'transfer';

export interface RefundPart {
  means: RefundMeans;
  amountKopecks: number;
  /** 'pending' (the provider is being asked), 'done', 'manual' (staff transfer by hand). */
  status: 'pending' | 'done' | 'manual';
}

export const RETURN_TEXT = {
  /** A gift certificate goes back only whole and unused: else its money would come out twice. */
  certificateUsed: (title: string) =>
    `«${title}»: подарочный сертификат можно вернуть, только пока им не расплачивались и срок его действия не истёк`,
  notFound: 'Заявка на возврат не найдена',
  already: (label: string) => `Заявка уже рассмотрена: ${label.toLowerCase()}. Ничего не изменилось`,
  orderNotPaid: 'Заказ не оплачен: возвращать нечего',
  tooMany: (title: string, open: number) =>
    open > 0
      ? `«${title}»: вернуть можно не больше ${open} шт. — остальное уже возвращено или не было куплено`
      : `«${title}»: эта вещь уже возвращена или не была куплена`,
  noLine: (offerId: number) => `В заказе нет вещи ${offerId}`,
  noteRequired: 'Напишите причину отказа: покупатель её увидит',
  noTransfer: 'По этой заявке нет перевода, который ждёт сотрудника',
  approvedNote: (requestId: number) => `Возврат по заявке №${requestId} одобрен`,
  rejectedNote: (requestId: number) => `Возврат по заявке №${requestId} отклонён`,
} as const;

const INSTALMENT_NAME: Partial<Record<RefundMeans, string>> = { dolyami: 'Долями', 'yandex-split': 'Яндекс Сплит' };

/** One means in words, as a promise (the money is on its way) or a fact (it is back). */
export function refundPartText(part: Pick<RefundPart, 'means' | 'amountKopecks'>): string {
  const rub = formatRub(part.amountKopecks);
  switch (part.means) {
    case 'cloudpayments':
      return `${rub} вернутся на карту в течение 30 рабочих дней`;
    case 'dolyami':
    case 'yandex-split':
      return `${rub} вернутся через ${INSTALMENT_NAME[part.means]}: внесённые платежи — на карту, оставшиеся будут отменены`;
    case 'certificate':
      return `${rub} вернулись на подарочный сертификат`;
    case 'bonus':
      return `${formatBonuses(part.amountKopecks)} вернулись на бонусный счёт и действуют в пределах исходного срока`;
    case 'transfer':
      return `${rub} переведём на счёт по реквизитам из заявления`;
  }
}

/** Money first (card, pay in parts, transfer), then the certificate, then bonuses: what the shopper looks for first. */
const ORDER: readonly RefundMeans[] = ['cloudpayments', 'dolyami', 'yandex-split', 'transfer', 'certificate', 'bonus'];
const sorted = (parts: readonly Pick<RefundPart, 'means' | 'amountKopecks'>[]) =>
  [...parts].filter((p) => p.amountKopecks > 0).sort((a, b) => ORDER.indexOf(a.means) - ORDER.indexOf(b.means));

export interface ReturnDecision {
  orderId: number;
  requestId: number;
  customerName: string;
  decision: 'approved' | 'rejected';
  parts: readonly Pick<RefundPart, 'means' | 'amountKopecks'>[];
  note: string | null;
}

export function returnDecisionSms(n: Pick<ReturnDecision, 'orderId' | 'decision' | 'parts' | 'note'>): string {
  if (n.decision === 'rejected')
    return `Возврат по заказу №${n.orderId} отклонён${n.note ? `: ${n.note}` : ''}. Подробности — в личном кабинете.`;
  const parts = sorted(n.parts).map(refundPartText);
  return `Возврат по заказу №${n.orderId} одобрен${parts.length ? `: ${parts.join('; ')}` : ''}.`;
}

export function returnDecisionMail(
  n: ReturnDecision,
  siteUrl: string,
): { subject: string; text: string; html: string } {
  const subject =
    n.decision === 'approved' ? `Возврат по заказу №${n.orderId} одобрен` : `Возврат по заказу №${n.orderId} отклонён`;
  const greeting = n.customerName ? `${n.customerName}, здравствуйте!` : 'Здравствуйте!';
  const lines =
    n.decision === 'approved'
      ? [
          `Мы проверили вещи по заявке №${n.requestId} и одобрили возврат.`,
          ...sorted(n.parts).map((p) => `${refundPartText(p)}.`),
        ]
      : [
          `К сожалению, мы не можем принять возврат по заявке №${n.requestId}.`,
          ...(n.note ? [`Причина: ${n.note}`] : []),
        ];
  const text = [greeting, '', ...lines, '', `История возвратов — в личном кабинете: ${siteUrl}/personal/`].join('\n');
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html = `<!doctype html><html lang="ru"><body style="font-family:Arial,sans-serif;color:#1d1d1b;max-width:560px">
<h1 style="font-size:20px">${esc(subject)}</h1>
<p>${esc(greeting)}</p>
${lines.map((l) => `<p>${esc(l)}</p>`).join('\n')}
<p><a href="${esc(siteUrl)}/personal/">Личный кабинет</a></p>
</body></html>`;
  return { subject, text, html };
}

/** Money given back so far, in words: '1 500 ₽ на карту, 300 бонусов'. */
function doneText(parts: readonly Pick<RefundPart, 'means' | 'amountKopecks'>[]): string {
  const where: Record<RefundMeans, string> = {
    cloudpayments: 'на карту',
    dolyami: 'через Долями',
    'yandex-split': 'через Яндекс Сплит',
    certificate: 'на сертификат',
    bonus: '',
    transfer: 'переводом',
  };
  return sorted(parts)
    .map((p) =>
      p.means === 'bonus' ? formatBonuses(p.amountKopecks) : `${formatRub(p.amountKopecks)} ${where[p.means]}`,
    )
    .join(', ');
}

/**
 * The account's status line of a return request (returns.php STATUS): the decision, and where
 * the money is: on its way or back.
 */
export function returnStatusText(status: string, parts: readonly RefundPart[], note: string | null): string {
  if (status === 'rejected') return `Возврат отклонён${note ? `: ${note}` : ''}`;
  if (status === 'refunded') {
    const done = doneText(parts);
    return done ? `Деньги возвращены: ${done}` : 'Возврат оформлен';
  }
  if (status === 'approved') {
    const done = parts.filter((p) => p.status === 'done');
    const waiting = sorted(parts.filter((p) => p.status !== 'done')).map(refundPartText);
    return [
      'Возврат одобрен',
      [done.length ? `возвращено ${doneText(done)}` : '', ...waiting].filter(Boolean).join('; '),
    ]
      .filter(Boolean)
      .join(': ');
  }
  return 'Заявка принята';
}
