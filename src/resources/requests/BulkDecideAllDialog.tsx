import { TextField } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useListContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { useRefreshRequests } from '../../hooks';
import { BulkFlowDialog, useFormatCount } from '../admin/bulk';
import type { BulkDecision } from './BulkDecideButtons';
import type { BulkDecisionAnswer } from './types';

const REFUSALS = ['forbidden', 'not_found', 'conflict'] as const;

/**
 * Approve or Deny everything the list's filter matches ("Select all N matching"): POST
 * /api/requests/bulk with the filter, not ids, so the server decides every match, however
 * many, not only the loaded page. A dry run first gives the count ("Approve all 1,234
 * matching requests?") and what would be refused; then one call decides them (progress while
 * it runs) and the result sums them up (decided, refused 403, gone 404, already decided 409)
 * with each request not decided and why.
 */
export const BulkDecideAllDialog = ({ decision, onClose }: { decision: BulkDecision; onClose: () => void }) => {
  const translate = useTranslate();
  const format = useFormatCount();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refreshRequests = useRefreshRequests();
  const { onUnselectItems } = useListContext();
  const [message, setMessage] = useState('');
  const { action, names } = decision;
  const filter = decision.filter ?? {};

  return (
    <BulkFlowDialog<BulkDecisionAnswer>
      titleId="bulk-decide-all-title"
      send={(dryRun) => dataProvider.decideMatchingRequests({ filter, action, dryRun, ...(!dryRun && message.trim() ? { message: message.trim() } : {}) })}
      confirmation={(preview) => {
        const { requested, decided } = preview.totals;
        const reasons = REFUSALS.filter((status) => preview.totals[status] > 0).map((status) =>
          translate(`requests.bulk.reasons.${status}`, { smart_count: preview.totals[status], count: format(preview.totals[status]) }),
        );
        return {
          title: translate(`requests.bulk.title_${action}_all`, { smart_count: requested, count: format(requested) }),
          nothing: decided === 0,
          content:
            decided === 0
              ? translate('requests.bulk.nothing_all')
              : [
                  translate('requests.bulk.all_content'),
                  ...(requested > decided ? [translate('requests.bulk.will_refuse', { smart_count: requested - decided, count: format(requested - decided), reasons: reasons.join(', ') })] : []),
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
      confirmLabel={translate(`requests.bulk.${action}_all`)}
      confirmColor={action === 'approve' ? 'success' : 'error'}
      running={(preview) => translate('requests.bulk.running_all', { smart_count: preview.totals.decided, count: format(preview.totals.decided) })}
      outcome={(answer) => ({
        summary: translate('requests.bulk.totals', {
          decided: format(answer.totals.decided),
          forbidden: format(answer.totals.forbidden),
          not_found: format(answer.totals.not_found),
          conflict: format(answer.totals.conflict),
        }),
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
