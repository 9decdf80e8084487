import { TextField } from '@mui/material';
import { useState } from 'react';
import { type TranslateFunction, useDataProvider, useListContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useRefreshRequests } from '../../hooks';
import { BulkFlowDialog, useFormatCount } from '../admin/bulk';
import type { BulkDecision } from './BulkDecideButtons';
import type { BulkDecisionAnswer } from './types';

/** Why a request was not decided, as the totals of POST /api/requests/bulk count them. */
const NOT_DECIDED = ['forbidden', 'not_found', 'conflict'] as const;

type Totals = BulkDecisionAnswer['totals'];

/**
 * What a bulk decision did, in words: "34 requests approved. 2 refused: you may not decide
 * them. 1 no longer exists." Only the parts that happened, each with the catalogue's plural
 * forms (French takes the singular for 0 and 1), never the HTTP status behind them.
 */
export const decisionSummary = (translate: TranslateFunction, format: (count: number) => string, action: 'approve' | 'deny', totals: Totals): string => {
  const said = (key: string, count: number) => translate(key, { smart_count: count, count: format(count) });
  const parts = [said(`requests.bulk.outcome.${action === 'approve' ? 'approved' : 'denied'}`, totals.decided)];
  for (const reason of NOT_DECIDED) if (totals[reason] > 0) parts.push(said(`requests.bulk.outcome.${reason}`, totals[reason]));
  return parts.join(' ');
};

/**
 * Approve or Deny several requests at once, the checked rows (`ids`) or everything the list's
 * filter matches after "Select all N matching" (`filter`: the server decides every match,
 * however many, not only the loaded page). The same dialog for both: a dry run first gives
 * the count and what would not be decided, with an optional message for every requester;
 * then one call decides them (progress while it runs); then what happened, in words, with
 * each request not decided and why. Requests are decided one by one on the server, so a
 * failure never undoes the others. Closing after a run clears the selection.
 */
export const BulkDecideDialog = ({ decision, onClose }: { decision: BulkDecision; onClose: () => void }) => {
  const translate = useTranslate();
  const format = useFormatCount();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refreshRequests = useRefreshRequests();
  const { onUnselectItems } = useListContext();
  const [message, setMessage] = useState('');
  const { action, ids, names, filter } = decision;
  const matching = filter !== undefined;
  const counted = (key: string, count: number) => translate(key, { smart_count: count, count: format(count) });

  const send = (dryRun: boolean) => {
    const text = !dryRun && message.trim() ? { message: message.trim() } : {};
    return matching
      ? dataProvider.decideMatchingRequests({ filter, action, dryRun, ...text })
      : dataProvider.decideRequests({ ids, action, dryRun, ...text });
  };

  return (
    <BulkFlowDialog<BulkDecisionAnswer>
      titleId="bulk-decide-title"
      send={send}
      confirmation={(preview) => {
        const { requested, decided } = preview.totals;
        const reasons = NOT_DECIDED.filter((reason) => preview.totals[reason] > 0)
          .map((reason) => counted(`requests.bulk.reasons.${reason}`, preview.totals[reason]))
          .join(', ');
        const refused = requested - decided;
        return {
          title: counted(`requests.bulk.title_${action}${matching ? '_all' : ''}`, requested),
          nothing: decided === 0,
          content:
            decided === 0
              ? translate('requests.bulk.nothing', { reasons })
              : [
                  translate(matching ? 'requests.bulk.all_content' : 'requests.bulk.page_content'),
                  ...(refused > 0 ? [translate('requests.bulk.will_refuse', { smart_count: refused, count: format(refused), reasons })] : []),
                ].join(' '),
        };
      }}
      extra={
        <TextField
          label={translate('requests.decision_message')}
          helperText={translate('requests.bulk.message_hint')}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          multiline
          minRows={2}
          fullWidth
          sx={{ mt: 2 }}
        />
      }
      confirmLabel={translate(matching ? `requests.bulk.${action}_all` : `requests.${action}`)}
      confirmColor={action === 'approve' ? 'success' : 'error'}
      running={(preview) => counted('requests.bulk.running_all', preview.totals.decided)}
      outcome={(answer) => ({
        summary: decisionSummary(translate, format, action, answer.totals),
        failures: answer.results
          .filter((item) => item.status !== 'decided')
          .map((item) => ({ id: item.id, name: names.get(String(item.id)) || undefined, reason: item.message ?? `requests.bulk.reason.${item.status}` })),
      })}
      onDone={() => void refreshRequests()}
      onClose={(finished) => {
        if (finished) onUnselectItems();
        onClose();
      }}
    />
  );
};
