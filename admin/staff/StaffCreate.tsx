import { useState } from 'react';
import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import { Create, email, required, SelectInput, SimpleForm, TextInput, Title, useRedirect } from 'react-admin';
import { newIdempotencyKey } from '~/admin/lib/api';
import { ROLE_CHOICES } from '~/admin/lib/labels';
import { SetupLink } from './SetupLink';

type Made = { email: string; setup_url: string; setup_expires_at: string };

/** A new staff account: its one-time link is shown once, here. */
export function StaffCreate() {
  const [made, setMade] = useState<Made | null>(null);
  // One key for this form: a double click or a retry creates the account once.
  const [idempotencyKey] = useState(newIdempotencyKey);
  const redirect = useRedirect();
  if (made)
    return (
      <Card sx={{ mt: 2, maxWidth: 720 }}>
        <Title title="Новый сотрудник" />
        <CardContent>
          <Stack spacing={2}>
            <Typography variant="h6" component="h2">
              Сотрудник {made.email} создан
            </Typography>
            <SetupLink email={made.email} url={made.setup_url} expiresAt={made.setup_expires_at} />
            <Button variant="contained" sx={{ alignSelf: 'flex-start' }} onClick={() => redirect('list', 'staff')}>
              К списку сотрудников
            </Button>
          </Stack>
        </CardContent>
      </Card>
    );
  return (
    <Create
      title="Новый сотрудник"
      mutationOptions={{ meta: { idempotencyKey }, onSuccess: (data: unknown) => setMade(data as Made) }}
      redirect={false}
    >
      <SimpleForm defaultValues={{ role: 'manager', name: '' }} sx={{ maxWidth: 520 }}>
        <TextInput
          source="email"
          label="Почта"
          type="email"
          validate={[required('Укажите почту'), email('Неверный адрес')]}
          fullWidth
        />
        <TextInput source="name" label="Имя и фамилия" fullWidth />
        <SelectInput source="role" label="Роль" choices={ROLE_CHOICES} validate={required()} />
      </SimpleForm>
    </Create>
  );
}
