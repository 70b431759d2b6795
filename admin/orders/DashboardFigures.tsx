import { useQuery } from '@tanstack/react-query';
import { Box, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import type { AdminDashboardResponse } from '~/shared/admin-contract';
import { adminApi } from '~/admin/lib/api';
import { rub } from './labels';

// The dashboard's figures (GET /dashboard): sales today and this week, what waits for staff, low
// stock and the longest waiting lists. Each waiting count links to the orders list filtered so.

function Figure({ label, value, to }: { label: string; value: string | number; to?: string }) {
  return (
    <Card variant="outlined" sx={{ minWidth: 140, flex: '1 1 140px' }}>
      <CardContent>
        <Typography color="text.secondary" variant="body2">
          {label}
        </Typography>
        <Typography variant="h5" component="p">
          {to ? (
            <Link component={RouterLink} to={to} underline="hover">
              {value}
            </Link>
          ) : (
            value
          )}
        </Typography>
      </CardContent>
    </Card>
  );
}

const listWith = (list: string, filter: Record<string, string | number>) =>
  `/${list}?filter=${encodeURIComponent(JSON.stringify(filter))}`;
const ordersWith = (filter: Record<string, string>) => listWith('orders', filter);

/** 1 заказ, 2 заказа, 5 заказов. */
export function ordersCount(n: number): string {
  const tens = n % 100;
  const ones = n % 10;
  const word =
    tens >= 11 && tens <= 14 ? 'заказов' : ones === 1 ? 'заказ' : ones >= 2 && ones <= 4 ? 'заказа' : 'заказов';
  return `${n} ${word}`;
}

export function DashboardFigures() {
  const { data } = useQuery({ queryKey: ['dashboard'], queryFn: () => adminApi<AdminDashboardResponse>('/dashboard') });
  if (!data) return null;
  const d = data.data;
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2 }}>
        <Figure
          label="Заказы сегодня"
          value={
            d.today.revenue_kopecks === undefined
              ? ordersCount(d.today.orders)
              : `${ordersCount(d.today.orders)} · ${rub(d.today.revenue_kopecks)}`
          }
        />
        <Figure
          label="Заказы за неделю"
          value={
            d.week.revenue_kopecks === undefined
              ? ordersCount(d.week.orders)
              : `${ordersCount(d.week.orders)} · ${rub(d.week.revenue_kopecks)}`
          }
        />
        <Figure label="Ждут оплаты" value={d.awaiting_payment} to={ordersWith({ status: 'awaiting_payment' })} />
        <Figure label="Подтвердить" value={d.to_confirm} to={ordersWith({ status: 'new' })} />
        <Figure label="Отправить" value={d.to_ship} to={ordersWith({ status: 'assembling' })} />
        <Figure
          label="Курьеры с примеркой"
          value={d.fittings_out}
          to={ordersWith({ status: 'shipped', delivery: '1' })}
        />
        <Figure label="Возвраты ждут решения" value={d.returns_to_decide} to={listWith('returns', { status: 'new' })} />
        <Figure label="Возвраты денег в работе" value={d.refunds_pending} />
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <Box sx={{ flex: 1 }}>
          <Typography variant="subtitle1" component="h2">
            Заканчиваются
          </Typography>
          {d.low_stock.length === 0 ? <Typography color="text.secondary">Нет</Typography> : null}
          {d.low_stock.map((o) => (
            <Typography key={o.offer_id}>
              <Link component={RouterLink} to={`/offers/${o.offer_id}/show`} underline="hover">
                {o.name}, {o.size}
              </Link>
              : {o.quantity} шт.
            </Typography>
          ))}
        </Box>
        <Box sx={{ flex: 1 }}>
          <Typography variant="subtitle1" component="h2">
            Самые длинные листы ожидания
          </Typography>
          {d.waiting_lists.length === 0 ? <Typography color="text.secondary">Нет</Typography> : null}
          {d.waiting_lists.map((o) => (
            <Typography key={o.offer_id}>
              <Link component={RouterLink} to={listWith('waiting-list', { offer_id: o.offer_id })} underline="hover">
                {o.name}, {o.size}
              </Link>
              : ждут {o.waiting}
            </Typography>
          ))}
        </Box>
      </Stack>
    </Stack>
  );
}
