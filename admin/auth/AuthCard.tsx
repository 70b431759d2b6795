import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';

/** The frame of the pages before a session: login, the one-time link. */
export function AuthCard({
  title,
  subtitle,
  children,
  width = 400,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  width?: number;
}) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: '#f3f1ee',
        p: 2,
      }}
    >
      <Card sx={{ width: '100%', maxWidth: width }} elevation={2}>
        <CardContent sx={{ p: 4 }}>
          <Typography variant="overline" component="p" sx={{ letterSpacing: '0.2em', color: 'text.secondary' }}>
            Витрина · управление
          </Typography>
          <Typography variant="h5" component="h1" sx={{ mb: subtitle ? 1 : 3 }}>
            {title}
          </Typography>
          {subtitle ? (
            <Typography variant="body2" color="text.secondary" component="div" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          ) : null}
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
