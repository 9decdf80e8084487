import { paginatorQuery } from '../../dataProvider/paginator';
import type { PrefetchingClient } from '../../prefetch';

// What the home's cards read besides GET /user, in one small module: the cards ask for these
// lists, and main.tsx starts the same GETs beside /user when the home is opened with a stored
// token (src/prefetch.ts), so that the cards find their answers on the way instead of asking
// one round trip after /user. tests/homePrefetch.test.ts checks that the data provider's
// requests for these lists are the ones started ahead.

/** Filter of the pending requests query, shared by the badge, home and /requests. */
export const PENDING_FILTER = { status: 'Pending' };

/** The pending requests' count (the menu's badge, the home's alert): one row, the server's total. */
export const PENDING_COUNT_PARAMS = {
  filter: PENDING_FILTER,
  pagination: { page: 1, perPage: 1 },
  sort: { field: 'created_at', order: 'DESC' as const },
};

/** How many nodes the home card lists (the rest: 'and N more' on /nodes). */
export const HOME_NODES_SHOWN = 5;

/** The 'Your nodes' card's list: the newest first. */
export const HOME_NODES_PARAMS = {
  pagination: { page: 1, perPage: HOME_NODES_SHOWN },
  sort: { field: 'id', order: 'DESC' as const },
};

/**
 * Starts the home's GETs: the user's nodes (a plain array, sorted and cut here), the pending
 * requests (a server page; `status` is also sent on its own, as the data provider sends it) and
 * the workspaces near a quota limit (read only when the user has workspaces; otherwise the
 * server answers an empty list at once).
 */
export const prefetchHome = (prefetch: PrefetchingClient['prefetch']): void => {
  prefetch('/api/nodes');
  prefetch('/api/requests', { ...paginatorQuery(PENDING_COUNT_PARAMS), status: PENDING_FILTER.status });
  prefetch('/api/subnamespaces/near-limit');
};
