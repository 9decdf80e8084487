import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type ChipProps,
  type Theme,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useChannelEvent } from '../../realtime/RealtimeProvider';
import { wasWorkspaceDeleted } from '../../realtime/deletedWorkspaces';
import { type SubscriptionEnded, subscriptionEndedNotice, useSubscriptionEnded } from '../../realtime/subscriptionEnded';
import { CopyButton } from '../../components/CopyButton';
import { EmptyState } from '../../components/EmptyState';
import type { Pod } from './types';

import { useSettings } from '../../settings';
import { serverMessage } from '../../httpClient';
import { formatDateTime } from '../../utils/dates';
import { CommandLine } from './KubeconfigPanel';
import { PodLogsDialog } from './PodLogsDialog';

/**
 * The list follows the workspace channel's PodsChanged events; polling stays as the fallback
 * for when the realtime connection is down, so it can be slow.
 */
export const PODS_REFRESH_MS = 30_000;

/**
 * A lost access is told after this pause, unless the page is left meanwhile or the workspace
 * turns out to be deleted: when a platform admin deletes it, its subscription ends and
 * WorkspaceDeleted (in either order) takes the member home with the notice that says why
 * (useUserEvents), which this one would otherwise hold back or follow.
 */
export const ACCESS_ENDED_NOTICE_DELAY_MS = 600;
/** While the cluster cannot be reached, the list is tried again this often. */
export const PODS_RETRY_MS = 10_000;

/** Pod phase colours: Running green, any other phase gray. */
export const podPhaseColor = (phase?: string | null): ChipProps['color'] => (phase === 'Running' ? 'success' : 'default');

export const START_POD_COMMAND =
  "kubectl --kubeconfig <file> run hello --image=busybox -- sh -c 'while true; do date; sleep 5; done'";

const PhaseChip = ({ pod }: { pod: Pod }) => {
  const translate = useTranslate();
  const phase = pod.status?.phase || null;
  return <Chip size="small" label={phase ?? translate('workspaces.pod_unknown_phase')} color={podPhaseColor(phase)} data-phase={phase ?? ''} />;
};

const LogsButton = ({ pod, onLogs }: { pod: Pod; onLogs: (pod: Pod) => void }) => {
  const translate = useTranslate();
  return (
    <Button size="small" variant="outlined" onClick={() => onLogs(pod)} aria-label={translate('workspaces.logs_for', { name: pod.name })}>
      {translate('workspaces.logs')}
    </Button>
  );
};

/** From `sm` up: the pods as a table (at least 800 px wide like every table, scrolling inside its card). */
const PodTable = ({ pods, onLogs }: { pods: Pod[]; onLogs: (pod: Pod) => void }) => {
  const translate = useTranslate();
  return (
    <TableContainer sx={{ overflowX: 'auto' }}>
      <Table size="small" sx={{ minWidth: 800 }} aria-labelledby="workspace-pods-title">
        <TableHead>
          <TableRow>
            <TableCell>{translate('workspaces.pod_fields.name')}</TableCell>
            <TableCell>{translate('workspaces.pod_fields.pod_ip')}</TableCell>
            <TableCell>{translate('workspaces.pod_fields.host_ip')}</TableCell>
            <TableCell>{translate('workspaces.pod_fields.phase')}</TableCell>
            <TableCell>{translate('workspaces.pod_fields.start_time')}</TableCell>
            <TableCell align="right">{translate('workspaces.pod_fields.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {pods.map((pod) => (
            <TableRow key={pod.name}>
              <TableCell sx={{ fontFamily: 'monospace' }}>{pod.name}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{pod.status?.podIP || '—'}</TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{pod.status?.hostIP || '—'}</TableCell>
              <TableCell>
                <PhaseChip pod={pod} />
              </TableCell>
              <TableCell>{formatDateTime(pod.status?.startTime) || '—'}</TableCell>
              <TableCell align="right">
                <LogsButton pod={pod} onLogs={onLogs} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
};

/**
 * Below `sm`: one card per pod, its fields labelled and the Logs button within reach, where the
 * table would put Logs beyond a sideways scroll.
 */
const PodCards = ({ pods, onLogs }: { pods: Pod[]; onLogs: (pod: Pod) => void }) => {
  const translate = useTranslate();
  const field = (label: string, value: string) => (
    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {label}:
      </Box>{' '}
      <Box component="span" sx={{ fontFamily: 'monospace' }}>
        {value}
      </Box>
    </Typography>
  );
  return (
    <Stack component="ul" spacing={1} aria-labelledby="workspace-pods-title" sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {pods.map((pod) => (
        <Box component="li" key={pod.name} data-pod={pod.name} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}>
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 0.5 }}>
            <Typography sx={{ fontFamily: 'monospace', fontWeight: 600, overflowWrap: 'anywhere' }}>{pod.name}</Typography>
            <PhaseChip pod={pod} />
          </Stack>
          {field(translate('workspaces.pod_fields.pod_ip'), pod.status?.podIP || '—')}
          {field(translate('workspaces.pod_fields.host_ip'), pod.status?.hostIP || '—')}
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center', mt: 1 }}>
            <Typography variant="caption" color="text.secondary">
              {formatDateTime(pod.status?.startTime) || '—'}
            </Typography>
            <LogsButton pod={pod} onLogs={onLogs} />
          </Stack>
        </Box>
      ))}
    </Stack>
  );
};

