import { Box, CircularProgress, List, ListItem, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { EmptyState } from '../../components/EmptyState';
import { HOME_NODES_PARAMS } from '../../pages/home/homeLists';
import { NodeName, useNodeTypeLabel } from './nodeParts';
import { NodeStatusBadge } from './NodeStatusBadge';
import type { NodeRecord } from './types';
import { useNodeEvents } from './useNodeEvents';

/** The home card's content: the user's newest nodes with their status badges, or an empty state. */
export const HomeNodes = () => {
  const translate = useTranslate();
  const typeLabel = useNodeTypeLabel();
  useNodeEvents();
  const { data, total, isPending, error } = useGetList<NodeRecord>('nodes', HOME_NODES_PARAMS, { retry: false });
  if (isPending) {
    return (
      <Box sx={{ textAlign: 'center', py: 2 }}>
        <CircularProgress size={24} aria-label={translate('app.loading')} />
      </Box>
    );
  }
  if (error) return <EmptyState title={translate('home.nodes.error')} />;
  if (!data || data.length === 0) {
    return <EmptyState title={translate('home.nodes.empty')} body={translate('home.nodes.later')} />;
  }
  const more = (total ?? data.length) - data.length;
  return (
    <>
      <List dense disablePadding aria-label={translate('home.nodes.title')}>
        {data.map((node) => (
          <ListItem key={node.id} disablePadding secondaryAction={<NodeStatusBadge status={node.status} />}>
            <ListItemButton component={Link} to={`/nodes/${node.id}`}>
              <ListItemText primary={<NodeName node={node} />} secondary={typeLabel(node.type) || undefined} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      {more > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {translate('home.nodes.more', { smart_count: more })}
        </Typography>
      )}
    </>
  );
};
