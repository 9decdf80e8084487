import { z } from 'zod';
import { recordActivity } from '../activity/log.js';
import type { AppContext } from '../context.js';
import { type AfterCommitServices, applyAfterCommit } from '../effects/afterCommit.js';
import { MAX_ID } from '../http/schemas.js';
import { adminWorkspacesQuery } from './schemas.js';
import { bulkEndFilters, bulkExtendAnswer, DAYS_REQUIRED, extendDays, extendHasDays } from './extendBulk.js';
import { type DeletedWorkspace, deleteWorkspace } from '../workspaces/deletion.js';
import { queueWorkspaceDeletedMails, workspaceDeletedNotices } from '../workspaces/deletionNotice.js';

// Deleting workspaces as a platform admin: one (DELETE /api/admin/workspaces/{id}) or many
// (POST /api/admin/workspaces/bulk), each the same way: deleteWorkspace (its own transaction;
// the namespace and the members' service accounts go through the reconciler; the members'
// realtime rights end; the members' mails are outbox rows of that transaction), then the
// members are told (an event each, and the mails sent).

type Services = Pick<AppContext, 'db' | 'config'> & AfterCommitServices;
type Actor = { id: number; firstname: string; lastname: string };

/** Deletes one workspace and tells its members; null when there is no such workspace. */
export async function deleteWorkspaceAsAdmin(context: Services, workspaceId: number, actor: Actor): Promise<DeletedWorkspace | null> {
  const found = await context.db
    .selectFrom('workspaces as w')
    .innerJoin('teams as t', 't.id', 'w.team_id')
    .select(['w.id', 'w.name', 'w.label', 'w.namespace', 't.id as team_id', 't.name as team_name', 't.fullname as team_fullname'])
    .where('w.id', '=', workspaceId)
    .executeTakeFirst();
  if (!found) return null;
  const workspace = {
    id: found.id,
    name: found.name,
    label: found.label,
    namespace: found.namespace,
    team: { id: found.team_id, name: found.team_name, fullname: found.team_fullname },
  };
  const deciderName = `${actor.firstname} ${actor.lastname}`;
  const deleted = await deleteWorkspace(context, workspaceId, actor, (trx, result) =>
    queueWorkspaceDeletedMails(trx, context.config, { workspace, memberIds: result.member_ids, deciderName }),
  );
  if (!deleted) return null;
  applyAfterCommit(context, deleted.effects, workspaceDeletedNotices({ workspace, memberIds: deleted.member_ids }));
  return deleted;
}

export type WorkspaceBulkStatus = 'done' | 'not_found';

export interface WorkspaceBulkItem {
  id: number;
  status: WorkspaceBulkStatus;
  name?: string;
  namespace?: string;
  /** The workspace's members (done) or would-be-deleted members (dry run). */
  members?: number;
  message?: string;
}

/** Rows read per query in a dry run. */
const CHUNK = 500;

/**
 * POST /api/admin/workspaces/bulk {ids, action: "delete", dry_run?}: each id deleted as DELETE
 * /api/admin/workspaces/{id} deletes it, one transaction each, so an unknown id (404 in its
 * result) leaves the others deleted. A dry run deletes nothing and counts what would go. One
 * summary activity entry besides each workspace's own "workspace deleted".
 */
export async function bulkDeleteWorkspaces(context: Services, actor: Actor, request: { ids: number[]; dryRun: boolean }) {
  const { db } = context;
  const ids = [...new Set(request.ids)];
  const results: WorkspaceBulkItem[] = [];
  const people = new Set<number>();
  let memberships = 0;

  if (request.dryRun) {
    for (let start = 0; start < ids.length; start += CHUNK) {
      const chunk = ids.slice(start, start + CHUNK);
      const [workspaces, members] = await Promise.all([
        db.selectFrom('workspaces').select(['id', 'name', 'namespace']).where('id', 'in', chunk).execute(),
        db.selectFrom('workspace_members').select(['workspace_id', 'user_id']).where('workspace_id', 'in', chunk).execute(),
      ]);
      const byId = new Map(workspaces.map((workspace) => [workspace.id, workspace]));
      const counts = new Map<number, number>();
      for (const member of members) {
        counts.set(member.workspace_id, (counts.get(member.workspace_id) ?? 0) + 1);
        people.add(member.user_id);
      }
      memberships += members.length;
      for (const id of chunk) {
        const workspace = byId.get(id);
        results.push(
          workspace
            ? { id, status: 'done', name: workspace.name, namespace: workspace.namespace, members: counts.get(id) ?? 0 }
            : { id, status: 'not_found', message: 'Not found.' },
        );
      }
    }
  } else {
    for (const id of ids) {
      const deleted = await deleteWorkspaceAsAdmin(context, id, actor);
      if (!deleted) {
        results.push({ id, status: 'not_found', message: 'Not found.' });
        continue;
      }
      for (const userId of deleted.member_ids) people.add(userId);
      memberships += deleted.member_ids.length;
      results.push({ id, status: 'done', name: deleted.name, namespace: deleted.namespace, members: deleted.member_ids.length });
    }
  }

  const totals: Record<WorkspaceBulkStatus, number> = { done: 0, not_found: 0 };
  for (const result of results) totals[result.status]++;
  const done = results.filter((result) => result.status === 'done');
  const reach = { workspaces: done.length, members: people.size, memberships };

  if (!request.dryRun && done.length > 0) {
    await recordActivity(db, {
      causerId: actor.id,
      description: 'workspaces deleted in bulk',
      severity: 'warning',
      properties: { matched: ids.length, ...totals, members: people.size, memberships, namespaces: done.map((result) => result.namespace) },
    });
  }
  return { action: 'delete' as const, dry_run: request.dryRun, matched: ids.length, totals, reach, results };
}

