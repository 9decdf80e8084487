import { ActivityDescription } from '../../components/ActivityDescription';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Table, TableBody, TableCell, TableHead, TableRow, Typography, useMediaQuery, type Theme } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { type Identifier, useDataProvider, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import type { NodeActivityEntry } from './types';

import { errorMessage } from '../../httpClient';
import { formatDateTime } from '../../utils/dates';
import { SeverityChip } from '../admin/common';

/** react-query key of a node's activity (under 'nodes': invalidating the nodes refreshes it too). */
export const nodeActivityKey = (id: Identifier) => ['nodes', 'activity', String(id)];

/**
 * The activity table: Date (in the reader's locale), Severity badge, Description. On a phone
 * the badge goes under the date, so the description keeps the width instead of the table
 * scrolling sideways.
 */
export const NodeActivityTable = ({ entries }: { entries: NodeActivityEntry[] }) => {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  if (entries.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('nodes.activity.empty')}
      </Typography>
    );
  }
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ minWidth: phone ? undefined : 800 }} aria-label={translate('nodes.activity.title')}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: phone ? undefined : 160 }}>{translate('nodes.activity.date')}</TableCell>
            {!phone && <TableCell sx={{ width: 120 }}>{translate('nodes.activity.severity')}</TableCell>}
            <TableCell>{translate('nodes.activity.description')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {entries.map((entry) => (
            <TableRow key={entry.id}>
              <TableCell sx={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                {formatDateTime(entry.created_at)}
                {phone && (
                  <Box sx={{ mt: 0.5 }}>
                    <SeverityChip severity={entry.properties?.severity ?? 'info'} />
                  </Box>
                )}
              </TableCell>
              {!phone && (
                <TableCell>
                  <SeverityChip severity={entry.properties?.severity ?? 'info'} />
                </TableCell>
              )}
              <TableCell sx={{ verticalAlign: 'top', overflowWrap: 'anywhere' }}>
                <ActivityDescription description={entry.description} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
};

/** A card titled 'Activity' around the table. */
export const NodeActivityCard = ({ children }: { children: React.ReactNode }) => {
  const translate = useTranslate();
  return (
    <Card component="section" aria-labelledby="node-activity-title">
      <CardContent>
        <Typography id="node-activity-title" variant="h6" component="h2" gutterBottom>
          {translate('nodes.activity.title')}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
};

/** GET /api/nodes/{id}/activity, refetched with the node (realtime or the fallback interval). */
export const NodeActivity = ({ nodeId, refetchInterval }: { nodeId: Identifier; refetchInterval?: number | false }) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error, isPending, refetch, isFetching } = useQuery({
    queryKey: nodeActivityKey(nodeId),
    queryFn: ({ signal }) => dataProvider.getNodeActivity(nodeId, signal),
    retry: false,
    refetchInterval,
  });
  return (
    <NodeActivityCard>
      {isPending ? (
        <CircularProgress size={24} aria-label={translate('nodes.activity.loading')} />
      ) : error && !data ? (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={() => void refetch()} disabled={isFetching}>
              {translate('nodes.retry')}
            </Button>
          }
        >
          {translate('nodes.activity.error')} {translate(errorMessage(error), { _: errorMessage(error) })}
        </Alert>
      ) : (
        <NodeActivityTable entries={data ?? []} />
      )}
    </NodeActivityCard>
  );
};
