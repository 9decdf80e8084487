import DevicesOtherOutlinedIcon from '@mui/icons-material/DevicesOtherOutlined';
import { Box, Link as MuiLink, List as MuiList, ListItem, ListItemButton, ListItemText, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import type { Query, QueryKey } from '@tanstack/react-query';
import { DataTable, type GetListResult, List, TopToolbar, useListContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { formatDateTime } from '../../utils/dates';
import { NodeStatusBadge } from './NodeStatusBadge';
import { isInstalling, NODE_REFRESH_MS, type NodeRecord } from './types';
import { useNodeEvents } from './useNodeEvents';

// Shared with the home page and the node page (nodeParts.tsx: without this page's list machinery).
export { AddNodeButton, NodeName, useNodeTypeLabel } from './nodeParts';
import { AddNodeButton, NodeName, useNodeTypeLabel } from './nodeParts';

const Empty = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ width: '100%' }}>
      <EmptyState icon={<DevicesOtherOutlinedIcon />} title={translate('nodes.empty.title')} body={translate('nodes.empty.body')} />
      <Box sx={{ textAlign: 'center', pb: 3 }}>
        <AddNodeButton />
      </Box>
    </Box>
  );
};

/**
 * Below `sm`, in the manner of react-admin's demo SimpleList: one row per node, the whole row a
 * link to the node's page (its path is /nodes/{id}, not react-admin's show path, hence our own).
 */
const NodeRows = () => {
  const translate = useTranslate();
  const typeLabel = useNodeTypeLabel();
  const { data } = useListContext<NodeRecord>();
  return (
    <MuiList>
      {(data ?? []).map((node) => (
        <ListItem key={node.id} disablePadding divider>
          <ListItemButton component={Link} to={`/nodes/${node.id}`}>
            <ListItemText
              primary={
                <Stack direction="row" spacing={1} component="span" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                  <Box component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                    <NodeName node={node} />
                  </Box>
                  <NodeStatusBadge status={node.status} />
                </Stack>
              }
              secondary={`${typeLabel(node.type)} · ${node.lastActive ? formatDateTime(node.lastActive) : translate('nodes.never')}`}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </MuiList>
  );
};

/** Poll while a node is being installed (the realtime event is the main path). */
const refetchWhileInstalling = (query: Query<GetListResult<NodeRecord>, Error, GetListResult<NodeRecord>, QueryKey>) =>
  (query.state.data?.data ?? []).some((node: NodeRecord) => isInstalling(node.status)) ? NODE_REFRESH_MS : false;

/** /nodes: the user's nodes (GET /api/nodes): Node, Type, Last active, Status; 'Add a Node'. */
export const NodeList = () => {
  const translate = useTranslate();
  const typeLabel = useNodeTypeLabel();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  useNodeEvents();
  return (
    <List<NodeRecord>
      resource="nodes"
      sort={{ field: 'id', order: 'DESC' }}
      perPage={25}
      actions={
        <TopToolbar>
          <AddNodeButton />
        </TopToolbar>
      }
      empty={<Empty />}
      queryOptions={{ refetchInterval: refetchWhileInstalling }}
      sx={{ '& .RaDataTable-tableWrapper': { overflowX: 'auto' } }}
    >
      <Typography variant="body2" color="text.secondary" sx={{ px: 2, pt: 2 }}>
        {translate('nodes.intro')}
      </Typography>
      {phone ? (
        <NodeRows />
      ) : (
        <DataTable<NodeRecord> bulkActionButtons={false} rowClick={false} sx={{ '& table': { minWidth: 800 } }}>
          <DataTable.Col<NodeRecord>
            source="name"
            render={(record) => (
              <MuiLink component={Link} to={`/nodes/${record.id}`} sx={{ fontWeight: 600 }}>
                <NodeName node={record} />
              </MuiLink>
            )}
          />
          <DataTable.Col<NodeRecord> source="type" render={(record) => typeLabel(record.type)} />
          <DataTable.Col<NodeRecord>
            source="lastActive"
            render={(record) => (record.lastActive ? formatDateTime(record.lastActive) : translate('nodes.never'))}
          />
          <DataTable.Col<NodeRecord> source="status" render={(record) => <NodeStatusBadge status={record.status} />} />
        </DataTable>
      )}
    </List>
  );
};
