import { ROLE_LABELS, STAFF_ROLES } from '~/core/staff-roles';

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
  'exchange.import': 'Импорт из 1С (шаг)',
  'exchange.settings': 'Настройки обмена с 1С',
  'exchange.resend_orders': 'Заказы отправлены в 1С заново',
};

export const ENTITY_LABELS: Record<string, string> = {
  staff: 'Сотрудник',
  order: 'Заказ',
  offer: 'Размер товара',
  return: 'Возврат',
  jobs: 'Задачи',
  customer: 'Покупатель',
  exchange_import: 'Импорт из 1С',
};
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
