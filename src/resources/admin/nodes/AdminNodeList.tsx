import { Link as MuiLink } from '@mui/material';
import { DataTable, List, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { NodeStatusBadge } from '../../nodes/NodeStatusBadge';
import type { AdminNodeRecord } from '../../nodes/types';
import { AdminSearchInput, adminListSx, adminTableSx } from '../common';
import { AdminListActions } from '../ExportCsvButton';
import { Addresses, Capacity, ListClusterError, SystemInfo } from './parts';

const filters = [<AdminSearchInput key="q" source="q" alwaysOn />];

export const adminNodePath = (name: string) => `/admin/nodes/${encodeURIComponent(name)}`;

/**
 * /admin/nodes: every cluster node (GET /api/admin/nodes, paginator): name linking to
 * /admin/nodes/{name}, addresses, capacity, system info, status and owner. The cluster being
 * unreachable (503) shows the server's message with 'Retry'.
 */
export const AdminNodeList = () => {
  const translate = useTranslate();
  return (
    <List<AdminNodeRecord>
      resource="admin/nodes"
      filters={filters}
      actions={<AdminListActions />}
      sort={{ field: 'name', order: 'ASC' }}
      perPage={25}
      error={<ListClusterError />}
      queryOptions={{ retry: false, onError: () => undefined }}
      sx={adminListSx}
    >
      <DataTable<AdminNodeRecord> bulkActionButtons={false} rowClick={false} sx={adminTableSx}>
        <DataTable.Col<AdminNodeRecord>
          source="name"
          render={(record) => (
            <MuiLink component={Link} to={adminNodePath(record.name)} sx={{ fontWeight: 600 }}>
              {record.name}
            </MuiLink>
          )}
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
    </List>
  );
};
