/** Shapes of the requests API (GET/PATCH /api/requests, POST /api/requests/bulk: docs/api-contract.md). */

/** The list's filters as the bulk body's `filter` (the server decides every request they match). */
export interface BulkRequestFilter {
  status?: string;
  type?: string;
  team_id?: number;
  q?: string;
}

/** 200 answer of POST /api/requests/bulk (docs/api-contract.md "Deciding many requests"). */
export interface BulkDecisionAnswer {
  results: {
    id: number;
    status: 'decided' | 'forbidden' | 'not_found' | 'conflict';
    http: number;
    request_status?: 'Approved' | 'Denied';
    message?: string;
  }[];
  totals: { requested: number; decided: number; forbidden: number; not_found: number; conflict: number };
}
