import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Button } from '@mui/material';
import { type Identifier, useListContext, useTranslate } from 'react-admin';
import { useBulkSelection } from '../admin/bulk';
import type { BulkRequestFilter } from './types';

/** The list's filter values (status, type, team_id, q) as the bulk body's `filter`. */
export const bulkRequestFilter = (values: Record<string, unknown>): BulkRequestFilter => {
  const filter: BulkRequestFilter = {};
  for (const key of ['status', 'type', 'q'] as const) {
    if (typeof values[key] === 'string' && values[key] !== '') filter[key] = values[key] as string;
  }
  if (values.team_id !== undefined && values.team_id !== null && values.team_id !== '') filter.team_id = Number(values.team_id);
  return filter;
};

type Action = 'approve' | 'deny';
export interface BulkDecision {
  action: Action;
  ids: Identifier[];
  /** Requester names of the loaded rows, to say whose request could not be decided. */
  names: Map<string, string>;
  /** After "Select all N matching": the list's filter, sent instead of ids. */
  filter?: BulkRequestFilter;
}

/**
 * The bulk toolbar's Approve and Deny: they hand the selection (the checked rows, or the
 * list's filter after "Select all N matching") to `onStart`, so that the dialog
 * (BulkDecideDialog) lives outside the toolbar, which unmounts once the
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
