import { Box, Chip, Stack, Typography } from '@mui/material';
import { AutocompleteInput, DataTable, type Identifier, Link, List, ReferenceInput, useListContext, useTranslate } from 'react-admin';
import { RoleChip } from '../../../components/RoleChip';
import { formatDateTime } from '../../../utils/dates';
import { AdminSearchInput, Chips } from '../common';
import { AdminListActions } from '../ExportCsvButton';
import { BulkToolbar } from '../bulk';
import { asideListSx, searchAtServer } from '../FilterSidebar';
import { ListCards, usePhoneLayout } from '../ListCards';
import { BulkUserButtons } from './BulkUserButtons';
import { FlagIcons, MoreChip } from './UserListCells';
import { UserListAside } from './UserListAside';

interface Named {
  id: number;
  name: string;
  role?: string | null;
}

interface AdminUser {
  id: number;
  name: string;
  email: string;
  admin: boolean;
  enabled: boolean;
  email_verified_at?: string | null;
  aup_accepted_at?: string | null;
  created_at?: string;
  teams?: Named[];
  workspaces?: Named[];
}

const search = <AdminSearchInput key="q" source="q" alwaysOn />;
/** filter[team_id], picked by an autocomplete searching GET /api/admin/teams?q= (a menu of 10,000 teams is unusable). */
const teamFilter = (
  <ReferenceInput key="team_id" source="team_id" reference="admin/teams" sort={{ field: 'name', order: 'ASC' }} alwaysOn>
    <AutocompleteInput label="admin_filters.team" optionText="name" filterToQuery={searchAtServer} sx={{ minWidth: 220 }} />
  </ReferenceInput>
);
/**
 * The table fits its card beside the filters at 1280 px (fixed layout: each cell keeps to its
 * column, long names and emails end with an ellipsis); on phones it keeps 720 px and scrolls.
 */
const usersTableSx = {
  // react-admin's DataTable sets `table-layout: auto` on .RaDataTable-table.
  '& table.RaDataTable-table': { minWidth: 720, tableLayout: 'fixed' },
  '& .MuiTableCell-root': { px: 1 },
  '& th.MuiTableCell-paddingCheckbox': { width: 48 },
  '& th.column-teams': { width: '20%' },
  '& th.column-workspaces': { width: '17%' },
  '& th.column-status': { width: 152 },
  '& th.column-created_at': { width: 96 },
} as const;

/** Name, and the email under it; both end with an ellipsis when too long (the title has them whole). */
// The name is a link (the row opens the same page on a click): a keyboard reaches it with Tab.
const NameAndEmail = ({ record }: { record: AdminUser }) => (
  <Box sx={{ minWidth: 0 }}>
    <Typography variant="body2" noWrap title={record.name}>
      <Link to={adminUserPath(record.id)} onClick={(event: React.MouseEvent) => event.stopPropagation()}>
        {record.name}
      </Link>
    </Typography>
    <Typography variant="caption" component="div" noWrap title={record.email} sx={{ color: 'text.secondary' }}>
      {record.email}
    </Typography>
  </Box>
);

/**
 * The first team (or workspace) with its role, and '+N' for the others (listed on hover and to
 * screen readers). `preferred` (the team filtered on) comes first.
 */
const FirstOfMany = ({ items, to, more, preferred }: { items?: Named[] | null; to: (item: Named) => string; more: string; preferred?: number }) => {
  const sorted = [...(items ?? [])].sort((a, b) => Number(b.id === preferred) - Number(a.id === preferred));
  const [first, ...rest] = sorted;
  if (!first) return null;
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="body2" noWrap title={first.name}>
        <Link to={to(first)} onClick={(event: React.MouseEvent) => event.stopPropagation()}>
          {first.name}
        </Link>
      </Typography>
      <Stack direction="row" spacing={0.5} sx={{ mt: 0.25, alignItems: 'center' }}>
        <RoleChip role={first.role} />
        <MoreChip items={rest} label={more} />
      </Stack>
    </Box>
  );
};