/**
 * Members' Pods section: GET /api/pods?namespace={namespace}, listed again whenever the
 * workspace channel says a pod changed (and every 30 s as a fallback). A 503 (cluster
 * unreachable) shows the server's message and keeps retrying; the page never breaks. When the
 * server ends the workspace subscription (the member was removed, the session ended), the
 * section says why and stops: no more listing, polling or logs.
 */
export const PodsSection = ({
  workspaceId,
  namespace,
  workspaceName,
}: {
  workspaceId: number;
  namespace?: string | null;
  /** How the notice names the workspace (its label); the namespace when absent. */
  workspaceName?: string;
}) => {
  const translate = useTranslate();
  const notify = useNotify();
  const [ended, setEnded] = useState<SubscriptionEnded | null>(null);
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { sandbox } = useSettings();
  // The pod stays set while the dialog closes, so its title does not blank out mid-transition.
  const [logsOf, setLogsOf] = useState<Pod | null>(null);
  const [logsOpen, setLogsOpen] = useState(false);
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { data, error, isPending, refetch, isFetching } = useQuery({
    queryKey: ['pods', namespace],
    queryFn: ({ signal }) => dataProvider.getPods(namespace as string, signal),
    enabled: !!namespace && !ended,
    refetchInterval: (query) => (ended ? false : query.state.error ? PODS_RETRY_MS : PODS_REFRESH_MS),
    retry: false,
  });
  const channel = namespace && !ended ? `workspace.${workspaceId}` : null;
  useChannelEvent(channel, 'PodsChanged', () => void refetch());
  useSubscriptionEnded(channel, (why) => {
    setEnded(why);
    setLogsOpen(false);
  });
  useEffect(() => {
    if (!ended) return;
    const notice = subscriptionEndedNotice(ended, 'workspaces.access_ended', { name: workspaceName ?? namespace ?? String(workspaceId) });
    const tell = () => notify(notice.key, { type: 'warning', messageArgs: notice.args });
    if (ended.reason !== 'access-ended') return void tell();
    const timer = setTimeout(() => {
      if (!wasWorkspaceDeleted(workspaceId)) tell();
    }, ACCESS_ENDED_NOTICE_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per end (the names do not change meanwhile)
  }, [ended]);

  const pods = data ?? [];
  let body;
  if (ended) {
    const notice = subscriptionEndedNotice(ended, 'workspaces.access_ended', { name: workspaceName ?? namespace ?? String(workspaceId) });
    body = (
      <Alert severity="warning" role="status">
        <Typography variant="body2">{translate(notice.key, notice.args)}</Typography>
        <Typography variant="body2">{translate('workspaces.access_ended_pods')}</Typography>
      </Alert>
    );
  } else if (!namespace) {
    body = <EmptyState title={translate('workspaces.pods_empty')} />;
  } else if (isPending && !error) {
    body = (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', py: 2 }} role="status">
        <CircularProgress size={20} />
        <Typography color="text.secondary">{translate('workspaces.pods_loading')}</Typography>
      </Stack>
    );
  } else if (pods.length === 0 && !error) {
    body = (
      <EmptyState
        title={translate('workspaces.pods_empty')}
        body={
          <>
            {translate('workspaces.pods_empty_howto')}
            <CommandLine command={START_POD_COMMAND} />
            <CopyButton text={START_POD_COMMAND} size="small" sx={{ mt: 1 }} />
          </>
        }
      />
    );
  } else if (pods.length > 0) {
    const openLogs = (pod: Pod) => {
      setLogsOf(pod);
      setLogsOpen(true);
    };
    body = phone ? <PodCards pods={pods} onLogs={openLogs} /> : <PodTable pods={pods} onLogs={openLogs} />;
  }

  const errorText = error && !ended ? serverMessage(error, 'workspaces.pods_error') : null;

  return (
    <Card component="section" aria-labelledby="workspace-pods-title">
      <CardContent>
        <Typography id="workspace-pods-title" variant="h6" component="h2" gutterBottom>
          {translate('workspaces.pods')}
        </Typography>
        {sandbox && (
          <Typography variant="body2" color="text.secondary" gutterBottom>
            {translate('app.sandbox_hint')}
          </Typography>
        )}
        {errorText && (
          <Alert
            severity="warning"
            sx={{ mb: 2 }}
            action={
              <Button color="inherit" size="small" onClick={() => refetch()} disabled={isFetching}>
                {translate('workspaces.retry')}
              </Button>
            }
          >
            <Typography variant="body2">{translate(errorText, { _: errorText })}</Typography>
            <Typography variant="body2">
              {translate('workspaces.pods_retrying', { seconds: PODS_RETRY_MS / 1000 })}
            </Typography>
          </Alert>
        )}
        {body}
      </CardContent>
      {!ended && <PodLogsDialog workspaceId={workspaceId} pod={logsOf?.name ?? null} open={logsOpen} onClose={() => setLogsOpen(false)} />}
    </Card>
  );
};
