import type { Kysely } from 'kysely';
import { type Access, managesTeam } from '../access/access.js';
import { effectiveQuota, type WorkspaceQuota } from '../cluster/quota.js';
import type { AppContext } from '../context.js';
import type { Database, Request, User } from '../db/schema.js';
import { type FieldErrors, HttpError, notFound, validationError, fieldError } from '../http/errors.js';
import { amountOf, effectiveAmounts, QUOTA_RESOURCES, raiseTeamQuotaFor, teamRoomErrors } from '../teams/quota.js';
import { changeWorkspaceQuota, type QuotaChange, workspaceQuotaOf } from '../workspaces/quota.js';
import { findWorkspace } from '../workspaces/workspaces.js';
import { submitRequest } from './requests.js';

// Asking for more quota for a workspace (docs/api-contract.md, "Requests for more quota"), a
// request like the others: within what the team has left, the team's owner/managers decide (at
// once when they ask themselves); beyond it, platform admins, who may raise the team quota in
// the same decision. A grant until a date returns to the former quota then (lifecycle/).

export const NOT_IN_WORKSPACE = 'Only the members of this workspace and the managers of its team may ask for more quota.';
export const NOTHING_ASKED = 'Ask for at least one of cpu, memory, pods and storage.';
export const ONLY_ADMINS_RAISE = 'Only platform admins may raise the team quota.';

function lowerMessage(field: string, current: string): string {
  return `The quota.${field} field must not be lower than the current ${current}.`;
}

/** POST /api/requests/workspaces/{id}/quota. */
export async function requestQuotaIncrease(
  context: AppContext,
  requester: User,
  access: Access,
  input: { workspaceId: number; quota: QuotaChange; reason: string; until?: string },
): Promise<Request> {
  const workspace = await findWorkspace(context.db, input.workspaceId);
  if (!workspace) throw notFound();
  if (!access.admin && !access.workspaceRoles.has(workspace.id) && !managesTeam(access, workspace.team_id)) throw new HttpError(403, NOT_IN_WORKSPACE);

  const current = workspaceQuotaOf(workspace);
  const currentEffective = effectiveQuota(current);
  const asked: Partial<WorkspaceQuota> = {};
  const errors: FieldErrors = {};
  for (const resource of QUOTA_RESOURCES) {
    const value = input.quota[resource];
    if (value === undefined) continue;
    // null asks for the default, which is more only when the workspace has less.
    const wanted = value ?? effectiveQuota({ cpu: null, memory: null, pods: null, storage: null })[resource];
    if (amountOf(resource, wanted) < amountOf(resource, currentEffective[resource])) {
      errors[`quota.${resource}`] = [lowerMessage(resource, String(currentEffective[resource]))];
    }
    (asked as Record<string, unknown>)[resource] = value;
  }
  if (Object.keys(asked).length === 0) throw fieldError('quota', NOTHING_ASKED);
  if (input.until !== undefined && new Date(input.until).getTime() <= context.clock.now().getTime()) {
    errors.until = ['The until date must be in the future.'];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);

  const after: WorkspaceQuota = { ...current, ...asked };
  const beyond = await teamRoomErrors(context.db, { teamId: workspace.team_id, needs: effectiveAmounts(after), exceptWorkspaceId: workspace.id });
  const adminsDecide = Object.keys(beyond).length > 0;
  return submitRequest(context, requester, access, {
    type: 'QuotaIncrease',
    team_id: workspace.team_id,
    workspace_id: workspace.id,
    object_name: workspace.name,
    dedupe_key: `QuotaIncrease:${workspace.id}`,
    data: {
      quota: asked,
      current: currentEffective,
      ...(input.until !== undefined ? { until: new Date(input.until).toISOString() } : {}),
      ...(adminsDecide ? { admins_decide: true } : {}),
    },
    message: input.reason,
  });
}

/**
 * The approval (in the decision's transaction): the workspace gets the values asked, within its
 * team quota unless a platform admin raises the team quota too. With `until`, the former quota
 * is kept to return to then (the first one, when grants follow each other); without, a grant is
 * for good and ends any earlier grant's return.
 */
export async function approveQuotaIncrease(
  trx: Kysely<Database>,
  request: Request,
  decision: { deciderId: number; raiseTeamQuota: boolean },
): Promise<void> {
  const workspace = request.workspace_id === null ? undefined : await trx.selectFrom('workspaces').selectAll().where('id', '=', request.workspace_id).executeTakeFirst();
  if (!workspace) throw new HttpError(409, 'The workspace no longer exists.');
  const data = JSON.parse(request.data) as { quota?: QuotaChange; until?: string };
  const change: QuotaChange = data.quota ?? {};
  const before = workspaceQuotaOf(workspace);
  if (decision.raiseTeamQuota) {
    await raiseTeamQuotaFor(trx, {
      teamId: workspace.team_id,
      workspaceId: workspace.id,
      needs: effectiveAmounts({ ...before, ...change }),
      causerId: decision.deciderId,
      requestId: request.id,
    });
  }
  await changeWorkspaceQuota(trx, { workspaceId: workspace.id, change, causerId: decision.deciderId, requestId: request.id, activity: { until: data.until ?? null } });
  const previous = data.until === undefined ? null : (workspace.quota_previous ?? JSON.stringify(before));
  await trx
    .updateTable('workspaces')
    .set({ quota_until: data.until ?? null, quota_previous: previous })
    .where('id', '=', workspace.id)
    .execute();
}

/** Only platform admins may raise the team quota in a decision. */
export function checkRaiseTeamQuota(access: Access, raise: boolean | undefined): boolean {
  if (raise && !access.admin) throw fieldError('raise_team_quota', ONLY_ADMINS_RAISE);
  return raise ?? false;
}