/** The user's teams, the one the list is filtered on first. */
const Teams = ({ record }: { record: AdminUser }) => {
  const { filterValues } = useListContext();
  const teamId = filterValues.team_id === undefined || filterValues.team_id === '' ? undefined : Number(filterValues.team_id);
  return <FirstOfMany items={record.teams} to={(item) => `/teams/${encodeURIComponent(item.name)}`} more="adminUsers.list.more_teams" preferred={teamId} />;
};

/** Email verified and policy accepted as icons (dates on hover), then the admin and enabled badges. */
const Status = ({ record }: { record: AdminUser }) => {
  const translate = useTranslate();
  return (
    <Chips>
      <FlagIcons verifiedAt={record.email_verified_at ?? null} acceptedAt={record.aup_accepted_at ?? null} />
      <Chip
        size="small"
        variant="outlined"
        color={record.enabled ? 'success' : 'error'}
        label={translate(record.enabled ? 'resources.admin/users.enabled' : 'resources.admin/users.disabled')}
      />
      {record.admin && <Chip size="small" color="secondary" label={translate('resources.admin/users.admin')} />}
    </Chips>
  );
};

/** Below sm: the same facts as the table's row, one card per person. */
const UserCard = ({ record }: { record: AdminUser }) => (
  <Stack spacing={0.5}>
    <NameAndEmail record={record} />
    <Status record={record} />
    <Teams record={record} />
    <FirstOfMany items={record.workspaces} to={(item) => `/workspaces/${item.id}`} more="adminUsers.list.more_workspaces" />
    <Typography variant="caption" sx={{ color: 'text.secondary' }}>
      {formatDateTime(record.created_at)}
    </Typography>
  </Stack>
);

const adminUserPath = (id: Identifier) => `/admin/users/${id}`;

/** The bulk toolbar: Disable / Enable, on the checked rows or (after "Select all N matching") the whole filter. */
const bulkToolbar = (
  <BulkToolbar selectAllLabel="adminUsers.bulk.select_all" allSelectedLabel="adminUsers.bulk.all_selected">
    <BulkUserButtons />
  </BulkToolbar>
);

/**
 * /admin/users: every user with teams and workspaces (role), verified and policy flags, admin
 * and enabled badges; rows open /admin/users/{id}; checked rows (or all matching the filter)
 * can be disabled or enabled. Filters: search, team (autocomplete), and the flags (sidebar).
 */
export const AdminUserList = () => {
  const phone = usePhoneLayout();
  const translate = useTranslate();
  return (
    <List<AdminUser>
      resource="admin/users"
      filters={[search, teamFilter]}
      aside={<UserListAside />}
      actions={<AdminListActions />}
      sort={{ field: 'name', order: 'ASC' }}
      perPage={25}
      sx={asideListSx}
    >
      {phone ? (
        <ListCards<AdminUser> label={translate('resources.admin/users.name', { smart_count: 2 })} bulkActionsToolbar={bulkToolbar}>
          {(record) => <UserCard record={record} />}
        </ListCards>
      ) : (
      <DataTable<AdminUser> bulkActionButtons={<BulkUserButtons />} bulkActionsToolbar={bulkToolbar} rowClick={(id) => adminUserPath(id)} sx={usersTableSx}>
        <DataTable.Col<AdminUser> source="name" render={(record) => <NameAndEmail record={record} />} />
        <DataTable.Col<AdminUser>
          source="teams"
          disableSort
          render={(record) => <Teams record={record} />}
        />
        <DataTable.Col<AdminUser>
          source="workspaces"
          disableSort
          render={(record) => <FirstOfMany items={record.workspaces} to={(item) => `/workspaces/${item.id}`} more="adminUsers.list.more_workspaces" />}
        />
        <DataTable.Col<AdminUser> source="status" disableSort render={(record) => <Status record={record} />} />
        <DataTable.Col<AdminUser> source="created_at" render={(record) => formatDateTime(record.created_at)} />
      </DataTable>
      )}
    </List>
  );
};
