import { type Expression, type SqlBool, sql } from 'kysely';

// What the platform admins' lists share: paging, chunked relation loading, search.

export interface ListOptions<Sort extends string> {
  page?: number;
  perPage: number;
  sort: Sort;
  order?: 'asc' | 'desc';
  q?: string;
}

export interface ListResult<T> {
  rows: T[];
  total: number;
}

/**
 * The end-date filters of the teams and workspaces lists (and of their exports and bulk actions):
 * ending from now to `expiringWithinDays` days on, or ended (`expired: true`) / not ended
 * (`false`). Read at `now`, the app's clock (context.clock), which the route gives.
 */
export interface EndFilters {
  expiringWithinDays?: number;
  expired?: boolean;
  now?: Date;
}

/** The bounds of the end filters as stored timestamps: `now`, and `now` + the days (when asked). */
export function endBounds(filters: EndFilters): { now: string; by: string | null } | null {
  if (filters.expiringWithinDays === undefined && filters.expired === undefined) return null;
  // A filter read by time without the app's clock would disagree with what the pass does.
  if (!filters.now) throw new Error('The end filters need the time they are read at (the app clock).');
  const now = filters.now.getTime();
  const by = filters.expiringWithinDays === undefined ? null : new Date(now + filters.expiringWithinDays * 86_400_000).toISOString();
  return { now: filters.now.toISOString(), by };
}

/**
 * Sorting on an end date: undated rows (no end) last whichever the order, the same on SQLite
 * (where NULL sorts first ascending) and PostgreSQL (where it sorts last ascending, first
 * descending).
 */
export const undatedLast = (column: string) => sql<number>`case when ${sql.ref(column)} is null then 1 else 0 end`;

export const CHUNK = 1000;

export async function inChunks<T>(ids: number[], load: (chunk: number[]) => Promise<T[]>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < ids.length; start += CHUNK) results.push(...(await load(ids.slice(start, start + CHUNK))));
  return results;
}

export const groupBy = <T, K>(rows: T[], key: (row: T) => K) => {
  const groups = new Map<K, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
};

/** Case-insensitive "contains" on any of the expressions, with LIKE wildcards in `q` taken literally. */
export function contains(q: string, columns: Expression<unknown>[]): Expression<SqlBool> {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const tests = columns.map((column) => sql<SqlBool>`lower(${column}) like ${pattern} escape ${sql.raw("'\\'")}`);
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

export const fullName = (user: { firstname: string; lastname: string }) => `${user.firstname} ${user.lastname}`;

/** Runs the page (or everything) and the total of a filtered query. */
export async function pageAndTotal<Row>(
  options: { page?: number; perPage: number },
  rows: (limit?: { limit: number; offset: number }) => Promise<Row[]>,
  count: () => Promise<{ total: number | string | bigint }>,
): Promise<ListResult<Row>> {
  if (options.page === undefined) {
    const all = await rows();
    return { rows: all, total: all.length };
  }
  const [page, counted] = await Promise.all([
    rows({ limit: options.perPage, offset: (options.page - 1) * options.perPage }),
    count(),
  ]);
  return { rows: page, total: Number(counted.total) };
}
