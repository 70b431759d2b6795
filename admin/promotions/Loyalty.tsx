import { useEffect, useState } from 'react';
import { Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Title, useNotify } from 'react-admin';
import { adminApi } from '~/admin/lib/api';

// The loyalty programme's parameters (issue #30), read only: they are core/loyalty.ts LOYALTY, the
// one place the code reads them from, and content/pages/loyalty.md states the same (a unit test,
// core/loyalty-page.test.ts, fails when the two differ). Changing one is a code change with the
// page's text, announced to members in advance as the page promises. Manual bonus adjustments are
// on a customer's page.

type Param = { key: string; label: string; value: string; page: string };

export function LoyaltyPage() {
  const notify = useNotify();
  const [params, setParams] = useState<Param[] | null>(null);
  useEffect(() => {
    adminApi<{ data: { params: Param[] } }>('/loyalty').then(
      (r) => setParams(r.data.params),
      (e: Error) => notify(e.message, { type: 'error' }),
    );
  }, [notify]);
  return (
    <Card sx={{ mt: 2, maxWidth: 960 }}>
      <Title title="Программа лояльности" />
      <CardContent>
        <Typography variant="h6" component="h1" gutterBottom>
          Программа лояльности
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Условия те же, что на странице /loyalty/. Их меняют вместе с текстом страницы, заранее предупредив участников;
          начислить или списать бонусы покупателю — на его странице (Покупатели).
        </Typography>
        {params ? (
          <Table size="small" aria-label="Параметры программы лояльности">
            <TableHead>
              <TableRow>
                <TableCell>Параметр</TableCell>
                <TableCell>Значение</TableCell>
                <TableCell>На странице</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {params.map((p) => (
                <TableRow key={p.key}>
                  <TableCell>{p.label}</TableCell>
                  <TableCell>
                    <strong>{p.value}</strong>
                  </TableCell>
                  <TableCell>«{p.page.replace(/\*\*/g, '')}»</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : (
          <Typography>Загрузка…</Typography>
        )}
      </CardContent>
    </Card>
  );
}
