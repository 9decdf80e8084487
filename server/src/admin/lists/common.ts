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
