import { Button } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useListContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../../dataProvider';
import type { BulkUsersAnswer, BulkUsersRequest } from './types';

import { type BulkSelection, BulkFlowDialog, totalsInWords, useBulkSelection, useFormatCount } from '../bulk';

// Bulk Disable / Enable on /admin/users. The selection is either the checked rows (ids) or,
// after "Select all N matching", the list's filter: the server then acts on every user it
// matches, not only the loaded page. Through the admin lists' one bulk dialog (../bulk.tsx):
// the server's dry run first, so the confirmation says how many will change and what it
// revokes; then the action (one request, batched on the server); then what happened in words,
// with every user left unchanged for a reason, and that reason.

type Action = 'disable' | 'enable';

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
  const translate = useTranslate();
  const selection = useBulkSelection();
  const { onUnselectItems, data } = useListContext();
  const [running, setRunning] = useState<{ action: Action; selection: BulkSelection } | null>(null);
  // Names of the loaded rows, to say who was left unchanged and why.
  const names = new Map((data ?? []).map((record) => [String(record.id), String(record.name ?? '')]));
  return (
    <>
      <Button size="small" color="error" onClick={() => setRunning({ action: 'disable', selection })}>
        {translate('adminUsers.bulk.disable')}
      </Button>
      <Button size="small" color="success" onClick={() => setRunning({ action: 'enable', selection })}>
        {translate('adminUsers.bulk.enable')}
      </Button>
      {running && (
        <BulkUsersDialog
          action={running.action}
          selection={running.selection}
          names={names}
          onClose={(finished) => {
            if (finished) onUnselectItems();
            setRunning(null);
          }}
        />
      )}
    </>
  );
};

const BulkUsersDialog = ({
  action,
  selection,
  names,
  onClose,
}: {
  action: Action;
  selection: BulkSelection;
  names: Map<string, string>;
  onClose: (finished: boolean) => void;
}) => {
  const translate = useTranslate();
  const format = useFormatCount();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refresh = useRefresh();
  const target: Pick<BulkUsersRequest, 'ids' | 'filter'> = selection.allMatching ? { filter: bulkFilter(selection.filterValues) } : { ids: selection.ids };
  const count = (n: number) => translate('adminUsers.counts.users', { smart_count: n });
  return (
    <BulkFlowDialog<BulkUsersAnswer>
      titleId="bulk-users-title"
      send={(dryRun) => dataProvider.bulkUsers({ ...target, action, ...(dryRun ? { dry_run: true } : {}) })}
      confirmation={(preview) => ({
        title: translate(`adminUsers.bulk.${action}_title`, { users: count(preview.totals.done) }),
        nothing: preview.totals.done === 0,
        content:
          preview.totals.done === 0
            ? translate('adminUsers.bulk.nothing')
            : translate(`adminUsers.bulk.${action}_content`, {
                sessions: translate('adminUsers.counts.sessions', { smart_count: preview.revoked.sessions }),
                tokens: translate('adminUsers.counts.tokens', { smart_count: preview.revoked.personal_tokens }),
                kubeconfigs: translate('adminUsers.counts.kubeconfigs', { smart_count: preview.revoked.kubeconfigs }),
                skipped: count(preview.matched - preview.totals.done),
              }),
      })}
      confirmLabel={translate(`adminUsers.bulk.${action}`)}
      confirmColor={action === 'disable' ? 'error' : 'success'}
      running={(preview) => translate('adminUsers.bulk.running', { users: count(preview.totals.done) })}
      outcome={(answer) => ({
        summary: totalsInWords(translate, format, [
          [`adminUsers.bulk.outcome.${action === 'disable' ? 'disabled' : 'enabled'}`, answer.totals.done],
          ['adminUsers.bulk.outcome.unchanged', answer.totals.unchanged],
          ['adminUsers.bulk.outcome.forbidden', answer.totals.forbidden],
          ['adminUsers.bulk.outcome.not_found', answer.totals.not_found],
        ]),
        failures: answer.results
          .filter((item) => item.status === 'forbidden' || item.status === 'not_found')
          .map((item) => ({ id: item.id, name: names.get(String(item.id)) || undefined, reason: item.message ?? `adminUsers.bulk.status.${item.status}` })),
      })}
      onDone={refresh}
      onClose={onClose}
    />
  );
};
