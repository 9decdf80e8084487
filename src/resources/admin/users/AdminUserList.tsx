import { Chip, type Theme, useMediaQuery } from '@mui/material';
import { DataTable, List, NullableBooleanInput, useTranslate } from 'react-admin';
import { formatDateTime } from '../../../utils/dates';
import { AdminSearchInput, adminListSx, adminTableSx, Chips, NamesWithRoles } from '../common';
import { AdminListActions } from '../ExportCsvButton';
import { BulkUserButtons } from './BulkUserButtons';
import { UserListAside } from './UserListAside';

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

const search = <AdminSearchInput key="q" source="q" alwaysOn />;
// Below md the sidebar (UserListAside) is hidden and the filter button offers the same flags.
const smallScreenFilters = [
  search,
  <NullableBooleanInput key="admin" source="admin" />,
  <NullableBooleanInput key="enabled" source="enabled" />,
  <NullableBooleanInput key="verified" source="verified" label="adminUsers.fields.verified" />,
  <NullableBooleanInput key="policy" source="policy" label="adminUsers.fields.policy" />,
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

/**
 * /admin/users: every user with teams and workspaces (role), admin and enabled badges; rows
 * open /admin/users/{id}; checked rows (or all matching the filter) can be disabled or enabled.
 */
export const AdminUserList = () => {
  const isSmall = useMediaQuery<Theme>((theme) => theme.breakpoints.down('md'));
  return (
    <List<AdminUser>
      resource="admin/users"
      filters={isSmall ? smallScreenFilters : [search]}
      aside={<UserListAside />}
      actions={<AdminListActions />}
      sort={{ field: 'name', order: 'ASC' }}
      perPage={25}
      sx={adminListSx}
    >
      <DataTable<AdminUser> bulkActionButtons={<BulkUserButtons />} rowClick={(id) => `/admin/users/${id}`} sx={adminTableSx}>
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
};
