import { Box, Typography } from '@mui/material';
import {
  ArrayInput,
  BooleanInput,
  Edit,
  SaveButton,
  SimpleForm,
  SimpleFormIterator,
  TextInput,
  Toolbar,
  useRecordContext,
} from 'react-admin';
import { SiteSettings } from '~/shared/site-settings';
import type { AuditItem } from '~/shared/admin-contract';
import { ACTION_LABELS, dateTime } from '~/admin/lib/labels';

// «Тексты сайта» (issue #30 "The site's words", last bullet): the top banner, the home page's
// texts, the shops and the stylist chat in one form, grouped as the storefront shows them. The
// shared zod shape checks the form before it is sent (the same Russian messages the server
// gives); a save carries the version the form opened (the data provider adds it), so a save over
// a colleague's newer one is refused with the server's message.

/** The shape's errors as the form's nested error object ({ shops: [ , { phone } ] }). */
function validate(values: Record<string, unknown>) {
  const { banner, home, shops, chat } = values;
  const parsed = SiteSettings.safeParse({ banner, home, shops, chat });
  if (parsed.success) return {};
  const errors: Record<string, unknown> = {};
  for (const issue of parsed.error.issues) {
    let at: Record<string | number, unknown> = errors;
    issue.path.forEach((key, i) => {
      const k = key as string | number;
      if (i === issue.path.length - 1) at[k] ??= issue.message;
      else at = (at[k] ??= typeof issue.path[i + 1] === 'number' ? [] : {}) as Record<string | number, unknown>;
    });
  }
  return errors;
}

function Group({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2, width: '100%' }}>
      <Typography component="legend" variant="h6" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function History() {
  const r = useRecordContext<{ audit?: AuditItem[] }>();
  if (!r?.audit?.length) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h2">
        История
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 3 }}>
        {[...r.audit].reverse().map((a) => (
          <li key={a.id}>
            {dateTime(a.at)} — {a.actor_label}: {ACTION_LABELS[a.action] ?? a.action}
          </li>
        ))}
      </Box>
    </Box>
  );
}

export function SiteSettingsPage() {
  return (
    <Edit
      resource="site-settings"
      id="storefront"
      title="Тексты сайта"
      mutationMode="pessimistic"
      redirect={false}
      actions={false}
    >
      <SimpleForm
        sx={{ maxWidth: 800 }}
        validate={validate}
        toolbar={
          <Toolbar>
            <SaveButton label="Сохранить" />
          </Toolbar>
        }
      >
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Тексты, которые покупатели видят в шапке, на главной, в контактах и в чате. После сохранения они появляются на
          сайте в течение минуты.
        </Typography>
        <Group title="Верхний баннер">
          <BooleanInput source="banner.enabled" label="Показывать баннер над шапкой" />
          <TextInput source="banner.text" label="Текст баннера" fullWidth helperText="Например, «Бесплатная доставка от 10 000 ₽»" />
          <TextInput
            source="banner.link"
            label="Ссылка баннера"
            fullWidth
            helperText="Необязательно: адрес на сайте, например /catalog/promo/, или https://…"
          />
        </Group>
        <Group title="Главная">
          <TextInput source="home.eyebrow" label="Надпись над заголовком" fullWidth />
          <TextInput source="home.title" label="Заголовок главной" fullWidth />
          <TextInput source="home.lead" label="Текст под заголовком" fullWidth multiline minRows={3} />
          <TextInput source="home.sale_note" label="Подпись к распродаже" fullWidth />
        </Group>
        <Group title="Магазины">
          <ArrayInput source="shops" label={false}>
            <SimpleFormIterator disableAdd disableRemove disableReordering getItemLabel={(i) => `Магазин ${i + 1}`}>
              <TextInput source="city" label="Город" fullWidth />
              <TextInput source="address" label="Адрес" fullWidth />
              <TextInput source="hours" label="Часы работы" fullWidth />
              <TextInput source="phone" label="Телефон" fullWidth />
              <TextInput source="metro" label="Метро" fullWidth />
            </SimpleFormIterator>
          </ArrayInput>
        </Group>
        <Group title="Чат стилиста">
          <TextInput
            source="chat.url"
            label="Ссылка на мессенджер"
            fullWidth
            helperText="Например, https://t.me/vitrina_stylist; пусто — ссылка из настроек сервера"
          />
          <TextInput source="chat.name" label="Подпись в чате" fullWidth />
          <TextInput source="chat.greeting" label="Приветствие стилиста" fullWidth multiline minRows={2} />
        </Group>
        <History />
      </SimpleForm>
    </Edit>
  );
}
