import { Stack } from '@mui/material';
import { AutocompleteInput, DataTable, List, ReferenceInput, useTranslate } from 'react-admin';
import { NodeStatusBadge } from '../../nodes/NodeStatusBadge';
import type { AdminNodeRecord } from '../../nodes/types';
import { AdminSearchInput, adminTableSx } from '../common';
import { BulkToolbar } from '../bulk';
import { AdminListActions } from '../ExportCsvButton';
import { ExportSelectedButton } from '../ExportSelectedButton';
import { asideListSx, ChoiceFilter, FilterSidebar, searchAtServer } from '../FilterSidebar';
import { CardLine, ListCards, usePhoneLayout } from '../ListCards';
import { LastSeen, MachineSummary, NodeNameCell } from './listCells';
import { ListClusterError } from './parts';

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

// The checked rows only: the toolbar's Export takes the whole filtered list.
const nodesToolbar = (
  <BulkToolbar selectAll={false}>
    <ExportSelectedButton />
  </BulkToolbar>
);

/** Below sm: the same facts as the table's row, one card per node. */
const NodeCard = ({ record }: { record: AdminNodeRecord }) => {
  const translate = useTranslate();
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
        <NodeNameCell record={record} />
        <NodeStatusBadge status={record.status?.state} />
      </Stack>
      <CardLine label="resources.admin/nodes.fields.owner">{record.owner?.name ?? translate('nodes.admin.no_owner')}</CardLine>
      <CardLine label="resources.admin/nodes.fields.lastSeen">
        <LastSeen record={record} />
      </CardLine>
      <MachineSummary record={record} />
    </Stack>
  );
};

/**
 * /admin/nodes: every cluster node and the nodes added in the console not installed yet
 * (GET /api/admin/nodes, paginator; filters status, type, owner): the name linking to
 * /admin/nodes/{name} with the addresses under it, the machine (capacity and system info in
 * short), status, owner and when it was last seen; checked rows: Export selected. The
 * cluster being unreachable (503) shows the server's message with 'Retry'.
 */
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
        <DataTable<AdminNodeRecord> bulkActionButtons={<ExportSelectedButton />} bulkActionsToolbar={nodesToolbar} rowClick={false} sx={adminTableSx}>
          <DataTable.Col<AdminNodeRecord> source="name" render={(record) => <NodeNameCell record={record} />} />
          <DataTable.Col<AdminNodeRecord> source="machine" disableSort render={(record) => <MachineSummary record={record} />} />
          <DataTable.Col<AdminNodeRecord> source="state" disableSort render={(record) => <NodeStatusBadge status={record.status?.state} />} />
          <DataTable.Col<AdminNodeRecord>
            source="owner"
            disableSort
            render={(record) => record.owner?.name ?? translate('nodes.admin.no_owner')}
          />
          <DataTable.Col<AdminNodeRecord> source="lastSeen" disableSort render={(record) => <LastSeen record={record} />} />
        </DataTable>
      )}
    </List>
  );
};
