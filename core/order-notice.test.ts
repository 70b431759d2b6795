import { describe, expect, it } from 'vitest';
import { orderMoney } from './order-money';
import {
  deliveryDatesText,
  orderPlacedMail,
  orderPlacedSms,
  orderShippedMail,
  orderShippedSms,
  type OrderNotice,
} from './order-notice';

const NBSP = '\u00a0';
const notice: OrderNotice = {
  orderId: 42,
  customerName: 'Анна',
  lines: [
    { title: 'Пальто «Аврора»', size: '44 (S)', quantity: 1, sumKopecks: 3_200_000, isPreorder: false, isGift: false },
    { title: 'Чехол для одежды', size: '', quantity: 1, sumKopecks: 0, isPreorder: false, isGift: true },
    { title: 'Платье <b>', size: '42', quantity: 2, sumKopecks: 1_980_000, isPreorder: true, isGift: false },
  ],
  money: orderMoney({
    lines: [
      { priceKopecks: 3_300_000, oldPriceKopecks: null, quantity: 1, discountKopecks: 100_000, bonusKopecks: 0 },
      { priceKopecks: 0, oldPriceKopecks: null, quantity: 1, discountKopecks: 0, bonusKopecks: 0 },
      { priceKopecks: 990_000, oldPriceKopecks: null, quantity: 2, discountKopecks: 0, bonusKopecks: 0 },
    ],
    deliveryKopecks: 70_000,
    certificateKopecks: 0,
    paymentId: '1',
  }),
  deliveryName: 'Курьером по Москве',
  deliveryAddress: 'Москва, ул Тверская, д. 12',
  dateFrom: '2026-11-25',
  dateTo: '2026-11-25',
  deliveryNote: null,
  paymentName: 'При получении',
  awaitingPayment: false,
};

describe('order notices', () => {
  it('SMS: number, amount and what happens next', () => {
    expect(orderPlacedSms(notice).replace(/\s/g, ' ')).toBe(
      'Vitrina: заказ №42 оформлен, к оплате при получении 52 500 ₽. Менеджер свяжется с вами для подтверждения.',
    );
    expect(orderPlacedSms({ ...notice, awaitingPayment: true })).toContain('по оплате');
  });

  it('e-mail: every line, the totals, delivery, dates and payment; HTML escaped', () => {
    const mail = orderPlacedMail(notice, 'https://vitrina.example');
    expect(mail.subject).toBe('Заказ №42 оформлен');
    const text = mail.text.replaceAll(NBSP, ' ');
    expect(text).toContain('Пальто «Аврора», размер 44 (S) × 1 — 32 000 ₽');
    expect(text).toContain('Чехол для одежды × 1 — в подарок');
    expect(text).toContain('(предзаказ)');
    expect(text).toContain('Товары: 52 800 ₽');
    expect(text).toContain('Скидка по промокоду: −1 000 ₽');
    expect(text).toContain('Доставка: 700 ₽');
    expect(text).toContain('К оплате при получении: 52 500 ₽');
    expect(text).toContain('Ожидаемая дата доставки: 25 ноября 2026');
    expect(text).toContain('https://vitrina.example/personal/');
    expect(mail.html).toContain('Платье &lt;b&gt;');
    expect(mail.html).not.toContain('<b>');
  });

  it('a certificate paid part: the SMS and the letter say what the courier takes, a paid card order what was charged (issue #26)', () => {
    const line = {
      priceKopecks: 17_000_00,
      oldPriceKopecks: null,
      quantity: 1,
      discountKopecks: 1_700_00,
      bonusKopecks: 0,
    };
    const money = orderMoney({ lines: [line], deliveryKopecks: 700_00, certificateKopecks: 5_000_00, paymentId: '1' });
    const n = { ...notice, money };
    expect(orderPlacedSms(n).replaceAll(NBSP, ' ')).toContain('к оплате при получении 11 000 ₽');
    const text = orderPlacedMail(n, '').text.replaceAll(NBSP, ' ');
    expect(text).toContain('Итого: 16 000 ₽\nПодарочными сертификатами: −5 000 ₽\nК оплате при получении: 11 000 ₽');
    const card = orderMoney({
      lines: [{ ...line, discountKopecks: 0, bonusKopecks: 2_000_00 }],
      deliveryKopecks: 700_00,
      certificateKopecks: 5_000_00,
      paymentId: '9',
      paid: true,
      paidKopecks: 10_700_00,
    });
    expect(orderPlacedSms({ ...n, money: card }).replaceAll(NBSP, ' ')).toContain(
      'оформлен и оплачен, оплата 10 700 ₽ прошла',
    );
    expect(orderPlacedMail({ ...n, money: card }, '').text.replaceAll(NBSP, ' ')).toContain('Бонусами: −2 000 ₽');
  });

  it('a cost to be confirmed and a range of dates', () => {
    const mail = orderPlacedMail(
      { ...notice, money: { ...notice.money, deliveryKopecks: null }, dateTo: '2026-12-02' },
      '',
    );
    expect(mail.text).toContain('Доставка: стоимость уточнит менеджер');
    expect(deliveryDatesText('2026-11-25', '2026-12-02')).toBe('25 ноября 2026 — 2 декабря 2026');
    expect(deliveryDatesText(null, null)).toBeNull();
  });

  it('shipped: the track number for CDEK, the call ahead for the courier', () => {
    expect(orderShippedSms({ orderId: 7, trackNumber: '1234567890', courier: false })).toBe(
      'Vitrina: заказ №7 передан в СДЭК, трек-номер 1234567890.',
    );
    expect(orderShippedSms({ orderId: 7, trackNumber: null, courier: true })).toContain('Курьер позвонит заранее');
    const mail = orderShippedMail(
      { orderId: 7, customerName: 'Анна', trackNumber: '1234567890', courier: false },
      'https://vitrina.example',
    );
    expect(mail.subject).toBe('Заказ №7 передан в доставку');
    expect(mail.text).toContain('https://www.cdek.ru/ru/tracking/?order_id=1234567890');
  });
});
