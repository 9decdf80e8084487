import { useMemo } from 'react';
import type { BulkDecisionAnswer } from '../../dataProvider';
import { createHttpClient } from '../../httpClient';
import { useSettings } from '../../settings';

// POST /api/requests/bulk with a filter (docs/api-contract.md "Calls"): the server decides
// every request the list's filter matches for the caller, not only the loaded page. (The ids
// form stays the data provider's decideRequests.)

/** The requests list's filters as the bulk body's `filter`. */
export interface BulkRequestFilter {
  status?: string;
  type?: string;
  team_id?: number;
  q?: string;
}

/** The list's filter values (status, type, team_id, q) as the bulk body's `filter`. */
export const bulkRequestFilter = (values: Record<string, unknown>): BulkRequestFilter => {
  const filter: BulkRequestFilter = {};
  for (const key of ['status', 'type', 'q'] as const) {
    if (typeof values[key] === 'string' && values[key] !== '') filter[key] = values[key] as string;
  }
  if (values.team_id !== undefined && values.team_id !== null && values.team_id !== '') filter.team_id = Number(values.team_id);
  return filter;
};

export const useRequestCalls = () => {
  const settings = useSettings();
  return useMemo(() => {
    const http = createHttpClient({ baseUrl: settings.apiUrl });
    return {
      /** Decides (or, with dryRun, says what deciding would do to) every request the filter matches. */
      async decideMatching(body: { filter: BulkRequestFilter; action: 'approve' | 'deny'; message?: string; dryRun: boolean }): Promise<BulkDecisionAnswer> {
        const { dryRun, ...rest } = body;
        return (await http<BulkDecisionAnswer>('/api/requests/bulk', { method: 'POST', body: { ...rest, ...(dryRun ? { dry_run: true } : {}) } })).json;
      },
    };
  }, [settings.apiUrl]);
};
