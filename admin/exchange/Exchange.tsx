import { useCallback, useEffect, useState } from 'react';
import {
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  FormControlLabel,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { Confirm, Title, useNotify } from 'react-admin';
import type {
  AdminExchangePasswordResponse,
  AdminExchangeResendResponse,
  AdminExchangeResponse,
  ExchangeSettingsBody,
} from '~/shared/contract';
import { adminApi, newIdempotencyKey } from '~/admin/lib/api';
import { dateTime } from '~/admin/lib/labels';

// The 1C exchange (issue #31, docs/exchange-1c.md): the address and account 1C uses, the log of
// each session (files, counts, warnings, the error with the element that failed), the settings
// (which price type is the sale and the old price, which characteristic is the size, which
// property the colour, which fields 1C owns) and «Отправить заказы заново». Admin only.

type Exchange = AdminExchangeResponse['data'];
type FileLog = Exchange['sessions'][number]['files'][number];

const COUNT_LABELS: Record<string, string> = {
  sections_created: 'разделов создано',
  sections_updated: 'разделов обновлено',
  products_created: 'товаров создано',
  products_updated: 'товаров обновлено',
  products_deactivated: 'товаров снято с продажи',
  offers_created: 'предложений создано',
  offers_updated: 'предложений обновлено',
  stock_changed: 'остатков изменено',
  offers_zeroed: 'предложений обнулено',
  pictures_processed: 'картинок обработано',
  pictures_unchanged: 'картинок без изменений',
  files: 'файлов в архиве',
  orders_updated: 'заказов изменено',
  orders_unchanged: 'заказов без изменений',
  orders_refused: 'документов не принято',
  order_lines_changed: 'составов заказов изменено',
  order_lines_refused: 'составов заказов не принято',
};
const KIND_LABELS: Record<string, string> = {
  import: 'каталог',
  offers: 'предложения',
  prices: 'цены',
  rests: 'остатки',
  zip: 'архив',
  orders: 'заказы из 1С',
};
const STATUS: Record<FileLog['status'], { label: string; color: 'success' | 'error' | 'warning' }> = {
  done: { label: 'Готово', color: 'success' },
  failed: { label: 'Ошибка', color: 'error' },
  applying: { label: 'Идёт', color: 'warning' },
};

const countsText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${COUNT_LABELS[k] ?? k}: ${n.toLocaleString('ru-RU')}`)
    .join(', ') || 'без изменений';

function FileRow({ f }: { f: FileLog }) {
  const status = STATUS[f.status];
  return (
    <Box component="li" sx={{ py: 0.75, borderTop: '1px solid', borderColor: 'divider', listStyle: 'none' }}>
      <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography component="span" sx={{ fontWeight: 600, wordBreak: 'break-all' }}>
          {f.filename}
        </Typography>
        {f.kind ? (
          <Typography component="span" variant="body2">
            ({KIND_LABELS[f.kind] ?? f.kind})
          </Typography>
        ) : null}
        <Chip size="small" label={status.label} color={status.color} variant="outlined" />
        {f.status === 'applying' ? (
          <Typography component="span" variant="body2">
            шаг {f.step} из {f.steps}
          </Typography>
        ) : null}
      </Stack>
      {f.status !== 'failed' || Object.values(f.counts).some((n) => n > 0) ? (
        <Typography variant="body2">{countsText(f.counts)}</Typography>
      ) : null}
      {f.error ? (
        <Typography variant="body2" sx={{ color: 'error.main', wordBreak: 'break-word' }}>
          {f.error}
        </Typography>
      ) : null}
      {f.warnings.length > 0 ? (
        <Box component="details">
          <summary>Предупреждения: {f.warnings.length}</summary>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {f.warnings.map((w, i) => (
              <li key={i}>
                <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                  {w}
                </Typography>
              </li>
            ))}
          </Box>
        </Box>
      ) : null}
    </Box>
  );
}

export function ExchangePage() {
  const notify = useNotify();
  const [data, setData] = useState<Exchange | null>(null);
  const [draft, setDraft] = useState<ExchangeSettingsBody | null>(null);
  const [key, setKey] = useState(newIdempotencyKey);
  const [resendKey, setResendKey] = useState(newIdempotencyKey);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [passwordKey, setPasswordKey] = useState(newIdempotencyKey);
  const [confirmingPassword, setConfirmingPassword] = useState(false);
  const [login, setLogin] = useState('');
  // The new password, shown once: it is not kept anywhere the screen could read it again.
  const [shown, setShown] = useState<AdminExchangePasswordResponse['data'] | null>(null);

  const load = useCallback(
    () =>
      adminApi<AdminExchangeResponse>('/exchange').then(
        (r) => {
          setData(r.data);
          setDraft(r.data.settings);
        },
        (e: Error) => notify(e.message, { type: 'error' }),
      ),
    [notify],
  );
  useEffect(() => {
    void load();
  }, [load]);

  if (!data || !draft) return <Typography sx={{ m: 2 }}>Загрузка…</Typography>;

  const save = async () => {
    setBusy(true);
    try {
      const r = await adminApi<AdminExchangeResponse>('/exchange/settings', { method: 'POST', body: draft, key });
      setData(r.data);
      setDraft(r.data.settings);
      setKey(newIdempotencyKey());
      notify('Настройки обмена сохранены: они действуют со следующего импорта', { type: 'success' });
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const resend = async () => {
    setConfirming(false);
    setBusy(true);
    try {
      const r = await adminApi<AdminExchangeResendResponse>('/exchange/resend-orders', {
        method: 'POST',
        body: {},
        key: resendKey,
      });
      setResendKey(newIdempotencyKey());
      notify(
        r.data.orders > 0
          ? `Заказов к повторной отправке: ${r.data.orders}. 1С получит их при следующем обмене`
          : 'Отправлять заново нечего: подтверждённых выгрузок нет',
        { type: 'success' },
      );
      await load();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const newPassword = async () => {
    setConfirmingPassword(false);
    setBusy(true);
    try {
      const r = await adminApi<AdminExchangePasswordResponse>('/exchange/password', {
        method: 'POST',
        body: data.account ? {} : { email: login },
        key: passwordKey,
      });
      setPasswordKey(newIdempotencyKey());
      setShown(r.data);
      notify(r.data.created ? 'Учётная запись обмена создана' : 'Пароль обмена изменён: впишите его в 1С', {
        type: 'success',
      });
      await load();
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const text = (
    field: 'salePriceType' | 'oldPriceType' | 'sizeCharacteristic' | 'colorProperty',
    label: string,
    help: string,
  ) => (
    <TextField
      label={label}
      size="small"
      helperText={help}
      value={draft[field] ?? ''}
      onChange={(e) =>
        setDraft({
          ...draft,
          [field]:
            (field === 'salePriceType' || field === 'oldPriceType') && e.target.value.trim() === ''
              ? null
              : e.target.value,
        })
      }
    />
  );
  const own = (field: keyof ExchangeSettingsBody['owns'], label: string) => (
    <FormControlLabel
      control={
        <Checkbox
          checked={draft.owns[field]}
          onChange={(e) => setDraft({ ...draft, owns: { ...draft.owns, [field]: e.target.checked } })}
        />
      }
      label={label}
    />
  );

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1100 }}>
      <Title title="Обмен с 1С" />
      <Stack spacing={2}>
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2">
              Адрес для 1С
            </Typography>
            <Typography sx={{ mt: 1, wordBreak: 'break-all' }}>
              <code>{data.endpoint}</code>
            </Typography>
            <Typography variant="body2" sx={{ mt: 0.5, wordBreak: 'break-word' }}>
              Для 1С, настроенной на 1С-Битрикс, подходит и прежний адрес: <code>{data.legacy_endpoint}</code>.
            </Typography>
          </CardContent>
        </Card>

        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2">
              Учётная запись обмена
            </Typography>
            {data.account ? (
              <Stack spacing={0.5} sx={{ mt: 1 }}>
                <Typography sx={{ wordBreak: 'break-all' }}>
                  Логин: <code>{data.account.login}</code>
                  {data.account.disabled ? ' (отключена в разделе «Сотрудники»)' : ''}
                </Typography>
                <Typography variant="body2">
                  {data.account.password_set
                    ? `Пароль задан${data.account.password_changed_at ? ` ${dateTime(data.account.password_changed_at)}` : ''}. Его видно только один раз, когда он задан.`
                    : 'Пароль ещё не задан: 1С не сможет войти.'}
                </Typography>
              </Stack>
            ) : (
              <Stack spacing={1} sx={{ mt: 1, maxWidth: 420 }}>
                <Typography variant="body2">
                  Учётной записи для 1С ещё нет. Укажите её логин (адрес почты): пароль сайт придумает сам.
                </Typography>
                <TextField
                  label="Логин (адрес почты)"
                  size="small"
                  value={login}
                  onChange={(e) => setLogin(e.target.value)}
                />
              </Stack>
            )}
            {shown ? (
              <Box
                role="status"
                sx={{
                  mt: 1.5,
                  p: 1.5,
                  border: 1,
                  borderColor: 'success.main',
                  borderRadius: 1,
                  wordBreak: 'break-all',
                }}
              >
                <Typography variant="body2">
                  Логин: <code>{shown.login}</code>
                </Typography>
                <Typography variant="body2">
                  Пароль: <code data-testid="exchange-password">{shown.password}</code>
                </Typography>
                <Typography variant="body2" sx={{ mt: 0.5 }}>
                  Впишите его в 1С сейчас: после ухода со страницы его не увидеть. Прежний пароль больше не действует.
                </Typography>
              </Box>
            ) : null}
            <Button
              sx={{ mt: 1.5 }}
              variant="outlined"
              disabled={busy}
              onClick={() => (data.account?.password_set ? setConfirmingPassword(true) : void newPassword())}
            >
              {data.account
                ? data.account.password_set
                  ? 'Задать новый пароль'
                  : 'Задать пароль'
                : 'Создать учётную запись'}
            </Button>
            <Confirm
              isOpen={confirmingPassword}
              title="Задать новый пароль?"
              content="Прежний пароль перестанет действовать: 1С не сможет обмениваться, пока в ней не впишут новый."
              onConfirm={() => void newPassword()}
              onClose={() => setConfirmingPassword(false)}
            />
          </CardContent>
        </Card>

        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2">
              Заказы в 1С
            </Typography>
            <Typography variant="body2" sx={{ mt: 1 }}>
              {data.orders.confirmed_until
                ? `1С подтвердила заказы по ${dateTime(data.orders.confirmed_until)}.`
                : 'Подтверждённых выгрузок заказов нет.'}{' '}
              Не подтверждено 1С: {data.orders.unacknowledged.toLocaleString('ru-RU')}
            </Typography>
            <Button sx={{ mt: 1 }} variant="outlined" disabled={busy} onClick={() => setConfirming(true)}>
              Отправить заказы заново
            </Button>
            <Confirm
              isOpen={confirming}
              title="Отправить заказы заново?"
              content="При следующем обмене 1С получит все заказы с начала обмена, в том числе уже подтверждённые."
              confirm="Отправить"
              cancel="Отмена"
              onConfirm={() => void resend()}
              onClose={() => setConfirming(false)}
            />
          </CardContent>
        </Card>

        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2">
              Настройки
            </Typography>
            <Box sx={{ display: 'grid', gap: 1.5, mt: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
              {text('salePriceType', 'Тип цены продажи', 'Название или Ид; пусто — «Розничная», иначе первый')}
              {text('oldPriceType', 'Тип старой цены', 'Пусто — «Старая цена», «…до скидки» или нет')}
              {text('sizeCharacteristic', 'Характеристика-размер', 'Например, Размер')}
              {text('colorProperty', 'Свойство-цвет', 'Например, Цвет')}
            </Box>
            <Typography sx={{ mt: 2 }}>1С перезаписывает у товаров сайта:</Typography>
            <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 2 }}>
              {own('name', 'названия')}
              {own('description', 'описания')}
              {own('prices', 'цены')}
            </Stack>
            <Button sx={{ mt: 1 }} variant="contained" disabled={busy} onClick={() => void save()}>
              Сохранить настройки
            </Button>
          </CardContent>
        </Card>

        <Typography variant="h6" component="h2">
          Сеансы обмена
        </Typography>
        {data.sessions.length === 0 ? <Typography>1С ещё не обращалась к сайту.</Typography> : null}
        {data.sessions.map((s) => (
          <Card key={s.id} variant="outlined">
            <CardContent>
              <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Typography component="h3" sx={{ fontWeight: 600 }}>
                  {dateTime(s.started_at)}
                </Typography>
                <Chip size="small" label={s.type === 'catalog' ? 'Каталог из 1С' : 'Заказы в 1С'} />
                <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
                  {s.account}, {s.ip}
                </Typography>
              </Stack>
              {s.files.length > 0 ? (
                <Box component="ul" sx={{ m: 0, mt: 1, p: 0 }}>
                  {s.files.map((f, i) => (
                    <FileRow key={`${f.filename}-${i}`} f={f} />
                  ))}
                </Box>
              ) : null}
              {s.exports.map((e) => (
                <Typography key={e.id} variant="body2" sx={{ mt: 1 }}>
                  Выгрузка заказов {dateTime(e.created_at)}: заказов {e.orders},{' '}
                  {e.confirmed_at ? `подтверждена ${dateTime(e.confirmed_at)}` : 'не подтверждена'}
                </Typography>
              ))}
            </CardContent>
          </Card>
        ))}
      </Stack>
    </Box>
  );
}
