import { useMemo } from 'react';
import type { Identifier } from 'react-admin';
import { createHttpClient } from '../../../httpClient';
import { useSettings } from '../../../settings';

// The workspace administration calls that are not react-admin CRUD (docs/api-contract.md,
// "Admin: workspaces"): the list's bulk deletion. GET/PATCH/DELETE of one workspace go through
// the data provider (admin/workspaces).

export interface BulkWorkspacesAnswer {
  action: 'delete';
  dry_run: boolean;
  matched: number;
  totals: { done: number; not_found: number };
  reach: { workspaces: number; members: number; memberships: number };
  results: { id: number; status: 'done' | 'not_found'; name?: string; namespace?: string; members?: number; message?: string }[];
}

export const useWorkspaceCalls = () => {
  const settings = useSettings();
  return useMemo(() => {
    const http = createHttpClient({ baseUrl: settings.apiUrl });
    return {
      /** POST /api/admin/workspaces/bulk {ids, action: 'delete', dry_run?}: what is (or would be) deleted, per id. */
      async bulkDelete(ids: Identifier[], options: { dryRun: boolean }): Promise<BulkWorkspacesAnswer> {
        const body = { ids, action: 'delete', ...(options.dryRun ? { dry_run: true } : {}) };
        return (await http<BulkWorkspacesAnswer>('/api/admin/workspaces/bulk', { method: 'POST', body })).json;
      },
    };
  }, [settings.apiUrl]);
};
