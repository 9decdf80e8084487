import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useChannelEvent, useRealtime } from '../../realtime/RealtimeProvider';
import { subscriptionEndedNotice, useSubscriptionEnded } from '../../realtime/subscriptionEnded';

/** Lines kept on screen; older ones scroll away. */
export const MAX_LOG_LINES = 2000;

export interface PodLogLine {
  seq: number;
  text: string;
  time?: string | null;
}

type StreamState = 'connecting' | 'streaming' | 'waiting' | 'ended';

/** The pod-log channel of docs/api-contract.md ("Realtime"), without laravel-echo's `private-` prefix. */
export const podLogChannelName = (workspaceId: number, pod: string) => `pod-logs.${workspaceId}.${pod}`;

/**
 * Keeps the lines of a log stream in order and without repeats: a subscriber that joins late is
 * sent the recent lines again, and those it already has (by seq) are dropped.
 */
export const mergeLogLines = (current: PodLogLine[], incoming: PodLogLine[], max = MAX_LOG_LINES): PodLogLine[] => {
  const last = current.at(-1)?.seq ?? 0;
  const fresh = incoming.filter((line) => line.seq > last).sort((a, b) => a.seq - b.seq);
  if (fresh.length === 0) return current;
  const merged = current.concat(fresh);
  return merged.length > max ? merged.slice(merged.length - max) : merged;
};

/**
 * 'Logs for {pod}': subscribes to the pod's log channel while open (the server starts following
 * the pod's log on the first subscription and stops on the last) and shows the lines as they
 * arrive. Follow keeps the view at the newest line; Pause freezes it while lines keep arriving.
 */
export const PodLogsDialog = ({
  workspaceId,
  pod,
  open,
  onClose,
}: {
  workspaceId: number;
  pod: string | null;
  open: boolean;
  onClose: () => void;
}) => {
  const translate = useTranslate();
  const realtime = useRealtime();
  const [lines, setLines] = useState<PodLogLine[]>([]);
  const [shown, setShown] = useState<PodLogLine[]>([]);
  const [following, setFollowing] = useState(true);
  const [state, setState] = useState<{ state: StreamState; message?: string }>({ state: 'connecting' });
  // Why the server ended this log's subscription (i18n key), if it did: the dialog stops listening.
  const [endedNotice, setEndedNotice] = useState<string | null>(null);
  const viewRef = useRef<HTMLPreElement | null>(null);
  const opened = open && pod ? podLogChannelName(workspaceId, pod) : null;
  const channel = endedNotice ? null : opened;

  // A new pod (or reopening) starts from an empty view.
  useEffect(() => {
    if (!opened) return;
    setLines([]);
    setShown([]);
    setFollowing(true);
    setState({ state: 'connecting' });
    setEndedNotice(null);
  }, [opened]);

  useSubscriptionEnded(channel, (why) => setEndedNotice(subscriptionEndedNotice(why, 'workspaces.logs_access_ended').key));

  useChannelEvent(
    channel,
    'PodLogLines',
    useCallback((payload: unknown) => {
      const incoming = (payload as { lines?: PodLogLine[] } | null)?.lines;
      if (Array.isArray(incoming)) setLines((current) => mergeLogLines(current, incoming));
    }, []),
  );
  useChannelEvent(
    channel,
    'PodLogStatus',
    useCallback((payload: unknown) => {
      const status = payload as { state?: StreamState; message?: string } | null;
      if (status?.state) setState({ state: status.state, message: status.message });
    }, []),
  );

  // While following, what is shown is what arrived; paused, the view stays as it was.
  useEffect(() => {
    if (following) setShown(lines);
  }, [lines, following]);

  useLayoutEffect(() => {
    const view = viewRef.current;
    if (following && view) view.scrollTop = view.scrollHeight;
  }, [shown, following]);

  const waitingLines = (lines.at(-1)?.seq ?? 0) - (shown.at(-1)?.seq ?? 0);
  const title = pod ? translate('workspaces.logs_for', { name: pod }) : '';

  let notice = null;
  if (endedNotice) {
    notice = (
      <Alert severity="warning" role="status">
        {translate(endedNotice)}
      </Alert>
    );
  } else if (!realtime) {
    notice = <Alert severity="warning">{translate('workspaces.logs_no_realtime')}</Alert>;
  } else if (state.state === 'connecting' && lines.length === 0) {
    notice = (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
        <CircularProgress size={18} />
        <Typography color="text.secondary">{translate('workspaces.logs_connecting')}</Typography>
      </Stack>
    );
  } else if (state.state === 'waiting') {
    notice = (
      <Alert severity="info" role="status">
        {translate('workspaces.logs_waiting')}
        {state.message ? ` (${state.message})` : ''}
      </Alert>
    );
  } else if (state.state === 'ended') {
    notice = (
      <Alert severity="info" role="status">
        {state.message ?? translate('workspaces.logs_ended')}
      </Alert>
    );
  } else if (state.state === 'streaming' && lines.length === 0) {
    notice = <Typography color="text.secondary">{translate('workspaces.logs_empty')}</Typography>;
  }

  return (
    <Dialog open={open && !!pod} onClose={onClose} aria-labelledby="pod-logs-title" fullWidth maxWidth="lg">
      <DialogTitle id="pod-logs-title">{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={1.5}>
          {notice}
          <Box
            component="pre"
            ref={viewRef}
            aria-label={title}
            aria-live={following ? 'polite' : 'off'}
            tabIndex={0}
            data-testid="pod-log-lines"
            sx={{
              m: 0,
              p: 1.5,
              height: '55vh',
              overflow: 'auto',
              bgcolor: 'grey.900',
              color: 'grey.100',
              borderRadius: 1,
              fontFamily: 'monospace',
              fontSize: 13,
              lineHeight: 1.5,
              // Each line on one line, the box scrolling sideways: wrapped (and broken mid-word),
              // a stack trace or a JSON line could not be read on a phone.
              whiteSpace: 'pre',
            }}
          >
            {shown.map((line) => (
              <div key={line.seq}>{line.text}</div>
            ))}
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ justifyContent: 'space-between', px: 3 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          {following ? (
            <Button startIcon={<PauseIcon />} onClick={() => setFollowing(false)}>
              {translate('workspaces.logs_pause')}
            </Button>
          ) : (
            <Button startIcon={<PlayArrowIcon />} variant="contained" onClick={() => setFollowing(true)}>
              {translate('workspaces.logs_follow')}
            </Button>
          )}
          {!following && waitingLines > 0 && (
            <Typography variant="body2" color="text.secondary" role="status">
              {translate('workspaces.logs_new_lines', { smart_count: waitingLines })}
            </Typography>
          )}
        </Stack>
        <Button onClick={onClose}>{translate('workspaces.close')}</Button>
      </DialogActions>
    </Dialog>
  );
};
