import { Chip, Stack } from '@mui/material';
import { CreateButton, DataTable, DateField, List, SearchInput, SelectInput, TopToolbar } from 'react-admin';
import type { StaffItem } from '~/shared/admin-contract';
import { ROLE_CHOICES } from '~/admin/lib/labels';

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Почта или имя" />,
  <SelectInput key="role" source="role" label="Роль" choices={ROLE_CHOICES} alwaysOn />,
  <SelectInput
    key="disabled"
    source="disabled"
    label="Состояние"
    choices={[
      { id: 'false', name: 'Работает' },
      { id: 'true', name: 'Отключён' },
    ]}
    alwaysOn
  />,
];

export function StaffStatus({ record }: { record: StaffItem }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap' }}>
      {record.disabled ? <Chip size="small" color="default" label="Отключён" /> : null}
      {!record.disabled && record.totp_enrolled ? (
        <Chip size="small" color="success" variant="outlined" label="Вход настроен" />
      ) : null}
      {!record.totp_enrolled ? (
        <Chip
          size="small"
          color="warning"
          variant="outlined"
          label={record.setup_pending ? 'Ждёт настройки по ссылке' : 'Нет приложения для входа'}
        />
      ) : null}
    </Stack>
  );
}

export function StaffList() {
  return (
    <List
      title="Сотрудники"
      filters={filters}
      sort={{ field: 'id', order: 'ASC' }}
      perPage={25}
      exporter={false}
      actions={
        <TopToolbar>
          <CreateButton label="Добавить сотрудника" />
        </TopToolbar>
      }
    >
      <DataTable<StaffItem> rowClick="edit" bulkActionButtons={false}>
        <DataTable.Col<StaffItem> source="email" label="Почта" />
        <DataTable.Col<StaffItem> source="name" label="Имя" />
        <DataTable.Col<StaffItem> source="role" label="Роль" render={(r) => r.role_label} />
        <DataTable.Col<StaffItem> label="Состояние" disableSort render={(r) => <StaffStatus record={r} />} />
        <DataTable.Col<StaffItem> source="created_at" label="Создан" field={DateField} />
      </DataTable>
    </List>
  );
}
