import { DataTable, List, SelectInput, useGetList } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatDateTime } from '../../../utils/dates';
import { AdminSearchInput, adminListSx, adminTableSx, NamesWithRoles } from '../common';
import { AdminListActions } from '../ExportCsvButton';

interface AdminWorkspace {
  id: number;
  name: string;
  label?: string | null;
  namespace?: string | null;
  created_at?: string;
  team?: { id: number; name: string } | null;
  users?: { id: number; name: string; role?: string | null }[];
}

/** filter[team_id], with the teams of GET /api/tenants as choices. */
const TeamFilter = (props: { source: string; alwaysOn?: boolean }) => {
  const { data } = useGetList('tenants', { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' } });
  return <SelectInput {...props} label="resources.admin/workspaces.fields.team_id" choices={data ?? []} optionText="name" />;
};

const filters = [
  <AdminSearchInput key="q" source="q" alwaysOn />,
  <TeamFilter key="team_id" source="team_id" />,
];

/** /admin/workspaces: every workspace, its team and users (role); GET /api/admin/workspaces. Names open /admin/workspaces/{id}. */
export const AdminWorkspaceList = () => (
  <List<AdminWorkspace>
    resource="admin/workspaces"
    filters={filters}
    actions={<AdminListActions />}
    sort={{ field: 'name', order: 'ASC' }}
    perPage={25}
    sx={adminListSx}
  >
    <DataTable<AdminWorkspace> bulkActionButtons={false} rowClick={false} sx={adminTableSx}>
      <DataTable.Col<AdminWorkspace> source="name" render={(record) => <Link to={`/admin/workspaces/${record.id}`}>{record.name}</Link>} />
      <DataTable.Col<AdminWorkspace>
        source="team.name"
        disableSort
        render={(record) => (record.team ? <Link to={`/teams/${encodeURIComponent(record.team.name)}`}>{record.team.name}</Link> : '')}
      />
      <DataTable.Col<AdminWorkspace> source="users" disableSort render={(record) => <NamesWithRoles items={record.users} />} />
      <DataTable.Col<AdminWorkspace> source="created_at" render={(record) => formatDateTime(record.created_at)} />
    </DataTable>
  </List>
);
