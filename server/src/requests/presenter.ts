import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, Request } from '../db/schema.js';
import type { Access } from '../access/access.js';
import { mayDecide } from '../access/requests.js';

/** A request as the console sees it (docs/api-contract.md, "Request"). */
export const requestSchema = z.object({
  id: z.number(),
  type: z.enum(['CreateTeam', 'JoinTeam', 'CreateWorkspace', 'JoinWorkspace', 'RenewWorkspace', 'RenewTeam', 'QuotaIncrease']),
  status: z.enum(['Pending', 'Approved', 'Denied', 'Error']),
  message: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  // The requester, with their email: deciders need to know who asks (and how to reach them).
  user: z.object({ id: z.number(), firstname: z.string(), lastname: z.string(), name: z.string(), email: z.string() }).nullable(),
  object: z.object({
    id: z.number().optional(),
    name: z.string(),
    fullname: z.string().optional(),
    shortname: z.string().optional(),
    label: z.string().optional(),
  }),
  team: z.object({ id: z.number(), name: z.string(), fullname: z.string() }).nullable(),
  decided_by: z.object({ id: z.number(), name: z.string() }).nullable(),
  decided_at: z.string().nullable(),
  decision_message: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  can_decide: z.boolean(),
});

export type PresentedRequest = z.infer<typeof requestSchema>;

const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
const unique = (values: (number | null)[]) => [...new Set(values.filter((value): value is number => value !== null))];

/** What presenting requests needs besides the rows: the people, teams and workspaces they name. */
export interface RequestRelations {
  users: Map<number, { id: number; firstname: string; lastname: string; email: string }>;
  teams: Map<number, { id: number; name: string; fullname: string; shortname: string }>;
  workspaces: Map<number, { id: number; name: string; label: string }>;
}

/**
 * Presents requests with their requester, decider, team and workspace: one query per kind of
 * relation, whatever the number of requests. `access` (the viewer) fills `can_decide`.
 */
export async function presentRequests(db: Kysely<Database>, requests: Request[], access: Access | null): Promise<PresentedRequest[]> {
  if (requests.length === 0) return [];
  const userIds = unique(requests.flatMap((request) => [request.user_id, request.decided_by]));
  const teamIds = unique(requests.map((request) => request.team_id));
  const workspaceIds = unique(requests.map((request) => request.workspace_id));
  const [users, teams, workspaces] = await Promise.all([
    db.selectFrom('users').select(['id', 'firstname', 'lastname', 'email']).where('id', 'in', userIds).execute(),
    teamIds.length
      ? db.selectFrom('teams').select(['id', 'name', 'fullname', 'shortname']).where('id', 'in', teamIds).execute()
      : Promise.resolve([]),
    workspaceIds.length
      ? db.selectFrom('workspaces').select(['id', 'name', 'label']).where('id', 'in', workspaceIds).execute()
      : Promise.resolve([]),
  ]);
  return presentRequestsWith(requests, { users: byId(users), teams: byId(teams), workspaces: byId(workspaces) }, access);
}

/**
 * A request row with what it names joined in (GET /api/requests' page query, GET /user's
 * requests): the requester (when not known otherwise), decider, team and workspace columns.
 */
export interface JoinedRequest extends Request {
  requester_firstname?: string | null;
  requester_lastname?: string | null;
  requester_email?: string | null;
  decider_firstname: string | null;
  decider_lastname: string | null;
  decider_email: string | null;
  team_name: string | null;
  team_fullname: string | null;
  team_shortname: string | null;
  workspace_name: string | null;
  workspace_label: string | null;
}

/** The requests of joined rows, and their relations added to `relations`, for presentRequestsWith. */
export function splitJoinedRequests(
  joined: JoinedRequest[],
  relations: RequestRelations = { users: new Map(), teams: new Map(), workspaces: new Map() },
): { requests: Request[]; relations: RequestRelations } {
  const requests: Request[] = [];
  for (const row of joined) {
    const {
      requester_firstname,
      requester_lastname,
      requester_email,
      decider_firstname,
      decider_lastname,
      decider_email,
      team_name,
      team_fullname,
      team_shortname,
      workspace_name,
      workspace_label,
      ...request
    } = row;
    requests.push(request);
    if (requester_firstname != null) {
      relations.users.set(request.user_id, { id: request.user_id, firstname: requester_firstname, lastname: requester_lastname!, email: requester_email! });
    }
    if (request.decided_by !== null && decider_firstname !== null) {
      relations.users.set(request.decided_by, { id: request.decided_by, firstname: decider_firstname, lastname: decider_lastname!, email: decider_email! });
    }
    if (request.team_id !== null && team_name !== null) {
      relations.teams.set(request.team_id, { id: request.team_id, name: team_name, fullname: team_fullname!, shortname: team_shortname! });
    }
    if (request.workspace_id !== null && workspace_name !== null) {
      relations.workspaces.set(request.workspace_id, { id: request.workspace_id, name: workspace_name, label: workspace_label! });
    }
  }
  return { requests, relations };
}

/** presentRequests for a caller that has the relations already (GET /user loads them in its one query). */
export function presentRequestsWith(requests: Request[], relations: RequestRelations, access: Access | null): PresentedRequest[] {
  const { users: usersById, teams: teamsById, workspaces: workspacesById } = relations;
  const fullName = (user: { firstname: string; lastname: string }) => `${user.firstname} ${user.lastname}`;

  return requests.map((request) => {
    const data = JSON.parse(request.data) as Record<string, unknown>;
    const text = (key: string) => (typeof data[key] === 'string' ? (data[key] as string) : undefined);
    const requester = usersById.get(request.user_id);
    const decider = request.decided_by === null ? undefined : usersById.get(request.decided_by);
    const team = request.team_id === null ? undefined : teamsById.get(request.team_id);
    const workspace = request.workspace_id === null ? undefined : workspacesById.get(request.workspace_id);

    let object: PresentedRequest['object'];
    switch (request.type) {
      case 'CreateTeam':
      case 'JoinTeam':
      case 'RenewTeam':
        object = team
          ? { id: team.id, name: team.name, fullname: team.fullname, shortname: team.shortname }
          : { name: request.object_name, fullname: text('fullname'), shortname: text('shortname') };
        break;
      case 'CreateWorkspace':
      case 'JoinWorkspace':
      case 'RenewWorkspace':
      case 'QuotaIncrease':
        object = workspace
          ? { id: workspace.id, name: workspace.name, label: workspace.label }
          : { name: request.object_name, label: text('label') };
        break;
    }
    return {
      id: request.id,
      type: request.type,
      status: request.status,
      message: request.message,
      data,
      user: requester
        ? { id: requester.id, firstname: requester.firstname, lastname: requester.lastname, name: fullName(requester), email: requester.email }
        : null,
      object,
      team: team ? { id: team.id, name: team.name, fullname: team.fullname } : null,
      decided_by: decider ? { id: decider.id, name: fullName(decider) } : null,
      decided_at: request.decided_at,
      decision_message: request.decision_message,
      created_at: request.created_at,
      updated_at: request.updated_at,
      can_decide: access !== null && request.status === 'Pending' && mayDecide(access, request),
    };
  });
}
