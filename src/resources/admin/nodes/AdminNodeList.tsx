import { Link as MuiLink, Stack } from '@mui/material';
import { AutocompleteInput, DataTable, List, ReferenceInput, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { NodeStatusBadge } from '../../nodes/NodeStatusBadge';
import type { AdminNodeRecord } from '../../nodes/types';
import { AdminSearchInput, adminTableSx } from '../common';
import { BulkToolbar } from '../bulk';
import { AdminListActions } from '../ExportCsvButton';
import { ExportSelectedButton } from '../ExportSelectedButton';
import { asideListSx, ChoiceFilter, FilterSidebar, searchAtServer } from '../FilterSidebar';
import { CardLine, ListCards, usePhoneLayout } from '../ListCards';
import { Addresses, Capacity, ListClusterError, SystemInfo } from './parts';

const filters = [
  <AdminSearchInput key="q" source="q" alwaysOn />,
  <ReferenceInput key="owner_id" source="owner_id" reference="admin/users" sort={{ field: 'name', order: 'ASC' }} alwaysOn>
    <AutocompleteInput label="admin_filters.owner" optionText="name" filterToQuery={searchAtServer} sx={{ minWidth: 240 }} />
  </ReferenceInput>,
];

const STATUSES = ['to install', 'installing', 'ok', 'warning', 'error', 'unknown', 'disabled'];
const TYPES = ['raspberry-pi', 'jetson', 'x86-64', 'arm64', 'virtual-machine', 'other'];

/** Status (the console's nodes not installed yet included) and type, as filter[status|type]. */
const NodeFilters = () => {
  const translate = useTranslate();
  return (
    <FilterSidebar>
      <ChoiceFilter
        label="admin_filters.status"
        source="status"
        choices={STATUSES.map((id) => ({ id, name: translate(`admin_filters.node_statuses.${id}`) }))}
      />
      <ChoiceFilter label="admin_filters.type" source="type" choices={TYPES.map((id) => ({ id, name: id }))} />
    </FilterSidebar>
  );
};

/** A node not in the cluster yet has no cluster page: its console page (/nodes/{id}) stands in. */
const notInstalled = (record: AdminNodeRecord) => ['to install', 'installing'].includes(record.status?.state ?? '') && record.node_id != null;

export const adminNodePath = (name: string) => `/admin/nodes/${encodeURIComponent(name)}`;

/**
 * /admin/nodes: every cluster node and the nodes added in the console not installed yet
 * (GET /api/admin/nodes, paginator; filters status, type, owner): name linking to
 * /admin/nodes/{name}, addresses, capacity, system info, status and owner; checked rows: Export
 * selected. The cluster being unreachable (503) shows the server's message with 'Retry'.
 */
// The checked rows only: the toolbar's Export takes the whole filtered list.
const nodesToolbar = (
  <BulkToolbar selectAll={false}>
    <ExportSelectedButton />
  </BulkToolbar>
);

const NodeName = ({ record }: { record: AdminNodeRecord }) => (
  <MuiLink component={Link} to={notInstalled(record) ? `/nodes/${record.node_id}` : adminNodePath(record.name)} sx={{ fontWeight: 600 }}>
    {record.name}
  </MuiLink>
);

/** Below sm: the same facts as the table's row, one card per node. */
const NodeCard = ({ record }: { record: AdminNodeRecord }) => {
  const translate = useTranslate();
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
        <NodeName record={record} />
        <NodeStatusBadge status={record.status?.state} />
      </Stack>
      <CardLine label="resources.admin/nodes.fields.owner">{record.owner?.name ?? translate('nodes.admin.no_owner')}</CardLine>
      <Addresses record={record} />
      <Capacity record={record} />
      <SystemInfo record={record} />
    </Stack>
  );
};

export const AdminNodeList = () => {
  const translate = useTranslate();
  const phone = usePhoneLayout();
  return (
    <List<AdminNodeRecord>
      resource="admin/nodes"
      filters={filters}
      aside={<NodeFilters />}
      actions={<AdminListActions />}
      sort={{ field: 'name', order: 'ASC' }}
      perPage={25}
      error={<ListClusterError />}
      queryOptions={{ retry: false, onError: () => undefined }}
      sx={asideListSx}
    >
      {phone ? (
        <ListCards<AdminNodeRecord> label={translate('resources.admin/nodes.name', { smart_count: 2 })} bulkActionsToolbar={nodesToolbar}>
          {(record) => <NodeCard record={record} />}
        </ListCards>
      ) : (
      <DataTable<AdminNodeRecord>
        bulkActionButtons={<ExportSelectedButton />}
        bulkActionsToolbar={nodesToolbar}
        rowClick={false}
        sx={adminTableSx}
      >
        <DataTable.Col<AdminNodeRecord>
          source="name"
          render={(record) => <NodeName record={record} />}
        />
        <DataTable.Col<AdminNodeRecord> source="addresses" disableSort render={(record) => <Addresses record={record} />} />
        <DataTable.Col<AdminNodeRecord> source="capacity" disableSort render={(record) => <Capacity record={record} />} />
        <DataTable.Col<AdminNodeRecord> source="nodeInfo" disableSort render={(record) => <SystemInfo record={record} />} />
        <DataTable.Col<AdminNodeRecord> source="state" disableSort render={(record) => <NodeStatusBadge status={record.status?.state} />} />
        <DataTable.Col<AdminNodeRecord>
          source="owner"
          disableSort
          render={(record) => record.owner?.name ?? translate('nodes.admin.no_owner')}
        />
      </DataTable>
      )}
    </List>
  );
};
