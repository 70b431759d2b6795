import { describe, expect, it } from 'vitest';
import { refundPartText, returnDecisionMail, returnDecisionSms, returnStatusText } from './return-notice';

describe('return notices', () => {
  it('says where each part of the money goes, card first, as return.md promises', () => {
    const sms = returnDecisionSms({
      orderId: 12,
      decision: 'approved',
      note: null,
      parts: [
        { means: 'bonus', amountKopecks: 30_000 },
        { means: 'certificate', amountKopecks: 100_000 },
        { means: 'cloudpayments', amountKopecks: 150_000 },
      ],
    });
    expect(sms).toBe(
      'Возврат по заказу №12 одобрен: 1\u00a0500\u00a0₽ вернутся на карту в течение 30 рабочих дней; 1\u00a0000\u00a0₽ вернулись на подарочный сертификат; 300 бонусов вернулись на бонусный счёт и действуют в пределах исходного срока.',
    );
    expect(refundPartText({ means: 'dolyami', amountKopecks: 100 })).toContain(
      'через Долями: внесённые платежи — на карту, оставшиеся будут отменены',
    );
    expect(refundPartText({ means: 'transfer', amountKopecks: 100 })).toContain('по реквизитам из заявления');
  });

  it('gives the reason of a rejection, and escapes it in the letter', () => {
    expect(returnDecisionSms({ orderId: 5, decision: 'rejected', note: 'нет ярлыков', parts: [] })).toBe(
      'Возврат по заказу №5 отклонён: нет ярлыков. Подробности — в личном кабинете.',
    );
    const mail = returnDecisionMail(
      { orderId: 5, requestId: 2, customerName: 'Анна', decision: 'rejected', note: '<b>следы носки</b>', parts: [] },
      'https://shop.example',
    );
    expect(mail.subject).toBe('Возврат по заказу №5 отклонён');
    expect(mail.html).toContain('&lt;b&gt;следы носки&lt;/b&gt;');
    expect(mail.text).toContain('Причина: <b>следы носки</b>');
  });

  it('shows the account what is on its way and what is back', () => {
    expect(returnStatusText('new', [], null)).toBe('Заявка принята');
    expect(returnStatusText('rejected', [], 'вещь была в носке')).toBe('Возврат отклонён: вещь была в носке');
    expect(
      returnStatusText(
        'approved',
        [
          { means: 'certificate', amountKopecks: 50_000, status: 'done' },
          { means: 'cloudpayments', amountKopecks: 100_000, status: 'pending' },
        ],
        null,
      ),
    ).toBe(
      'Возврат одобрен: возвращено 500\u00a0₽ на сертификат; 1\u00a0000\u00a0₽ вернутся на карту в течение 30 рабочих дней',
    );
    expect(
      returnStatusText(
        'refunded',
        [
          { means: 'cloudpayments', amountKopecks: 100_000, status: 'done' },
          { means: 'bonus', amountKopecks: 20_000, status: 'done' },
        ],
        null,
      ),
    ).toBe('Деньги возвращены: 1\u00a0000\u00a0₽ на карту, 200 бонусов');
  });
});
