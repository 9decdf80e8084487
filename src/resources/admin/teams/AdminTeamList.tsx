import { DataTable, List, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../../utils/dates';
import { AdminSearchInput, adminTableSx, NamesWithRoles } from '../common';
import { AdminListActions } from '../ExportCsvButton';
import { asideListSx, ChoiceFilter, DateRangeFilter, FilterSidebar } from '../FilterSidebar';

interface AdminTeam {
  id: number;
  name: string;
  fullname?: string | null;
  shortname?: string | null;
  created_at?: string;
  /** The list answers counts, not members (issue 12: 25 teams listed every member inline). */
  member_count?: number;
  workspace_count?: number;
  workspaces?: { id: number; name: string }[];
}

const filters = [<AdminSearchInput key="q" source="q" alwaysOn />];

/** Creation date and whether the team has workspaces (filter[from|to], filter[has_workspaces]). */
const TeamFilters = () => {
  const translate = useTranslate();
  return (
    <FilterSidebar>
      <DateRangeFilter />
      <ChoiceFilter
        label="admin_filters.workspaces"
        source="has_workspaces"
        choices={[
          { id: 'true', name: translate('admin_filters.with_workspaces') },
          { id: 'false', name: translate('admin_filters.without_workspaces') },
        ]}
      />
    </FilterSidebar>
  );
};

/** /admin/teams: every team with its member count and workspaces, each linking to /admin/teams/{id}; GET /api/admin/teams (paginated). */
export const AdminTeamList = () => (
  <List<AdminTeam>
    resource="admin/teams"
    filters={filters}
    aside={<TeamFilters />}
    actions={<AdminListActions />}
    sort={{ field: 'name', order: 'ASC' }}
    perPage={25}
    sx={asideListSx}
  >
    <DataTable<AdminTeam> bulkActionButtons={false} rowClick={false} sx={adminTableSx}>
      <DataTable.Col<AdminTeam> source="name" render={(record) => <Link to={`/admin/teams/${record.id}`}>{record.name}</Link>} />
      <DataTable.Col<AdminTeam> source="fullname" />
      <DataTable.Col<AdminTeam> source="member_count" disableSort />
      <DataTable.Col<AdminTeam> source="workspace_count" label="admin_filters.columns.workspace_count" disableSort />
      <DataTable.Col<AdminTeam>
        source="workspaces"
        disableSort
        render={(record) => <NamesWithRoles items={record.workspaces} to={(item) => `/workspaces/${item.id}`} />}
      />
      <DataTable.Col<AdminTeam> source="created_at" render={(record) => formatDateTime(record.created_at)} />
    </DataTable>
  </List>
);
