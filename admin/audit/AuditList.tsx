import { useQuery } from '@tanstack/react-query';
import { Box, Chip, Stack, Typography } from '@mui/material';
import {
  AutocompleteInput,
  DataTable,
  DateInput,
  List,
  ReferenceInput,
  SelectInput,
  TextInput,
  useRecordContext,
} from 'react-admin';
import type { AuditActionsResponse, AuditItem } from '~/shared/admin-contract';
import { adminApi } from '~/admin/lib/api';
import {
  ACTION_LABELS,
  ACTOR_KIND_LABELS,
  auditActionText,
  dateTime,
  ENTITY_CHOICES,
  entityText,
} from '~/admin/lib/labels';

// The audit log (admin only): who changed what, newest first, with filters by staff member,
// action, object and dates; a row opens to the values before and after.

function ActionFilter(props: { source: string; label: string; alwaysOn?: boolean }) {
  const { data } = useQuery({
    queryKey: ['audit', 'actions'],
    queryFn: () => adminApi<AuditActionsResponse>('/audit/actions'),
  });
  const choices = (data?.data ?? []).map((a) => ({ id: a.id, name: ACTION_LABELS[a.id] ?? a.id }));
  return <SelectInput {...props} choices={choices} />;
}

const filters = [
  <ReferenceInput key="staff_id" source="staff_id" reference="staff" alwaysOn>
    <AutocompleteInput
      label="Сотрудник"
      optionText={(r: { email: string; name: string }) => (r.name ? `${r.name} (${r.email})` : r.email)}
      filterToQuery={(q: string) => ({ q })}
    />
  </ReferenceInput>,
  <ActionFilter key="action" source="action" label="Действие" alwaysOn />,
  <SelectInput key="entity_type" source="entity_type" label="Объект" choices={ENTITY_CHOICES} />,
  <TextInput key="entity_id" source="entity_id" label="Номер объекта" />,
  <DateInput key="from" source="from" label="С даты" alwaysOn />,
  <DateInput key="to" source="to" label="По дату" alwaysOn />,
];

function Json({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <Typography color="text.secondary">—</Typography>;
  return (
    <Box
      component="pre"
      sx={{
        m: 0,
        p: 1.5,
        bgcolor: 'grey.100',
        borderRadius: 1,
        fontSize: 13,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
      }}
    >
      {JSON.stringify(value, null, 2)}
    </Box>
  );
}

function AuditDetails() {
  const record = useRecordContext<AuditItem>();
  if (!record) return null;
  return (
    <Stack spacing={1.5} sx={{ py: 1 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary">
            До
          </Typography>
          <Json value={record.before} />
        </Box>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary">
            После
          </Typography>
          <Json value={record.after} />
        </Box>
      </Stack>
      <Typography variant="caption" color="text.secondary">
        Запрос {record.request_id || '—'} · сеанс {record.session_id ?? '—'} · IP {record.ip || '—'}
      </Typography>
    </Stack>
  );
}

export function AuditList() {
  return (
    <List title="Журнал действий" filters={filters} sort={{ field: 'at', order: 'DESC' }} perPage={50} exporter={false}>
      <DataTable<AuditItem> rowClick="expand" expand={<AuditDetails />} bulkActionButtons={false}>
        <DataTable.Col<AuditItem> source="at" label="Когда" render={(r) => dateTime(r.at)} />
        <DataTable.Col<AuditItem>
          label="Кто"
          disableSort
          render={(r) => (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <span>{r.actor_label || '—'}</span>
              {r.actor_kind !== 'staff' ? (
                <Chip size="small" variant="outlined" label={ACTOR_KIND_LABELS[r.actor_kind]} />
              ) : null}
            </Stack>
          )}
        />
        <DataTable.Col<AuditItem> label="Действие" disableSort render={(r) => auditActionText(r)} />
        <DataTable.Col<AuditItem> label="Объект" disableSort render={(r) => entityText(r.entity_type, r.entity_id)} />
        <DataTable.Col<AuditItem> label="Причина" disableSort render={(r) => r.reason ?? ''} />
        <DataTable.Col<AuditItem> label="IP-адрес" disableSort render={(r) => r.ip} />
      </DataTable>
    </List>
  );
}
