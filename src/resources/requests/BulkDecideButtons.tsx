import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { type Identifier, useDataProvider, useListContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useRefreshRequests } from '../../hooks';
import { errorMessage } from '../../httpClient';
import { useBulkSelection } from '../admin/bulk';
import type { BulkDecisionAnswer, BulkRequestFilter } from './types';

/** The list's filter values (status, type, team_id, q) as the bulk body's `filter`. */
export const bulkRequestFilter = (values: Record<string, unknown>): BulkRequestFilter => {
  const filter: BulkRequestFilter = {};
  for (const key of ['status', 'type', 'q'] as const) {
    if (typeof values[key] === 'string' && values[key] !== '') filter[key] = values[key] as string;
  }
  if (values.team_id !== undefined && values.team_id !== null && values.team_id !== '') filter.team_id = Number(values.team_id);
  return filter;
};

/** The server decides at most this many per call (POST /api/requests/bulk); larger selections go in chunks. */
export const BULK_CHUNK = 500;

type Action = 'approve' | 'deny';
type Failure = BulkDecisionAnswer['results'][number];

interface Progress {
  done: number;
  total: number;
  decided: number;
  failures: Failure[];
  /** Set when a call failed as a whole: the chunks after it were not sent. */
  stopped?: string;
  finished: boolean;
}

export interface BulkDecision {
  action: Action;
  ids: Identifier[];
  /** Requester names of the loaded rows, to say whose request could not be decided. */
  names: Map<string, string>;
  /** After "Select all N matching": the list's filter, sent instead of ids (BulkDecideAllDialog). */
  filter?: BulkRequestFilter;
}

/**
 * The bulk toolbar's Approve and Deny: they hand the selection (the checked rows, or the
 * list's filter after "Select all N matching") to `onStart`, so that the dialog
 * (BulkDecideDialog, BulkDecideAllDialog) lives outside the toolbar, which unmounts once the
 * decided rows leave the list.
 */
export const BulkDecideButtons = ({ onStart }: { onStart: (decision: BulkDecision) => void }) => {
  const translate = useTranslate();
  const { data } = useListContext();
  const selection = useBulkSelection();
  const start = (action: Action) =>
    onStart({
      action,
      ids: selection.allMatching ? [] : selection.ids,
      names: new Map((data ?? []).map((record) => [String(record.id), record.user?.name ?? record.user?.firstname ?? ''])),
      ...(selection.allMatching ? { filter: bulkRequestFilter(selection.filterValues) } : {}),
    });
  return (
    <>
      <Button size="small" color="success" startIcon={<CheckIcon />} onClick={() => start('approve')}>
        {translate('requests.bulk.approve')}
      </Button>
      <Button size="small" color="error" startIcon={<CloseIcon />} onClick={() => start('deny')}>
        {translate('requests.bulk.deny')}
      </Button>
    </>
  );
};

/**
 * Approve or Deny the selected requests with one optional message: POST /api/requests/bulk in
 * chunks of 500, a progress bar across chunks, then what happened ("48 approved, 2 could not be
 * decided: …" with the server's reason for each). Requests stay decided one by one on the
 * server, so a failure never undoes the others. Closing after a run clears the selection.
 */
export const BulkDecideDialog = ({ decision, onClose }: { decision: BulkDecision; onClose: () => void }) => {
  const { onUnselectItems } = useListContext();
  const { action, ids, names } = decision;
  const close = (finished: boolean) => {
    if (finished) onUnselectItems();
    onClose();
  };
  return <BulkDecideDialogView action={action} ids={ids} names={names} onClose={close} />;
};

