import { Stack } from '@mui/material';
import { AutocompleteInput, DataTable, Link, List, ReferenceInput, useTranslate } from 'react-admin';
import { formatDateTime } from '../../../utils/dates';
import { BulkToolbar } from '../bulk';
import { AdminSearchInput, adminTableSx, NamesWithRoles } from '../common';
import { AdminListActions } from '../ExportCsvButton';
import { asideListSx, DateRangeFilter, EndFilter, FilterSidebar, searchAtServer } from '../FilterSidebar';
import { EndsCell } from '../lifecycle/EndsCell';
import type { EndStatus } from '../lifecycle/types';
import { CardLine, ListCards, usePhoneLayout } from '../ListCards';
import { BulkWorkspaceButtons } from './BulkWorkspaceButtons';

interface AdminWorkspace {
  id: number;
  name: string;
  label?: string | null;
  namespace?: string | null;
  created_at?: string;
  team?: { id: number; name: string } | null;
  users?: { id: number; name: string; role?: string | null }[];
  /** Its own end date, when it ends (its team's review date may come first) and where that stands. */
  expires_at?: string | null;
  ends_at?: string | null;
  status?: EndStatus;
}

/** filter[team_id], picked by an autocomplete searching GET /api/admin/teams?q= (10,000 teams). */
const filters = [
  <AdminSearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="team_id" source="team_id" reference="admin/teams" sort={{ field: 'name', order: 'ASC' }} alwaysOn>
    <AutocompleteInput label="admin_filters.team" optionText="name" filterToQuery={searchAtServer} sx={{ minWidth: 240 }} />
  </ReferenceInput>,
];

/**
 * /admin/workspaces: every workspace, its team and users (role), when it ends; GET
 * /api/admin/workspaces. Names open /admin/workspaces/{id}; checked rows can be deleted or
 * extended together, and "Select all N matching" extends everything the filter matches
 * (deletion goes by the rows checked only).
 */
const workspacesToolbar = (
  <BulkToolbar>
    <BulkWorkspaceButtons />
  </BulkToolbar>
);

const TeamLink = ({ record }: { record: AdminWorkspace }) =>
  record.team ? <Link to={`/teams/${encodeURIComponent(record.team.name)}`}>{record.team.name}</Link> : null;

/** Below sm: the same facts as the table's row, one card per workspace. */
const WorkspaceCard = ({ record }: { record: AdminWorkspace }) => (
  <Stack spacing={0.5}>
    <Link to={`/admin/workspaces/${record.id}`}>{record.name}</Link>
    {record.team && (
      <CardLine label="resources.admin/workspaces.fields.team">
        <TeamLink record={record} />
      </CardLine>
    )}
    {(record.users?.length ?? 0) > 0 && (
      <CardLine label="resources.admin/workspaces.fields.users">
        <NamesWithRoles items={record.users} />
      </CardLine>
    )}
    <CardLine label="resources.admin/workspaces.fields.expires_at">
      <EndsCell expiresAt={record.expires_at} endsAt={record.ends_at} status={record.status} />
    </CardLine>
    <CardLine label="resources.admin/workspaces.fields.created_at">{formatDateTime(record.created_at)}</CardLine>
  </Stack>
);

export const AdminWorkspaceList = () => {
  const phone = usePhoneLayout();
  const translate = useTranslate();
  return (
  <List<AdminWorkspace>
    resource="admin/workspaces"
    filters={filters}
    aside={
      <FilterSidebar>
        <EndFilter />
        <DateRangeFilter />
      </FilterSidebar>
    }
    actions={<AdminListActions />}
    sort={{ field: 'name', order: 'ASC' }}
    perPage={25}
    sx={asideListSx}
  >
    {phone ? (
      <ListCards<AdminWorkspace> label={translate('resources.admin/workspaces.name', { smart_count: 2 })} bulkActionsToolbar={workspacesToolbar}>
        {(record) => <WorkspaceCard record={record} />}
      </ListCards>
    ) : (
    <DataTable<AdminWorkspace>
      bulkActionButtons={<BulkWorkspaceButtons />}
      bulkActionsToolbar={workspacesToolbar}
      rowClick={false}
      sx={adminTableSx}
    >
      <DataTable.Col<AdminWorkspace> source="name" render={(record) => <Link to={`/admin/workspaces/${record.id}`}>{record.name}</Link>} />
      <DataTable.Col<AdminWorkspace>
        source="team.name"
        disableSort
        render={(record) => <TeamLink record={record} />}
      />
      <DataTable.Col<AdminWorkspace> source="users" disableSort render={(record) => <NamesWithRoles items={record.users} />} />
      <DataTable.Col<AdminWorkspace>
        source="expires_at"
        render={(record) => <EndsCell expiresAt={record.expires_at} endsAt={record.ends_at} status={record.status} />}
      />
      <DataTable.Col<AdminWorkspace> source="created_at" render={(record) => formatDateTime(record.created_at)} />
    </DataTable>
    )}
  </List>
  );
};
