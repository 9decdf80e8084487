import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
} from '@mui/material';
import { useRef, useState } from 'react';
import { useDataProvider, useListContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../../dataProvider';
import type { BulkUsersAnswer, BulkUsersRequest } from './types';

import { errorMessage } from '../../../httpClient';
import { BulkResult, totalsInWords, useBulkSelection, useFormatCount } from '../bulk';

// Bulk Disable / Enable on /admin/users. The selection is either the checked rows (ids) or,
// after "Select all N matching", the list's filter: the server then acts on every user it
// matches, not only the loaded page. The server is asked for a dry run first, so the
// confirmation says how many will change and what it revokes; then the action runs
// (indeterminate progress: one request, batched on the server) and the answer is said in
// words, with every user refused or gone and why (BulkResult, as the other lists).

type Action = 'disable' | 'enable';

type Flow =
  | { stage: 'counting'; action: Action }
  | { stage: 'confirm'; action: Action; preview: BulkUsersAnswer }
  | { stage: 'running'; action: Action; preview: BulkUsersAnswer }
  | { stage: 'result'; action: Action; result: BulkUsersAnswer }
  | { stage: 'failed'; action: Action; message: string };

const FLAGS = ['admin', 'enabled', 'verified', 'policy'] as const;

/** The list's filter values as the bulk body's `filter` (booleans, the search, the team, the activity window). */
export const bulkFilter = (values: Record<string, unknown>): NonNullable<BulkUsersRequest['filter']> => {
  const filter: NonNullable<BulkUsersRequest['filter']> = {};
  if (typeof values.q === 'string' && values.q !== '') filter.q = values.q;
  for (const flag of FLAGS) if (typeof values[flag] === 'boolean') filter[flag] = values[flag] as boolean;
  if (values.team_id !== undefined && values.team_id !== null && values.team_id !== '') filter.team_id = Number(values.team_id);
  // "Active in the last N days" (the dashboard's links): a bulk action must act on the same people.
  if (values.active_within_days !== undefined && values.active_within_days !== null && values.active_within_days !== '') {
    filter.active_within_days = Number(values.active_within_days);
  }
  return filter;
};

export const BulkUserButtons = () => {
  const { selectedIds, total = 0, filterValues, onUnselectItems, data } = useListContext();
  // Names of the loaded rows, to say who was refused and why.
  const names = new Map((data ?? []).map((record) => [String(record.id), String(record.name ?? '')]));
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refresh = useRefresh();
  // The rows or everything the filter matches: the shared toolbar's "Select all N matching" (../bulk.tsx).
  const { allMatching } = useBulkSelection();
  const [flow, setFlow] = useState<Flow | null>(null);
  // Which opening of the dialog a dry run belongs to: one answered after the person closed its
  // dialog (slow under load) must not open it again.
  const opening = useRef(0);

  const target = (): Pick<BulkUsersRequest, 'ids' | 'filter'> =>
    allMatching ? { filter: bulkFilter(filterValues) } : { ids: selectedIds };
  const count = (n: number) => translate('adminUsers.counts.users', { smart_count: n });

  const start = async (action: Action) => {
    const current = ++opening.current;
    setFlow({ stage: 'counting', action });
    try {
      const preview = await dataProvider.bulkUsers({ ...target(), action, dry_run: true });
      if (opening.current === current) setFlow({ stage: 'confirm', action, preview });
    } catch (error) {
      if (opening.current === current) setFlow({ stage: 'failed', action, message: errorMessage(error, 'adminUsers.error') });
    }
  };
  const confirm = async (action: Action, preview: BulkUsersAnswer) => {
    setFlow({ stage: 'running', action, preview });
    try {
      const result = await dataProvider.bulkUsers({ ...target(), action });
      setFlow({ stage: 'result', action, result });
      refresh();
    } catch (error) {
      setFlow({ stage: 'failed', action, message: errorMessage(error, 'adminUsers.error') });
    }
  };
  const close = () => {
    if (flow?.stage === 'running') return;
    if (flow?.stage === 'result') onUnselectItems();
    opening.current += 1;
    setFlow(null);
  };

  const selected = allMatching ? total : selectedIds.length;
  return (
    <>
      <Button size="small" color="error" onClick={() => void start('disable')}>
        {translate('adminUsers.bulk.disable')}
      </Button>
      <Button size="small" color="success" onClick={() => void start('enable')}>
        {translate('adminUsers.bulk.enable')}
      </Button>
      <Dialog open={flow !== null} onClose={close} aria-labelledby="bulk-users-title" fullWidth maxWidth="sm">
        {flow && (
          <>
            <DialogTitle id="bulk-users-title">
              {flow.stage === 'result'
                ? translate('adminBulk.result_title')
                : translate(`adminUsers.bulk.${flow.action}_title`, { users: count(flow.stage === 'confirm' || flow.stage === 'running' ? flow.preview.totals.done : selected) })}
            </DialogTitle>
            <DialogContent>
              {flow.stage === 'counting' && (
                <>
                  <DialogContentText>{translate('adminBulk.counting')}</DialogContentText>
                  <LinearProgress sx={{ mt: 2 }} />
                </>
              )}
              {(flow.stage === 'confirm' || flow.stage === 'running') && (
                <DialogContentText>
                  {flow.preview.totals.done === 0
                    ? translate('adminUsers.bulk.nothing')
                    : translate(`adminUsers.bulk.${flow.action}_content`, {
                        sessions: translate('adminUsers.counts.sessions', { smart_count: flow.preview.revoked.sessions }),
                        tokens: translate('adminUsers.counts.tokens', { smart_count: flow.preview.revoked.personal_tokens }),
                        kubeconfigs: translate('adminUsers.counts.kubeconfigs', { smart_count: flow.preview.revoked.kubeconfigs }),
                        skipped: count(flow.preview.matched - flow.preview.totals.done),
                      })}
                </DialogContentText>
              )}
              {flow.stage === 'running' && (
                <>
                  <DialogContentText sx={{ mt: 2 }}>{translate('adminUsers.bulk.running', { users: count(flow.preview.totals.done) })}</DialogContentText>
                  <LinearProgress sx={{ mt: 1 }} aria-label={translate('adminUsers.bulk.running', { users: count(flow.preview.totals.done) })} />
                </>
              )}
              {flow.stage === 'result' && <BulkUsersResult action={flow.action} result={flow.result} names={names} />}
              {flow.stage === 'failed' && <Alert severity="error">{translate(flow.message, { _: flow.message })}</Alert>}
            </DialogContent>
            <DialogActions>
              {flow.stage === 'confirm' ? (
                <>
                  <Button onClick={close}>{translate('ra.action.cancel')}</Button>
                  <Button
                    variant="contained"
                    color={flow.action === 'disable' ? 'error' : 'success'}
                    disabled={flow.preview.totals.done === 0}
                    onClick={() => void confirm(flow.action, flow.preview)}
                  >
                    {translate(`adminUsers.bulk.${flow.action}`)}
                  </Button>
                </>
              ) : (
                <Button onClick={close} disabled={flow.stage === 'running' || flow.stage === 'counting'}>
                  {translate('ra.action.close')}
                </Button>
              )}
            </DialogActions>
          </>
        )}
      </Dialog>
    </>
  );
};

/**
 * What happened in words (the lists' shared result: totals with the catalogue's plurals, then
 * each user refused or gone, by name where the row was loaded, with the server's reason).
 */
const BulkUsersResult = ({ action, result, names }: { action: Action; result: BulkUsersAnswer; names: Map<string, string> }) => {
  const translate = useTranslate();
  const format = useFormatCount();
  return (
    <BulkResult
      outcome={{
        summary: totalsInWords(translate, format, [
          [`adminUsers.bulk.outcome.${action === 'disable' ? 'disabled' : 'enabled'}`, result.totals.done],
          ['adminUsers.bulk.outcome.unchanged', result.totals.unchanged],
          ['adminUsers.bulk.outcome.forbidden', result.totals.forbidden],
          ['adminUsers.bulk.outcome.not_found', result.totals.not_found],
        ]),
        failures: result.results
          .filter((item) => item.status === 'forbidden' || item.status === 'not_found')
          .map((item) => ({ id: item.id, name: names.get(String(item.id)) || undefined, reason: item.message ?? `adminUsers.bulk.status.${item.status}` })),
      }}
    />
  );
};
