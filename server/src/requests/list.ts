import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database, Request, RequestStatus, RequestType } from '../db/schema.js';
import { type Access, managesTeam } from '../access/access.js';
import { ADMINS_DECIDE } from '../access/requests.js';
import { type RequestRelations, splitJoinedRequests } from './presenter.js';

export interface RequestListOptions {
  status?: RequestStatus;
  type?: RequestType;
  teamId?: number;
  /** Requester's first name, last name, full name or email, or the object's name. */
  q?: string;
  order?: 'asc' | 'desc';
  /** 1-based; absent = every match. */
  page?: number;
  perPage: number;
}

/** Case-insensitive "contains" on any of the expressions, LIKE's wildcards in `q` taken literally. */
function contains(q: string, columns: Expression<unknown>[]): Expression<SqlBool> {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const tests = columns.map((column) => sql<SqlBool>`lower(${column}) like ${pattern} escape ${sql.raw("'\\'")}`);
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

export type RequestFilters = Pick<RequestListOptions, 'status' | 'type' | 'teamId' | 'q'>;

/**
 * The requests the viewer may decide (never their own: docs/decisions.md) that the filters
 * match, as a query on `requests as r` (unsorted, unpaged), or null when the viewer decides
 * nothing at all. The visibility rule is the SQL form of `isDecider` (routing.ts): admins see
 * every request; team owners/managers their teams' JoinTeam, CreateWorkspace and
 * JoinWorkspace; workspace managers their workspaces' JoinWorkspace. GET /api/requests pages
 * it; POST /api/requests/bulk with a filter decides what it matches.
 */
export function matchingRequests(db: Kysely<Database>, access: Access, filters: RequestFilters) {
  const managedTeams = [...access.teamRoles].filter(([id]) => managesTeam(access, id)).map(([id]) => id);
  const managedWorkspaces = [...access.workspaceRoles].filter(([, role]) => role === 'manager').map(([id]) => id);
  if (!access.admin && managedTeams.length === 0 && managedWorkspaces.length === 0) return null;

  let query = db.selectFrom('requests as r').where('r.user_id', '!=', access.userId);
  if (!access.admin) {
    query = query.where((eb) =>
      eb.or([
        ...(managedTeams.length
          ? [
              eb.and([eb('r.type', 'in', ['JoinTeam', 'CreateWorkspace', 'JoinWorkspace']), eb('r.team_id', 'in', managedTeams)]),
              eb.and([eb('r.type', 'in', ['RenewWorkspace', 'QuotaIncrease']), eb('r.team_id', 'in', managedTeams), eb('r.data', 'not like', `%${ADMINS_DECIDE}%`)]),
            ]
          : []),
        ...(managedWorkspaces.length ? [eb.and([eb('r.type', '=', 'JoinWorkspace'), eb('r.workspace_id', 'in', managedWorkspaces)])] : []),
      ]),
    );
  }
  if (filters.status) query = query.where('r.status', '=', filters.status);
  if (filters.type) query = query.where('r.type', '=', filters.type);
  if (filters.teamId !== undefined) query = query.where('r.team_id', '=', filters.teamId);
  if (filters.q) {
    const q = filters.q;
    // The requester is joined only when searching: the plain list stays on the requests indexes.
    query = query.innerJoin('users as u', 'u.id', 'r.user_id').where(({ ref }) =>
      contains(q, [ref('u.firstname'), ref('u.lastname'), sql`${ref('u.firstname')} || ' ' || ${ref('u.lastname')}`, ref('u.email'), ref('r.object_name')]),
    );
  }
  return query;
}

/**
 * GET /api/requests: the requests the viewer may decide (matchingRequests), sorted by date and
 * paged in SQL, with the requester, decider, team and workspace each names joined into the same
 * query (what presentRequestsWith needs), so a page costs one query (and one count).
 */
export async function requestsToDecide(
  db: Kysely<Database>,
  access: Access,
  options: RequestListOptions,
): Promise<{ rows: Request[]; total: number; relations: RequestRelations }> {
  const query = matchingRequests(db, access, options);
  if (!query) return { rows: [], total: 0, relations: { users: new Map(), teams: new Map(), workspaces: new Map() } };

  const order = options.order ?? 'desc';
  // id breaks ties between requests made in the same millisecond, so pages never overlap.
  const ordered = query
    .leftJoin('users as requester', 'requester.id', 'r.user_id')
    .leftJoin('users as decider', 'decider.id', 'r.decided_by')
    .leftJoin('teams as request_team', 'request_team.id', 'r.team_id')
    .leftJoin('workspaces as request_workspace', 'request_workspace.id', 'r.workspace_id')
    .selectAll('r')
    .select([
      'requester.firstname as requester_firstname',
      'requester.lastname as requester_lastname',
      'requester.email as requester_email',
      'decider.firstname as decider_firstname',
      'decider.lastname as decider_lastname',
      'decider.email as decider_email',
      'request_team.name as team_name',
      'request_team.fullname as team_fullname',
      'request_team.shortname as team_shortname',
      'request_workspace.name as workspace_name',
      'request_workspace.label as workspace_label',
    ])
    .orderBy('r.created_at', order)
    .orderBy('r.id', order);
  if (options.page === undefined) {
    const joined = await ordered.execute();
    const { requests, relations } = splitJoinedRequests(joined);
    return { rows: requests, relations, total: joined.length };
  }
  const [joined, count] = await Promise.all([
    ordered
      .limit(options.perPage)
      .offset((options.page - 1) * options.perPage)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const { requests, relations } = splitJoinedRequests(joined);
  return { rows: requests, relations, total: Number(count.total) };
}
