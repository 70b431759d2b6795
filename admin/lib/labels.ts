import { ROLE_LABELS, STAFF_ROLES } from '~/core/staff-roles';
import { statusLabel } from '~/core/order-status';

// Russian names of what the back office shows by code.

export const ROLE_CHOICES = STAFF_ROLES.map((id) => ({ id, name: ROLE_LABELS[id] }));

/** The audit log's actions; an unknown one is shown by its code. */
export const ACTION_LABELS: Record<string, string> = {
  'auth.login': 'Вход',
  'auth.logout': 'Выход',
  'auth.login_failed': 'Неудачный вход',
  'staff.create': 'Сотрудник создан',
  'staff.setup': 'Пароль задан, приложение подключено',
  'staff.totp_enrol': 'Новое приложение подключено',
  'staff.rename': 'Имя изменено',
  'staff.role': 'Роль изменена',
  'staff.disable': 'Сотрудник отключён',
  'staff.enable': 'Сотрудник включён',
  'staff.reset_totp': 'Приложение для входа сброшено',
  'staff.reset_password': 'Пароль сброшен',
  'staff.password': 'Пароль изменён',
  'staff.end_sessions': 'Сеансы завершены',
  'offer.set': 'Остаток задан',
  'offer.stock': 'Остаток изменён',
  'offer.add': 'Остаток изменён',
  'order.status': 'Статус заказа',
  'order.confirm': 'Заказ подтверждён',
  'order.assemble': 'Заказ собирается',
  'order.ship': 'Передан в доставку',
  'order.deliver': 'Доставлен',
  'order.receive': 'Получен',
  'order.cancel': 'Заказ отменён',
  'order.mark_paid': 'Оплата при получении',
  'order.note': 'Заметка',
  'order.fitting': 'Примерка',
  'return.approve': 'Возврат одобрен',
  'return.reject': 'Возврат отклонён',
  'return.receive': 'Товар возврата принят',
  'return.transferred': 'Возврат переведён',
  'jobs.run': 'Задачи запущены',
  'customer.bonuses': 'Бонусы изменены вручную',
  'customer.block': 'Покупатель заблокирован',
  'customer.unblock': 'Покупатель разблокирован',
  'product.create': 'Товар создан',
  'product.update': 'Товар изменён',
  'product.copy': 'Товар скопирован',
  'product.activate': 'Товар показан в магазине',
  'product.deactivate': 'Товар скрыт',
  'product.photos_add': 'Фотографии загружены',
  'product.photos_order': 'Порядок фотографий',
  'product.photo_alt': 'Подпись фотографии',
  'product.photo_remove': 'Фотография удалена',
  'offer.create': 'Размер добавлен',
  'offer.update': 'Размер изменён',
  'offer.remove': 'Размер удалён',
  'section.create': 'Раздел создан',
  'section.update': 'Раздел изменён',
  'section.order': 'Порядок разделов',
  'customer.export': 'Покупатели выгружены',
  'exchange.import': 'Импорт из 1С (шаг)',
  'exchange.settings': 'Настройки обмена с 1С',
  'exchange.resend_orders': 'Заказы отправлены в 1С заново',
  'promo.create': 'Промокод создан',
  'promo.update': 'Промокод изменён',
  'promo.expire': 'Промокод завершён',
  'promo.remove': 'Промокод удалён',
  'certificate.issue': 'Сертификат выпущен вручную',
  'certificate.void': 'Сертификат аннулирован',
  'content.create': 'Статья создана',
  'content.update': 'Текст изменён',
  'content.publish': 'Опубликовано',
  'content.unpublish': 'Снято с публикации',
  'content.cover': 'Обложка изменена',
  'page_meta.create': 'Метаданные созданы',
  'page_meta.update': 'Метаданные изменены',
  'site_settings.update': 'Тексты сайта изменены',
  'redirect.create': 'Перенаправление создано',
  'redirect.update': 'Перенаправление изменено',
  'redirect.delete': 'Перенаправление удалено',
  'redirect.import': 'Перенаправление из импорта',
};

const field = (value: unknown, key: string): string | null => {
  if (!value || typeof value !== 'object') return null;
  const v = (value as Record<string, unknown>)[key];
  return typeof v === 'string' && v !== '' ? v : null;
};

/**
 * An order's status move in an audit row: from `before.status` (the back office's routes) or
 * `after.previous_status` (`npm run order`), to `after.status`; null for any other row.
 */
export function auditStatusMove(a: { action: string; before: unknown; after: unknown }): {
  from: string;
  to: string;
} | null {
  if (!a.action.startsWith('order.')) return null;
  const to = field(a.after, 'status');
  const from = field(a.before, 'status') ?? field(a.after, 'previous_status');
  return to && from && to !== from ? { from, to } : null;
}

/** What an audit row did, in Russian: its action's name, and an order's status move («Принят → Подтверждён»). */
export function auditActionText(a: { action: string; before: unknown; after: unknown }): string {
  const name = ACTION_LABELS[a.action] ?? a.action;
  const move = auditStatusMove(a);
  return move ? `${name}: ${statusLabel(move.from)} → ${statusLabel(move.to)}` : name;
}

export const ENTITY_LABELS: Record<string, string> = {
  staff: 'Сотрудник',
  order: 'Заказ',
  offer: 'Размер товара',
  return: 'Возврат',
  jobs: 'Задачи',
  customer: 'Покупатель',
  product: 'Товар',
  section: 'Раздел',
  exchange_import: 'Импорт из 1С',
  promo: 'Промокод',
  certificate: 'Сертификат',
  content: 'Страница или статья',
  page_meta: 'Метаданные страницы',
  redirect: 'Перенаправление',
  site_settings: 'Тексты сайта',
};
/** The object of an audit row: «Заказ № 12»; a row about many (a customers' export, `*`) names the kind alone. */
const ENTITY_PLURALS: Record<string, string> = { customer: 'Покупатели', order: 'Заказы', offer: 'Размеры товаров' };
export const entityText = (type: string, id: string) =>
  id === '*' || id === ''
    ? (ENTITY_PLURALS[type] ?? ENTITY_LABELS[type] ?? type)
    : `${ENTITY_LABELS[type] ?? type} №\u00a0${id}`;
export const ENTITY_CHOICES = Object.entries(ENTITY_LABELS).map(([id, name]) => ({ id, name }));

export const ACTOR_KIND_LABELS: Record<string, string> = {
  staff: 'Сотрудник',
  script: 'Скрипт',
  system: 'Система',
  customer: 'Покупатель',
};

export const SESSION_END_LABELS: Record<string, string> = {
  logout: 'вышел',
  idle: '30 минут без действий',
  expired: '12 часов со входа',
  disabled: 'сотрудник отключён',
  password: 'пароль изменён',
  totp: 'приложение сброшено',
  admin: 'завершён администратором',
  failures: 'неверные коды',
  pending: 'не введён код',
};

export const dateTime = (iso: string | null | undefined) =>
  iso
    ? new Date(iso).toLocaleString('ru-RU', {
        timeZone: 'Europe/Moscow',
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      })
    : '—';
