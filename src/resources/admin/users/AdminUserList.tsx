import { Chip } from '@mui/material';
import { DataTable, List, NullableBooleanInput, useTranslate } from 'react-admin';
import { formatDateTime } from '../../../utils/dates';
import { AdminSearchInput, adminListSx, adminTableSx, Chips, NamesWithRoles } from '../common';
import { AdminListActions } from '../ExportCsvButton';

interface AdminUser {
  id: number;
  name: string;
  email: string;
  admin: boolean;
  enabled: boolean;
  created_at?: string;
  teams?: { id: number; name: string; role?: string | null }[];
  workspaces?: { id: number; name: string; role?: string | null }[];
}

const filters = [
  <AdminSearchInput key="q" source="q" alwaysOn />,
  <NullableBooleanInput key="admin" source="admin" />,
  <NullableBooleanInput key="enabled" source="enabled" />,
];

const Badges = ({ record }: { record: AdminUser }) => {
  const translate = useTranslate();
  return (
    <Chips>
      {record.admin && <Chip size="small" color="secondary" label={translate('resources.admin/users.admin')} />}
      <Chip
        size="small"
        variant="outlined"
        color={record.enabled ? 'success' : 'error'}
        label={translate(record.enabled ? 'resources.admin/users.enabled' : 'resources.admin/users.disabled')}
      />
    </Chips>
  );
};

/** /admin/users: every user with teams and workspaces (role), admin and enabled badges. */
export const AdminUserList = () => (
  <List<AdminUser>
    resource="admin/users"
    filters={filters}
    actions={<AdminListActions />}
    sort={{ field: 'name', order: 'ASC' }}
    perPage={25}
    sx={adminListSx}
  >
    <DataTable<AdminUser> bulkActionButtons={false} rowClick={false} sx={adminTableSx}>
      <DataTable.Col<AdminUser> source="name" />
      <DataTable.Col<AdminUser> source="email" />
      <DataTable.Col<AdminUser>
        source="teams"
        disableSort
        render={(record) => <NamesWithRoles items={record.teams} to={(item) => `/teams/${encodeURIComponent(item.name)}`} />}
      />
      <DataTable.Col<AdminUser>
        source="workspaces"
        disableSort
        render={(record) => <NamesWithRoles items={record.workspaces} to={(item) => `/workspaces/${item.id}`} />}
      />
      <DataTable.Col<AdminUser> source="badges" disableSort render={(record) => <Badges record={record} />} />
      <DataTable.Col<AdminUser> source="created_at" render={(record) => formatDateTime(record.created_at)} />
    </DataTable>
  </List>
);
