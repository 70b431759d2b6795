import { Card, CardContent, Link, List, ListItem, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { Title, useAuthenticated, useGetIdentity, usePermissions } from 'react-admin';
import { currentStaff } from './lib/auth-provider';
import { dateTime } from './lib/labels';
import { DashboardFigures } from './orders/DashboardFigures';

// The start page: who is logged in, until when, and the sections this role may open. The shop's
// figures (orders, returns, stock) come with their screens.

const SECTIONS: { to: string; label: string; permission: string }[] = [
  { to: '/orders', label: 'Заказы', permission: 'orders:read' },
  { to: '/staff', label: 'Сотрудники: доступ, роли, сеансы', permission: 'staff:read' },
  { to: '/audit', label: 'Журнал действий', permission: 'audit:read' },
];

export function Dashboard() {
  useAuthenticated();
  const { identity } = useGetIdentity();
  const { permissions } = usePermissions<string[]>();
  const me = currentStaff();
  const open = SECTIONS.filter((s) => permissions?.includes(s.permission));
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="Витрина" />
      <CardContent>
        <Stack spacing={1.5}>
          <Typography variant="h5" component="h1">
            Здравствуйте{identity?.fullName ? `, ${identity.fullName}` : ''}
          </Typography>
          {me ? (
            <Typography color="text.secondary">
              Роль: {me.role_label}. Сеанс действует до {dateTime(me.session.expires_at)} (МСК) и завершится после 30 минут без действий.
            </Typography>
          ) : null}
          {permissions?.includes('dashboard:read') ? <DashboardFigures /> : null}
          {open.length ? (
            <>
              <Typography variant="subtitle1" component="h2" sx={{ pt: 1 }}>
                Разделы
              </Typography>
              <List dense>
                {open.map((s) => (
                  <ListItem key={s.to} disableGutters>
                    <Link component={RouterLink} to={s.to}>
                      {s.label}
                    </Link>
                  </ListItem>
                ))}
              </List>
            </>
          ) : (
            <Typography color="text.secondary">Разделы для вашей роли (заказы, возвраты, остатки, товары) появятся здесь.</Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
