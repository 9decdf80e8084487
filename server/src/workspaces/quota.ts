import type { Kysely } from 'kysely';
import { z } from 'zod';
import { recordActivity } from '../activity/log.js';
import { quantityValue, type WorkspaceQuota } from '../cluster/quota.js';
import { timestamp } from '../db/database.js';
import type { Database, Workspace } from '../db/schema.js';
import { assertRaiseFits } from '../teams/quota.js';

// A platform admin sets a workspace's quota (PATCH /api/admin/workspaces/{id}); the reconciler
// takes it to the namespace's ResourceQuota (cluster/quota.ts says how the four values map).
// The bounds keep obvious typos ("16Ti" of memory for one workspace) from reaching the cluster,
// where an over-large quota would silently let one workspace take every contributed machine.

const TI = 2 ** 40;
export const QUOTA_LIMITS = { cpu: 1024, memory: 16 * TI, storage: 1024 * TI, pods: 10_000 } as const;

/** Only the forms the console documents: whole or decimal numbers (3 decimals at most), one unit. */
const CPU = /^(\d{1,7}(\.\d{1,3})?|\d{1,10}m)$/;
const SIZE = /^\d{1,7}(\.\d{1,3})?(Ki|Mi|Gi|Ti|k|K|M|G|T)$/;

const cpuField = z
  .string({ error: 'The quota.cpu field must be a CPU quantity such as 4, 0.5 or 500m.' })
  .trim()
  // One message per field: a value that is not a quantity is not also "not greater than 0".
  .regex(CPU, { error: 'The quota.cpu field must be a CPU quantity such as 4, 0.5 or 500m.', abort: true })
  .refine((value) => quantityValue(value) > 0, 'The quota.cpu field must be greater than 0.')
  .refine((value) => quantityValue(value) <= QUOTA_LIMITS.cpu, `The quota.cpu field must not be greater than ${QUOTA_LIMITS.cpu} CPUs.`);

const sizeField = (field: 'memory' | 'storage', max: number, maxText: string) =>
  z
    .string({ error: `The quota.${field} field must be a size such as 512Mi, 16Gi or 1Ti.` })
    .trim()
    .regex(SIZE, { error: `The quota.${field} field must be a size such as 512Mi, 16Gi or 1Ti.`, abort: true })
    // Kubernetes writes the decimal kilo as `k`; `K` is accepted as people type it.
    .transform((value) => value.replace(/K$/, 'k'))
    .refine((value) => quantityValue(value) > 0, `The quota.${field} field must be greater than 0.`)
    .refine((value) => quantityValue(value) <= max, `The quota.${field} field must not be greater than ${maxText}.`);

const podsField = z
  .number({ error: 'The quota.pods field must be a whole number.' })
  .int('The quota.pods field must be a whole number.')
  .min(1, 'The quota.pods field must be at least 1.')
  .max(QUOTA_LIMITS.pods, `The quota.pods field must not be greater than ${QUOTA_LIMITS.pods}.`);

/** PATCH body: each value optional (unchanged), null resets it to the default. */
export const workspaceQuotaBody = z.object({
  quota: z.object(
    {
      cpu: cpuField.nullable().optional(),
      memory: sizeField('memory', QUOTA_LIMITS.memory, `${QUOTA_LIMITS.memory / TI}Ti`).nullable().optional(),
      pods: podsField.nullable().optional(),
      storage: sizeField('storage', QUOTA_LIMITS.storage, `${QUOTA_LIMITS.storage / TI}Ti`).nullable().optional(),
    },
    { error: 'The quota field must be an object with cpu, memory, pods and storage.' },
  ),
});

export type QuotaChange = z.infer<typeof workspaceQuotaBody>['quota'];

export const workspaceQuotaOf = (workspace: Workspace): WorkspaceQuota => ({
  cpu: workspace.quota_cpu,
  memory: workspace.quota_memory,
  pods: workspace.quota_pods,
  storage: workspace.quota_storage,
});

/**
 * Stores the new values and marks the workspace `pending`, so the reconciler's next pass
 * ensures its tenancy objects with them (it compares the quota before writing). A workspace the
 * cluster refused (`error`) is retried too: the new quota is a reason to try again.
 * Answers the workspace as stored, or undefined when it no longer exists. A raise beyond what
 * its team has left is refused (422, teams/quota.ts).
 */
export async function setWorkspaceQuota(
  db: Kysely<Database>,
  input: { workspaceId: number; change: QuotaChange; causerId: number },
): Promise<Workspace | undefined> {
  return db.transaction().execute((trx) => changeWorkspaceQuota(trx, input));
}

/** setWorkspaceQuota inside the caller's transaction (a request's approval). */
export async function changeWorkspaceQuota(
  trx: Kysely<Database>,
  input: { workspaceId: number; change: QuotaChange; causerId: number; requestId?: number; activity?: Record<string, unknown> },
): Promise<Workspace | undefined> {
  const before = await trx.selectFrom('workspaces').selectAll().where('id', '=', input.workspaceId).executeTakeFirst();
  if (!before) return undefined;
  const { cpu, memory, pods, storage } = input.change;
  const after: WorkspaceQuota = {
    cpu: cpu !== undefined ? cpu : before.quota_cpu,
    memory: memory !== undefined ? memory : before.quota_memory,
    pods: pods !== undefined ? pods : before.quota_pods,
    storage: storage !== undefined ? storage : before.quota_storage,
  };
  await assertRaiseFits(trx, { teamId: before.team_id, workspaceId: before.id, before: workspaceQuotaOf(before), after });
  const updated = await trx
    .updateTable('workspaces')
    .set({ quota_cpu: after.cpu, quota_memory: after.memory, quota_pods: after.pods, quota_storage: after.storage, cluster_state: 'pending', updated_at: timestamp() })
    .where('id', '=', input.workspaceId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordActivity(trx, {
    causerId: input.causerId,
    description: 'workspace quota changed',
    subject: { type: 'workspace', id: input.workspaceId },
    properties: {
      namespace: updated.namespace,
      before: workspaceQuotaOf(before),
      after: workspaceQuotaOf(updated),
      ...(input.requestId !== undefined ? { request_id: input.requestId } : {}),
      ...input.activity,
    },
  });
  return updated;
}
