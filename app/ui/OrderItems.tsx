import { DELIVERY_ID, PAYMENT_ID } from '~/shared/checkout-ids';
import { OrderMoneyRows } from './OrderMoneyRows';
import type { OrderDetail } from '~/shared/contract';
import { formatRoubles } from '~/core/pricing';
import { FITTING_MINUTES, SHIPPING_WORKING_DAYS } from '~/core/delivery';
import { Image } from './Image';
import { datesText } from '~/core/dates';

/** An order's lines and totals, as the order pages show them (/basket/submited-order/, the paid order's page). */
export function OrderItems({ order, totals = true }: { order: OrderDetail; totals?: boolean }) {
  const byEmail = order.DELIVERY.ID === DELIVERY_ID.email;
  return (
    <section aria-labelledby="order-items">
      <h2 className="order-placed__title" id="order-items">
        Товары
      </h2>
      <ul className="order-lines">
        {order.ITEMS.map((item) => (
          <li key={`${item.id}-${item.isPreorder ? 'p' : 'n'}`} className="order-line">
            <span className="order-line__photo">
              {item.img ? <Image src={item.img} alt="" width={60} height={80} /> : null}
            </span>
            <span className="order-line__text">
              <span className="order-line__title">{item.title}</span>
              <span className="order-line__meta">
                {[
                  // Electronic certificates (the only goods sent by e-mail) have no size or colour to speak of.
                  byEmail || item.byEmail ? null : item.size && `Размер ${item.size}`,
                  byEmail || item.byEmail ? null : item.color,
                  item.isPreorder ? 'Предзаказ' : null,
                  item.isGift ? 'Подарок' : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </span>
            <span className="order-line__price">
              {item.quantity} × {formatRoubles(item.price)}
            </span>
          </li>
        ))}
      </ul>
      {totals ? <OrderMoneyRows money={order.MONEY} byEmail={byEmail} /> : null}
    </section>
  );
}

/** Where the order goes: the method, the address or pickup point, the expected dates, the track number. */
export function OrderDeliveryCard({ order }: { order: OrderDetail }) {
  const delivery = order.DELIVERY;
  if (delivery.ID === DELIVERY_ID.email) {
    // Electronic certificates: nothing ships; the card goes to the order's e-mail.
    return (
      <section className="order-placed__card" aria-labelledby="order-delivery">
        <h2 className="order-placed__title" id="order-delivery">
          Доставка
        </h2>
        <dl className="order-placed__facts">
          <dt>Способ</dt>
          <dd>{delivery.NAME}</dd>
          <dt>E-mail</dt>
          <dd>{order.CONTACT.EMAIL}</dd>
        </dl>
        <p className="order-placed__note">В течение часа после оплаты — открыткой с уникальным номером сертификата.</p>
      </section>
    );
  }
  const dates = datesText(delivery.DATE_FROM, delivery.DATE_TO);
  const point = delivery.PICKUP_POINT;
  return (
    <section className="order-placed__card" aria-labelledby="order-delivery">
      <h2 className="order-placed__title" id="order-delivery">
        Доставка
      </h2>
      <dl className="order-placed__facts">
        <dt>Способ</dt>
        <dd>{delivery.NAME}</dd>
        {point ? (
          <>
            <dt>Пункт выдачи</dt>
            <dd>
              <span className="order-placed__line">{point.name}</span>
              <span className="order-placed__line">{point.location.address_full}</span>
              <span className="order-placed__line order-placed__muted">{point.work_time}</span>
            </dd>
          </>
        ) : (
          <>
            <dt>Адрес</dt>
            <dd>{delivery.ADDRESS || delivery.CITY}</dd>
          </>
        )}
        {dates ? (
          <>
            <dt>Ожидаемая доставка</dt>
            <dd>{dates}</dd>
          </>
        ) : null}
        {delivery.TRACK_NUMBER ? (
          <>
            <dt>Трек-номер</dt>
            <dd>
              {delivery.TRACK_NUMBER}
              {delivery.TRACK_URL ? (
                <a className="order-placed__line" href={delivery.TRACK_URL} target="_blank" rel="noopener noreferrer">
                  Отследить посылку
                </a>
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>
      {delivery.NOTE ? <p className="order-placed__note">{delivery.NOTE}</p> : null}
    </section>
  );
}

/** «Что дальше»: the order pages' list of next steps. */
export function NextSteps({ order }: { order: OrderDetail }) {
  return (
    <>
      <h2 className="order-placed__title">Что дальше</h2>
      <ol className="order-done__steps">
        {nextSteps(order).map((step) => (
          <li key={step.title}>
            <span>
              <strong>{step.title}</strong> {step.text}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}

/** How an online payment is made, in the instrumental case ('картой', 'через Долями'); null for payment on receipt. */
export function onlinePaymentWay(paymentId: string): string | null {
  if (paymentId === PAYMENT_ID.cardOnline) return 'картой';
  if (paymentId === PAYMENT_ID.dolyami) return 'через Долями';
  if (paymentId === PAYMENT_ID.yandexSplit) return 'через Яндекс Сплит';
  return null;
}

/** What happens next, by delivery and payment (content/pages/delivery.md, shipment.md). */
export function nextSteps(order: OrderDetail): { title: string; text: string }[] {
  const steps: { title: string; text: string }[] = [];
  const deliveryId = order.DELIVERY.ID;
  const payWay = onlinePaymentWay(order.PAYMENT.ID);
  if (payWay && order.STATUS_CODE === 'awaiting_payment') {
    steps.push({
      title: `Оплатите заказ ${payWay}`,
      text: 'на сайте: кнопка «Оплатить заказ» выше. Пока заказ не оплачен, вещи отложены для вас на ограниченное время.',
    });
  }
  if (deliveryId === DELIVERY_ID.email) {
    steps.push({
      title: 'Сертификат придёт на e-mail',
      text: `${order.CONTACT.EMAIL ? `${order.CONTACT.EMAIL} ` : ''}в течение часа после оплаты — открыткой с уникальным номером. Её можно переслать получателю или распечатать.`,
    });
    steps.push({
      title: 'Им можно оплатить покупки',
      text: 'на сайте и в наших магазинах: введите номер сертификата при оформлении заказа.',
    });
  } else if (deliveryId === DELIVERY_ID.moscowCourier) {
    steps.push({ title: 'Курьер позвонит заранее,', text: 'чтобы согласовать удобное время доставки.' });
    steps.push({
      title: `${FITTING_MINUTES} минут на примерку.`,
      text:
        order.PAYMENT.ID === PAYMENT_ID.onReceipt
          ? 'Оплатите картой или через СБП только то, что оставите; остальное курьер заберёт.'
          : 'Если что-то не подойдёт, курьер заберёт вещь и мы вернём за неё деньги.',
    });
  } else if (deliveryId === DELIVERY_ID.cdekPickup || deliveryId === DELIVERY_ID.cdekDoor) {
    steps.push({ title: 'Передадим заказ в СДЭК', text: `в течение ${SHIPPING_WORKING_DAYS} рабочих дней.` });
    steps.push({ title: 'Трек-номер пришлём', text: 'в СМС и на e-mail: по нему можно следить за посылкой.' });
    steps.push(
      deliveryId === DELIVERY_ID.cdekPickup
        ? {
            title: 'Когда посылка придёт в пункт выдачи,',
            text: 'СДЭК пришлёт уведомление: забрать заказ можно в часы работы пункта.',
          }
        : { title: 'Курьер СДЭК', text: 'свяжется с вами, чтобы договориться о дне доставки.' },
    );
  } else {
    steps.push({ title: 'Менеджер свяжется с вами,', text: 'чтобы согласовать способ, стоимость и сроки доставки.' });
  }
  return steps;
}