// ---------------------------------------------------------------------------------------
// Request and answer shapes (docs/api-contract.md, "Admin: workspaces")

/** At most this many workspaces in one bulk deletion (each is its own transaction). */
export const MAX_BULK_WORKSPACE_IDS = 1000;
/** At most this many ids in one extension (batches of set-based work); a filter has no such limit. */
export const MAX_EXTEND_WORKSPACE_IDS = 10_000;

/** The admin workspaces list's filters (GET /api/admin/workspaces `q` and `filter[...]`), as JSON: for an extension. */
export const bulkWorkspacesFilter = z.object(
  {
    q: z
      .string({ error: 'The filter.q field must be a string.' })
      .trim()
      .max(255, 'The filter.q field must not be greater than 255 characters.')
      .refine((value) => !value.includes('\u0000'), 'The filter.q field contains an invalid character.')
      .optional(),
    team_id: z
      .number({ error: 'The filter.team_id field must be an id.' })
      .int('The filter.team_id field must be an id.')
      .min(1, 'The filter.team_id field must be an id.')
      .max(MAX_ID, 'The filter.team_id field must be an id.')
      .optional(),
    // The list's own date rules (ISO 8601 day or date-time with a zone; `to` takes in that day).
    from: adminWorkspacesQuery.shape['filter[from]'],
    to: adminWorkspacesQuery.shape['filter[to]'],
    ...bulkEndFilters,
  },
  { error: 'The filter field must be an object.' },
);

/**
 * Deleting takes ids (1 to 1,000; each its own transaction, its members told), as it always
 * did; extending takes ids (up to 10,000) or the list's filter, and `days`.
 */
export const bulkWorkspacesBody = z
  .object({
    ids: z
      .array(
        z
          .number({ error: 'Each id must be an integer.' })
          .int('Each id must be an integer.')
          .min(1, 'Each id must be an integer.')
          .max(MAX_ID, 'Each id must be an integer.'),
        { error: 'The ids field must be a list of ids.' },
      )
      .min(1, 'The ids field must have at least 1 item.')
      .max(MAX_EXTEND_WORKSPACE_IDS, `The ids field must not have more than ${MAX_EXTEND_WORKSPACE_IDS} items.`)
      .optional(),
    filter: bulkWorkspacesFilter.optional(),
    action: z.enum(['delete', 'extend'], {
      error: (issue) => (issue.input === undefined || issue.input === null ? 'The action field is required.' : 'The action field must be delete or extend.'),
    }),
    /** extend: by how many days (extendBulk.ts). */
    days: extendDays,
    dry_run: z.boolean({ error: 'The dry_run field must be true or false.' }).optional(),
  })
  .superRefine((body, context) => {
    if (body.action === 'delete') {
      if (body.ids === undefined) context.addIssue({ code: 'custom', message: 'The ids field is required.', path: ['ids'] });
      else if (body.ids.length > MAX_BULK_WORKSPACE_IDS) {
        context.addIssue({ code: 'custom', message: `The ids field must not have more than ${MAX_BULK_WORKSPACE_IDS} items.`, path: ['ids'] });
      }
      if (body.filter !== undefined) context.addIssue({ code: 'custom', message: 'Workspaces are deleted by ids, not by a filter.', path: ['filter'] });
      return;
    }
    if ((body.ids === undefined) === (body.filter === undefined)) context.addIssue({ code: 'custom', message: 'Give either ids or filter.', path: ['ids'] });
    if (!extendHasDays(body)) context.addIssue({ code: 'custom', message: DAYS_REQUIRED, path: ['days'] });
  });

/** Deleting. */
const bulkWorkspacesDeletedAnswer = z.object({
  action: z.literal('delete'),
  dry_run: z.boolean(),
  matched: z.number(),
  totals: z.object({ done: z.number(), not_found: z.number() }),
  /** What goes (would go, in a dry run): workspaces (and their namespaces), distinct members, memberships. */
  reach: z.object({ workspaces: z.number(), members: z.number(), memberships: z.number() }),
  results: z.array(
    z.object({
      id: z.number(),
      status: z.enum(['done', 'not_found']),
      name: z.string().optional(),
      namespace: z.string().optional(),
      members: z.number().optional(),
      message: z.string().optional(),
    }),
  ),
});

export const bulkWorkspacesAnswer = z.discriminatedUnion('action', [bulkWorkspacesDeletedAnswer, bulkExtendAnswer]);
