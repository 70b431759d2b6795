import { useEffect, useState } from 'react';
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
import { Title, useNotify } from 'react-admin';
import type { AdminFeedsResponse, FeedChannel, FeedChannelSettings, FeedSettings } from '~/shared/contract';
import { adminApi, newIdempotencyKey } from '~/admin/lib/api';
import { dateTime } from '~/admin/lib/labels';

// Product feeds (issue #32, docs/feeds.md): the addresses to paste into Яндекс Директ, Маркет, VK
// and Google Merchant Center, each feed's last build and what it left out (and why), and the
// settings: which sections and products go into each feed, the UTM tags, the shop's names. A saved
// change reaches each feed on its next request.

type Feeds = AdminFeedsResponse['data'];
const CHANNEL_LABELS: Record<FeedChannel, string> = {
  yandex: 'Яндекс (Директ, Маркет, Товары)',
  google: 'Google Merchant Center',
  vk: 'VK Реклама',
};
const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term'] as const;
const list = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
const ids = (text: string) =>
  list(text)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);

export function FeedsPage() {
  const notify = useNotify();
  const [feeds, setFeeds] = useState<Feeds | null>(null);
  const [draft, setDraft] = useState<FeedSettings | null>(null);
  const [key, setKey] = useState(newIdempotencyKey);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    adminApi<AdminFeedsResponse>('/feeds').then(
      (r) => {
        setFeeds(r.data);
        setDraft(r.data.settings);
      },
      (e: Error) => notify(e.message, { type: 'error' }),
    );
  }, [notify]);

  if (!feeds || !draft) return <Typography sx={{ m: 2 }}>Загрузка…</Typography>;
  const setChannel = (channel: FeedChannel, patch: Partial<FeedChannelSettings>) =>
    setDraft({ ...draft, channels: { ...draft.channels, [channel]: { ...draft.channels[channel], ...patch } } });

  const save = async () => {
    setSaving(true);
    try {
      const r = await adminApi<AdminFeedsResponse>('/feeds/settings', { method: 'POST', body: draft, key });
      setFeeds(r.data);
      setDraft(r.data.settings);
      setKey(newIdempotencyKey());
      notify('Настройки фидов сохранены: фиды пересоберутся при следующем запросе', { type: 'success' });
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1100 }}>
      <Title title="Фиды" />
      <Stack spacing={2}>
        {feeds.feeds.map((f) => {
          const build = f.last_build;
          const own = draft.channels[f.channel];
          return (
            <Card key={f.channel} variant="outlined">
              <CardContent>
                <Stack direction="row" sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                  <Typography variant="h6" component="h2">
                    {CHANNEL_LABELS[f.channel]}
                  </Typography>
                  <Chip
                    size="small"
                    label={f.enabled ? 'Включён' : 'Выключен'}
                    color={f.enabled ? 'success' : 'default'}
                  />
                  {build ? (
                    <Chip
                      size="small"
                      variant="outlined"
                      label={f.current ? 'Актуален' : 'Пересоберётся при запросе'}
                    />
                  ) : null}
                </Stack>
                <Typography sx={{ mt: 1, wordBreak: 'break-all' }}>
                  Адрес: <code>{f.url}</code>
                </Typography>
                {build ? (
                  <Typography variant="body2" sx={{ mt: 1 }}>
                    Собран {dateTime(build.built_at)} за {(build.duration_ms / 1000).toLocaleString('ru-RU')} с: товаров{' '}
                    {build.products.toLocaleString('ru-RU')}, предложений {build.offers.toLocaleString('ru-RU')}, не
                    вошло {build.left_out_total.toLocaleString('ru-RU')}
                  </Typography>
                ) : (
                  <Typography variant="body2" sx={{ mt: 1 }}>
                    Ещё не собирался: соберётся при первом запросе
                  </Typography>
                )}
                {build && build.left_out.length > 0 ? (
                  <Box component="details" sx={{ mt: 1 }}>
                    <summary>Что не вошло и почему</summary>
                    <Box component="ul" sx={{ m: 0, pl: 3 }}>
                      {build.left_out.map((o) => (
                        <li key={`${o.product_id}-${o.offer_id ?? 'all'}`}>
                          {o.name}
                          {o.offer_id ? ` (предложение ${o.offer_id})` : ''}: {o.reason_text}
                        </li>
                      ))}
                    </Box>
                  </Box>
                ) : null}
                <Stack spacing={1.5} sx={{ mt: 2 }}>
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={own.enabled}
                        onChange={(e) => setChannel(f.channel, { enabled: e.target.checked })}
                      />
                    }
                    label="Фид включён"
                  />
                  <TextField
                    label="Только разделы (коды через запятую; пусто — все)"
                    size="small"
                    // Read when the field is left: parsed while typing, a comma would vanish as typed.
                    defaultValue={own.sections.join(', ')}
                    onBlur={(e) => setChannel(f.channel, { sections: list(e.target.value) })}
                  />
                  <TextField
                    label="Кроме разделов (коды через запятую)"
                    size="small"
                    // Read when the field is left: parsed while typing, a comma would vanish as typed.
                    defaultValue={own.excludeSections.join(', ')}
                    onBlur={(e) => setChannel(f.channel, { excludeSections: list(e.target.value) })}
                  />
                  <TextField
                    label="Кроме товаров (номера через запятую)"
                    size="small"
                    // Read when the field is left: parsed while typing, a comma would vanish as typed.
                    defaultValue={own.excludeProducts.join(', ')}
                    onBlur={(e) => setChannel(f.channel, { excludeProducts: ids(e.target.value) })}
                  />
                  <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' } }}>
                    {UTM_KEYS.map((k) => (
                      <TextField
                        key={k}
                        label={k}
                        size="small"
                        value={own.utm[k] ?? ''}
                        onChange={(e) => {
                          const utm = { ...own.utm };
                          if (e.target.value === '') delete utm[k];
                          else utm[k] = e.target.value;
                          setChannel(f.channel, { utm });
                        }}
                      />
                    ))}
                  </Box>
                </Stack>
              </CardContent>
            </Card>
          );
        })}
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2">
              Магазин в фидах
            </Typography>
            <Box sx={{ display: 'grid', gap: 1.5, mt: 1, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
              <TextField
                label="Название магазина"
                size="small"
                value={draft.shopName}
                onChange={(e) => setDraft({ ...draft, shopName: e.target.value })}
              />
              <TextField
                label="Компания"
                size="small"
                value={draft.company}
                onChange={(e) => setDraft({ ...draft, company: e.target.value })}
              />
              <TextField
                label="Бренд"
                size="small"
                value={draft.vendor}
                onChange={(e) => setDraft({ ...draft, vendor: e.target.value })}
              />
              <TextField
                label="Ширина фото, px"
                size="small"
                type="number"
                value={draft.imageWidth}
                onChange={(e) => setDraft({ ...draft, imageWidth: Number(e.target.value) })}
              />
            </Box>
          </CardContent>
        </Card>
        <Box>
          <Button variant="contained" disabled={saving} onClick={() => void save()}>
            Сохранить настройки
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
