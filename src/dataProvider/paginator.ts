import type { GetListParams } from 'react-admin';
import type { QueryValue } from '../httpClient';

// A module of its own: main.tsx builds the home's list requests with it before the console's
// chunks (and the rest of the data provider) have loaded.

/** Laravel paginator query: page, per_page, sort, order, q, filter[field]. */
export const paginatorQuery = (params: Partial<GetListParams>): Record<string, QueryValue | QueryValue[]> => {
  const query: Record<string, QueryValue | QueryValue[]> = {};
  if (params.pagination) {
    query.page = params.pagination.page;
    query.per_page = params.pagination.perPage;
  }
  if (params.sort?.field) {
    query.sort = params.sort.field;
    query.order = String(params.sort.order).toLowerCase();
  }
  for (const [key, value] of Object.entries(params.filter ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    if (key === 'q') query.q = String(value);
    else query[`filter[${key}]`] = Array.isArray(value) ? value.map(String) : (value as QueryValue);
  }
  return query;
};
