import { Alert, Box, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { Loading, Title, useGetList, useGetOne, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import { InstallationPanel } from './InstallationPanel';
import { NodeActivity } from './NodeActivity';
import { NodeTeam } from './NodeTeam';
import { NodeWaiting } from './NodeWaiting';
import { NodeName, nodeLabel, useNodeTypeLabel } from './nodeParts';
import { NodeStatusBadge } from './NodeStatusBadge';
import { isAwaitingInstall, isInstalling, NODE_REFRESH_MS, type NodeRecord } from './types';
import { useNodeEvents } from './useNodeEvents';

const isNumericId = (value: string) => /^\d+$/.test(value);

/**
 * The node id of the URL: /nodes/{id}, or /nodes/{name} (links may use the name), found in the
 * user's node list.
 */
const useNodeId = (param: string): { id?: string; isPending: boolean; notFound: boolean } => {
  const byName = !isNumericId(param);
  const { data, isPending } = useGetList<NodeRecord>(
    'nodes',
    { pagination: { page: 1, perPage: 1000 }, sort: { field: 'id', order: 'DESC' } },
    { enabled: byName, retry: false },
  );
  if (!byName) return { id: param, isPending: false, notFound: false };
  if (isPending) return { isPending: true, notFound: false };
  const found = (data ?? []).find((node) => node.name === param);
  return found ? { id: String(found.id), isPending: false, notFound: false } : { isPending: false, notFound: true };
};

const NotFound = () => {
  const translate = useTranslate();
  return (
    <Box sx={{ py: 2 }}>
      <Title title="nodes.title" />
      <Alert severity="error">{translate('nodes.not_found')}</Alert>
    </Box>
  );
};

/** The node info (system facts and the cluster's nodeInfo) as formatted JSON. */
const NodeInfo = ({ info }: { info: NodeRecord['info'] }) => {
  const translate = useTranslate();
  return (
    <Card component="section" aria-labelledby="node-info-title">
      <CardContent>
        <Typography id="node-info-title" variant="h6" component="h2" gutterBottom>
          {translate('nodes.info')}
        </Typography>
        <Box
          component="pre"
          data-testid="node-info"
          sx={{ m: 0, p: 1.5, borderRadius: 1, bgcolor: 'action.hover', fontFamily: 'monospace', fontSize: '0.85rem', overflowX: 'auto' }}
        >
          {JSON.stringify(info ?? {}, null, 2)}
        </Box>
      </CardContent>
    </Card>
  );
};

/**
 * /nodes/{id} (or /nodes/{name}): before the first check-in ('to install' or no status) only the
 * installation panel, below a notice that the page waits for the machine; afterwards the
 * heading, 'Review your node configuration and status.', the installation panel, the node info
 * and its activity, with the same notice while the machine joins ('installing').
 * NodeStatusChanged events refetch the node and its activity, so the page changes by itself
 * when the machine checks in and joins; while it installs, it is also refetched every 15 s.
 */
export const NodeShow = () => {
  const { id: param = '' } = useParams();
  const translate = useTranslate();
  const typeLabel = useNodeTypeLabel();
  useNodeEvents();
  const resolved = useNodeId(param);
  const { data: node, isPending, error } = useGetOne<NodeRecord>(
    'nodes',
    { id: resolved.id as unknown as number },
    {
      enabled: resolved.id !== undefined,
      retry: false,
      refetchInterval: (query) => (isInstalling((query.state.data as NodeRecord | undefined)?.status) ? NODE_REFRESH_MS : false),
    },
  );

  if (resolved.notFound) return <NotFound />;
  if (resolved.isPending || (isPending && !error)) return <Loading />;
  if (error || !node) return <NotFound />;

  const title = nodeLabel(node) || translate('nodes.awaiting_installation');

  // Nobody ran the install yet: the installation panel, below what the page waits for (the
  // node's name is the page title).
  if (isAwaitingInstall(node.status)) {
    return (
      <Stack spacing={2} sx={{ py: 2 }}>
        <Title title={title} />
        <NodeWaiting status="to install" />
        <InstallationPanel node={node} />
      </Stack>
    );
  }

  return (
    <Stack spacing={2} sx={{ py: 2 }}>
      <Title title={title} />
      <Box>
        <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1">
            <NodeName node={node} />
          </Typography>
          <NodeStatusBadge status={node.status} />
          {node.type && <Chip size="small" variant="outlined" label={typeLabel(node.type)} />}
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {translate('nodes.review')}
        </Typography>
      </Box>
      {node.status === 'installing' && <NodeWaiting status="installing" />}
      <InstallationPanel node={node} />
      <NodeTeam node={node} />
      <NodeInfo info={node.info} />
      <NodeActivity nodeId={node.id} refetchInterval={isInstalling(node.status) ? NODE_REFRESH_MS : false} />
    </Stack>
  );
};
