import { Button } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useListContext, useRefresh, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../../dataProvider';
import type { BulkUsersAnswer, BulkUsersRequest } from './types';
import { BulkFlowDialog, totalsInWords, useBulkSelection, useCountInWords, useFormatCount } from '../bulk';

// Bulk Disable / Enable on /admin/users. The selection is either the checked rows (ids) or,
// after "Select all N matching", the list's filter: the server then acts on every user it
// matches, not only the loaded page. The shared flow of the admin lists (BulkFlowDialog,
// ../bulk.tsx) asks the server for a dry run first, so the confirmation says how many will
// change and what it revokes; then the action runs (one request, batched on the server) and the
// answer is said in words, with every user refused or gone and why.

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
  const { selectedIds, filterValues, onUnselectItems, data } = useListContext();
  // Names of the loaded rows, to say who was refused and why.
  const names = new Map((data ?? []).map((record) => [String(record.id), String(record.name ?? '')]));
  const translate = useTranslate();
  const format = useFormatCount();
  const inWords = useCountInWords();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refresh = useRefresh();
  // The rows or everything the filter matches: the shared toolbar's "Select all N matching" (../bulk.tsx).
  const { allMatching } = useBulkSelection();
  // The dialog is mounted while an action is under way: a dry run answered after it closed has
  // nowhere to show.
  const [action, setAction] = useState<Action | null>(null);

  const target = (): Pick<BulkUsersRequest, 'ids' | 'filter'> =>
    allMatching ? { filter: bulkFilter(filterValues) } : { ids: selectedIds };
  const count = (n: number) => translate('adminUsers.counts.users', { smart_count: n });

  return (
    <>
      <Button size="small" color="error" onClick={() => setAction('disable')}>
        {translate('adminUsers.bulk.disable')}
      </Button>
      <Button size="small" color="success" onClick={() => setAction('enable')}>
        {translate('adminUsers.bulk.enable')}
      </Button>
      {action && (
        <BulkFlowDialog<BulkUsersAnswer>
          titleId="bulk-users-title"
          send={(dryRun) => dataProvider.bulkUsers({ ...target(), action, ...(dryRun ? { dry_run: true } : {}) })}
          confirmation={(preview) => {
            const skipped = preview.matched - preview.totals.done;
            return {
              title: translate(`adminUsers.bulk.${action}_title`, { users: count(preview.totals.done) }),
              nothing: preview.totals.done === 0,
              content:
                preview.totals.done === 0
                  ? translate('adminUsers.bulk.nothing')
                  : [
                      translate(`adminUsers.bulk.${action}_content`, {
                        smart_count: preview.totals.done,
                        sessions: translate('adminUsers.counts.sessions', { smart_count: preview.revoked.sessions }),
                        tokens: translate('adminUsers.counts.tokens', { smart_count: preview.revoked.personal_tokens }),
                        kubeconfigs: translate('adminUsers.counts.kubeconfigs', { smart_count: preview.revoked.kubeconfigs }),
                      }),
                      ...(skipped > 0 ? [inWords(`adminUsers.bulk.${action}_skipped`, skipped)] : []),
                    ].join(' '),
            };
          }}
          confirmLabel={translate(`adminUsers.bulk.${action}`)}
          confirmColor={action === 'disable' ? 'error' : 'success'}
          running={(preview) => translate('adminUsers.bulk.running', { users: count(preview.totals.done) })}
          outcome={(result) => ({
            summary: totalsInWords(translate, format, [
              [`adminUsers.bulk.outcome.${action === 'disable' ? 'disabled' : 'enabled'}`, result.totals.done],
              ['adminUsers.bulk.outcome.unchanged', result.totals.unchanged],
              ['adminUsers.bulk.outcome.forbidden', result.totals.forbidden],
              ['adminUsers.bulk.outcome.not_found', result.totals.not_found],
            ]),
            failures: result.results
              .filter((item) => item.status === 'forbidden' || item.status === 'not_found')
              .map((item) => ({ id: item.id, name: names.get(String(item.id)) || undefined, reason: item.message ?? `adminUsers.bulk.status.${item.status}` })),
          })}
          onDone={refresh}
          onClose={(finished) => {
            if (finished) onUnselectItems();
            setAction(null);
          }}
        />
      )}
    </>
  );
};
