import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import { isUniqueViolation, timestamp } from '../db/database.js';
import type { Database, Request, RequestType, User } from '../db/schema.js';
import { fieldError, HttpError } from '../http/errors.js';
import type { Access } from '../access/access.js';
import { MAX_TEAM_NAME_LENGTH, teamNameFromShortname } from '../teams/naming.js';
import { findTeam, findTeamByName, isTeamMember } from '../teams/teams.js';
import { MAX_NAMESPACE_LENGTH, namespaceFits } from '../workspaces/naming.js';
import { findWorkspaceByName, isWorkspaceMember } from '../workspaces/workspaces.js';
import { creationEffects } from './effects.js';
import { applyAfterCommit } from '../effects/afterCommit.js';
import { notifyDeciders } from './notifications.js';
import { isDecider } from '../access/requests.js';
import { applyDecision, approvalTerms } from './routing.js';

export const TEAM_NAME_TAKEN = 'A team with this short name already exists.';
export const WORKSPACE_NAME_TAKEN = 'A workspace with this name already exists in this team.';
export const DUPLICATE_PENDING = 'A request for this is already pending.';
export const NOT_A_TEAM_MEMBER = 'You are not a member of this team.';

export interface Draft {
  type: RequestType;
  team_id: number | null;
  workspace_id: number | null;
  object_name: string;
  /** Two pending requests with the same key are duplicates. */
  dedupe_key: string;
  data: Record<string, unknown>;
  message: string | null;
}

/**
 * Stores a request (409 when an identical one is pending). A request its requester could
 * decide is approved at once, in the same transaction, and recorded as decided by them;
 * otherwise its deciders' mails are written in the same transaction and sent once it commits.
 */
export async function submitRequest(context: AppContext, requester: User, access: Access, draft: Draft): Promise<Request> {
  const { db } = context;
  const duplicate = await db
    .selectFrom('requests')
    .select('id')
    .where('dedupe_key', '=', draft.dedupe_key)
    .where('status', '=', 'Pending')
    .executeTakeFirst();
  if (duplicate) throw new HttpError(409, DUPLICATE_PENDING);

  const terms = await approvalTerms(context);
  let request: Request;
  try {
    request = await db.transaction().execute(async (trx) => {
      const now = timestamp();
      const stored = await trx
        .insertInto('requests')
        .values({
          ...draft,
          status: 'Pending',
          user_id: requester.id,
          data: JSON.stringify(draft.data),
          decision_message: null,
          decided_by: null,
          decided_at: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordActivity(trx, {
        causerId: requester.id,
        description: 'request created',
        subject: { type: 'request', id: stored.id },
        properties: { type: stored.type, object_name: stored.object_name, team_id: stored.team_id, workspace_id: stored.workspace_id },
      });
      if (!isDecider(access, stored)) {
        // The deciders' mails, outbox rows of this transaction: sent once it committed.
        await notifyDeciders(trx, context.config, stored);
        return stored;
      }
      return applyDecision(trx, stored, { deciderId: requester.id, action: 'approve', message: null, automatic: true, terms });
    });
  } catch (error) {
    // An identical request (or the same team) came in between the check and the insert.
    if (isUniqueViolation(error)) throw new HttpError(409, DUPLICATE_PENDING);
    throw error;
  }
  applyAfterCommit(context, creationEffects(context, request));
  return request;
}

export interface TeamForm {
  fullname: string;
  shortname: string;
  affiliation: string;
  country: string;
  url: string;
  joining_reason: string;
  joining_category: string;
  city: string | null;
}

/** POST /api/requests/teams: asks for a new team, named from its short name. */
export async function requestTeamCreation(context: AppContext, requester: User, access: Access, form: TeamForm): Promise<Request> {
  const name = teamNameFromShortname(form.shortname);
  if (name === '') throw fieldError('shortname', 'The shortname field must contain at least one letter or digit.');
  if (name.length > MAX_TEAM_NAME_LENGTH) {
    throw fieldError('shortname', `The shortname field must give a name of at most ${MAX_TEAM_NAME_LENGTH} letters and digits.`);
  }
  if (await findTeamByName(context.db, name)) throw fieldError('shortname', TEAM_NAME_TAKEN);
  return submitRequest(context, requester, access, {
    type: 'CreateTeam',
    team_id: null,
    workspace_id: null,
    object_name: name,
    dedupe_key: `CreateTeam:${name}`,
    data: { ...form, name },
    message: null,
  });
}

/** PATCH /api/requests/teams: asks to join a team. */
export async function requestTeamMembership(
  context: AppContext,
  requester: User,
  access: Access,
  input: { team_id: number; message: string | null },
): Promise<Request> {
  const team = await findTeam(context.db, input.team_id);
  if (!team) throw fieldError('team_id', 'The selected team_id is invalid.');
  if (await isTeamMember(context.db, team.id, requester.id)) throw fieldError('team_id', 'You are already a member of this team.');
  return submitRequest(context, requester, access, {
    type: 'JoinTeam',
    team_id: team.id,
    workspace_id: null,
    object_name: team.name,
    dedupe_key: `JoinTeam:${team.id}:${requester.id}`,
    data: { team_id: team.id },
    message: input.message,
  });
}

/** POST /api/requests/workspaces: asks for a new workspace in a team the requester belongs to. */
export async function requestWorkspaceCreation(
  context: AppContext,
  requester: User,
  access: Access,
  input: { label: string; name: string; team_id: number; description: string | null; message: string | null },
): Promise<Request> {
  const team = await findTeam(context.db, input.team_id);
  if (!team) throw fieldError('team_id', 'The selected team_id is invalid.');
  if (!access.admin && !access.teamRoles.has(team.id)) throw new HttpError(403, NOT_A_TEAM_MEMBER);
  if (await findWorkspaceByName(context.db, team.id, input.name)) throw fieldError('name', WORKSPACE_NAME_TAKEN);
  if (!namespaceFits(team.name, input.name)) {
    throw fieldError(
      'name',
      `The name field must not be greater than ${MAX_NAMESPACE_LENGTH - team.name.length - 1} characters in this team.`,
    );
  }
  return submitRequest(context, requester, access, {
    type: 'CreateWorkspace',
    team_id: team.id,
    workspace_id: null,
    object_name: input.name,
    dedupe_key: `CreateWorkspace:${team.id}:${input.name}`,
    data: { label: input.label, name: input.name, team_id: team.id, description: input.description },
    message: input.message,
  });
}

/** PATCH /api/requests/workspaces/: asks to join the workspace `name` of a team. */
export async function requestWorkspaceMembership(
  context: AppContext,
  requester: User,
  access: Access,
  input: { team_id: number; name: string; message: string | null },
): Promise<Request> {
  const team = await findTeam(context.db, input.team_id);
  if (!team) throw fieldError('team_id', 'The selected team_id is invalid.');
  const workspace = await findWorkspaceByName(context.db, team.id, input.name);
  if (!workspace) throw fieldError('name', 'The selected workspace is invalid.');
  if (await isWorkspaceMember(context.db, workspace.id, requester.id)) {
    throw fieldError('name', 'You are already a member of this workspace.');
  }
  return submitRequest(context, requester, access, {
    type: 'JoinWorkspace',
    team_id: team.id,
    workspace_id: workspace.id,
    object_name: workspace.name,
    dedupe_key: `JoinWorkspace:${workspace.id}:${requester.id}`,
    data: { team_id: team.id, name: workspace.name },
    message: input.message,
  });
}

/** The user's own requests, newest first (GET /user). */
export function requestsOf(db: Kysely<Database>, userId: number): Promise<Request[]> {
  return db.selectFrom('requests').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}
