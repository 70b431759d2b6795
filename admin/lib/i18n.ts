import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import russianMessages from 'ra-language-russian';
import { mergeTranslations } from 'react-admin';

// The back office speaks Russian (ra-language-russian); a key it lacks falls back to English
// rather than showing the key. Our resources' names and fields are here.

const vitrina = {
  resources: {
    staff: {
      name: 'Сотрудник |||| Сотрудники',
      fields: {
        email: 'Почта',
        name: 'Имя',
        role: 'Роль',
        role_label: 'Роль',
        disabled: 'Отключён',
        status: 'Состояние',
        created_at: 'Создан',
        q: 'Поиск',
      },
    },
    audit: {
      name: 'Запись журнала |||| Журнал действий',
      fields: {
        at: 'Когда',
        actor_label: 'Кто',
        staff_id: 'Сотрудник',
        actor_kind: 'Источник',
        action: 'Действие',
        entity_type: 'Объект',
        entity_id: 'Номер объекта',
        reason: 'Причина',
        ip: 'IP-адрес',
        request_id: 'Запрос',
        from: 'С даты',
        to: 'По дату',
      },
    },
  },
};

export const i18nProvider = polyglotI18nProvider(
  () => mergeTranslations(englishMessages, russianMessages, vitrina),
  'ru',
  [{ locale: 'ru', name: 'Русский' }],
  {
    allowMissing: true,
  },
);
