import AddIcon from '@mui/icons-material/Add';
import DevicesOtherOutlinedIcon from '@mui/icons-material/DevicesOtherOutlined';
import { Box, Button, Link as MuiLink, Typography } from '@mui/material';
import type { Query } from '@tanstack/react-query';
import { DataTable, type GetListResult, List, TopToolbar, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { formatDateTime } from '../../utils/dates';
import { NodeStatusBadge } from './NodeStatusBadge';
import { isInstalling, NODE_REFRESH_MS, type NodeRecord } from './types';
import { useNodeEvents } from './useNodeEvents';

/** 'Add a Node' → /nodes/create. */
export const AddNodeButton = ({ variant = 'contained' }: { variant?: 'contained' | 'outlined' | 'text' }) => {
  const translate = useTranslate();
  return (
    <Button component={Link} to="/nodes/create" variant={variant} startIcon={<AddIcon />} size="small">
      {translate('nodes.add')}
    </Button>
  );
};

/** The readable label of a node type ('raspberry-pi' → 'Raspberry Pi'); unknown types as they are. */
export const useNodeTypeLabel = () => {
  const translate = useTranslate();
  return (type: string | null | undefined) => (type ? translate(`nodes.types.${type}`, { _: type }) : '');
};

/** The node's name, or 'awaiting installation' while the cluster has not named it yet. */
export const NodeName = ({ node }: { node: Pick<NodeRecord, 'name'> }) => {
  const translate = useTranslate();
  return node.name ? (
    <>{node.name}</>
  ) : (
    <Box component="span" sx={{ fontStyle: 'italic', color: 'text.secondary' }}>
      {translate('nodes.awaiting_installation')}
    </Box>
  );
};

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

/** Poll while a node is being installed (the realtime event is the main path). */
const refetchWhileInstalling = (query: Query<GetListResult<NodeRecord>, any, any, any>) =>
  (query.state.data?.data ?? []).some((node: NodeRecord) => isInstalling(node.status)) ? NODE_REFRESH_MS : false;

/** /nodes: the user's nodes (GET /api/nodes): Node, Type, Last active, Status; 'Add a Node'. */
export const NodeList = () => {
  const translate = useTranslate();
  const typeLabel = useNodeTypeLabel();
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
    </List>
  );
};