const BulkDecideDialogView = ({
  action,
  ids,
  names,
  onClose,
}: {
  action: Action;
  ids: Identifier[];
  names: Map<string, string>;
  onClose: (finished: boolean) => void;
}) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refreshRequests = useRefreshRequests();
  const [message, setMessage] = useState('');
  const [progress, setProgress] = useState<Progress | null>(null);
  const running = progress !== null && !progress.finished;

  const run = async () => {
    let state: Progress = { done: 0, total: ids.length, decided: 0, failures: [], finished: false };
    setProgress(state);
    for (let start = 0; start < ids.length; start += BULK_CHUNK) {
      const chunk = ids.slice(start, start + BULK_CHUNK);
      try {
        const answer = await dataProvider.decideRequests({ ids: chunk, action, ...(message.trim() ? { message: message.trim() } : {}) });
        state = {
          ...state,
          done: state.done + chunk.length,
          decided: state.decided + answer.totals.decided,
          failures: [...state.failures, ...answer.results.filter((item) => item.status !== 'decided')],
        };
      } catch (error) {
        state = { ...state, stopped: errorMessage(error) };
        break;
      } finally {
        setProgress(state);
      }
    }
    setProgress({ ...state, finished: true });
    void refreshRequests();
  };

  const count = ids.length;
  const titleKey = action === 'approve' ? 'requests.bulk.title_approve' : 'requests.bulk.title_deny';
  return (
    <Dialog open onClose={running ? undefined : () => onClose(!!progress?.finished)} aria-labelledby="bulk-decide-title" fullWidth maxWidth="sm">
      <DialogTitle id="bulk-decide-title">{translate(titleKey, { smart_count: count })}</DialogTitle>
      <DialogContent>
        {progress === null ? (
          <TextField
            label={translate('requests.decision_message')}
            helperText={translate('requests.bulk.message_hint')}
            value={message}
            onChange={(event) => setMessage(event.target.value)}
            multiline
            minRows={2}
            fullWidth
            sx={{ mt: 1 }}
          />
        ) : (
          <BulkResult action={action} progress={progress} names={names} />
        )}
      </DialogContent>
      <DialogActions>
        {progress === null ? (
          <>
            <Button onClick={() => onClose(false)}>{translate('ra.action.cancel')}</Button>
            <Button variant="contained" color={action === 'approve' ? 'success' : 'error'} onClick={run}>
              {translate(action === 'approve' ? 'requests.approve' : 'requests.deny')}
            </Button>
          </>
        ) : (
          <Button onClick={() => onClose(true)} disabled={running}>
            {translate('ra.action.close')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
};

const BulkResult = ({ action, progress, names }: { action: Action; progress: Progress; names: Map<string, string> }) => {
  const translate = useTranslate();
  if (!progress.finished) {
    return (
      <Box role="status" sx={{ py: 1 }}>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {translate('requests.bulk.progress', { done: progress.done, total: progress.total })}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={progress.total ? (100 * progress.done) / progress.total : 0}
          aria-label={translate('requests.bulk.progress_label')}
        />
      </Box>
    );
  }
  const failed = progress.failures.length;
  const decided = translate(action === 'approve' ? 'requests.bulk.approved' : 'requests.bulk.denied', { smart_count: progress.decided });
  const summary = failed ? `${decided}, ${translate('requests.bulk.failed', { smart_count: failed })}:` : decided;
  return (
    <Box role="status">
      <Typography sx={{ mb: 1 }}>{summary}</Typography>
      {failed > 0 && (
        <List dense aria-label={translate('requests.bulk.failures')} sx={{ maxHeight: 240, overflowY: 'auto' }}>
          {progress.failures.map((item) => (
            <ListItem key={item.id} disableGutters>
              {translate('requests.bulk.failure', {
                request: names.get(String(item.id)) ? `#${item.id} (${names.get(String(item.id))})` : `#${item.id}`,
                reason: item.message ?? translate(`requests.bulk.reason.${item.status}`),
              })}
            </ListItem>
          ))}
        </List>
      )}
      {progress.stopped && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {translate('requests.bulk.stopped', { message: translate(progress.stopped, { _: progress.stopped }), left: progress.total - progress.done })}
        </Alert>
      )}
    </Box>
  );
};
