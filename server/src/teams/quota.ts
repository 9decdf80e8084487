import type { Kysely } from 'kysely';
import { CREDIT_DEFAULTS } from '../config/config.js';
import { z } from 'zod';
import { recordActivity } from '../activity/log.js';
import { effectiveQuota, quantityValue } from '../cluster/quota.js';
import { timestamp } from '../db/database.js';
import type { Database, Team } from '../db/schema.js';
import { type FieldErrors, validationError } from '../http/errors.js';

// A team quota (docs/cluster.md, "Workspace quotas"): platform admins cap what the team's
// workspaces may add up to, as Rancher's and Capsule's project quotas do. The workspaces'
// effective quotas (their own values, else the defaults) are summed, so a workspace nobody
// touched counts for the defaults it really gets. A resource left null has no team cap.
// Contributor credit: the team's nodes that are Ready add their capacity times a platform
// factor to the cpu and memory caps (EdgeNet's rule), withdrawn while a node is not Ready.

export const QUOTA_RESOURCES = ['cpu', 'memory', 'pods', 'storage'] as const;
export type QuotaResource = (typeof QUOTA_RESOURCES)[number];

export interface TeamQuota {
  cpu: string | null;
  memory: string | null;
  pods: number | null;
  storage: string | null;
}

/** Values as numbers: cores, bytes, pods, bytes. */
export type Amounts = Record<QuotaResource, number>;

export type CreditSettings = { credit_cpu_factor: number; credit_memory_factor: number };

export const teamQuotaOf = (team: Pick<Team, 'quota_cpu' | 'quota_memory' | 'quota_pods' | 'quota_storage'>): TeamQuota => ({
  cpu: team.quota_cpu,
  memory: team.quota_memory,
  pods: team.quota_pods,
  storage: team.quota_storage,
});

const hasTeamQuota = (quota: TeamQuota) => QUOTA_RESOURCES.some((resource) => quota[resource] !== null);

/** The value of one resource of a quota, as a number (pods as they are). */
export const amountOf = (resource: QuotaResource, value: string | number): number =>
  resource === 'pods' ? Number(value) : quantityValue(String(value));

/** A number back into the quantity people read: "2", "500m", "16Gi", "1.5Ti". */
export function formatAmount(resource: QuotaResource, value: number): string {
  if (resource === 'pods') return String(Math.round(value));
  if (resource === 'cpu') {
    const rounded = Math.round(value * 1000) / 1000;
    return Number.isInteger(rounded) ? String(rounded) : `${Math.round(rounded * 1000)}m`;
  }
  for (const [unit, size] of [['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]] as const) {
    if (Math.abs(value) >= size) return `${Number((value / size).toFixed(3))}${unit}`;
  }
  return String(Math.round(value));
}

/** The platform's credit factors (platform_settings; 0 turns credit off). */
export async function creditSettings(db: Kysely<Database>): Promise<CreditSettings> {
  const rows = await db.selectFrom('platform_settings').select(['key', 'value']).where('key', 'in', Object.keys(CREDIT_DEFAULTS)).execute();
  const settings: CreditSettings = { ...CREDIT_DEFAULTS };
  for (const row of rows) {
    const value = Number(JSON.parse(row.value));
    if (Number.isFinite(value) && value >= 0) settings[row.key as keyof CreditSettings] = value;
  }
  return settings;
}

export interface Credit {
  nodes: number;
  /** Cores and bytes. */
  cpu: number;
  memory: number;
}

/** What the team's Ready (status ok, not disabled) contributed nodes add to its cpu and memory caps. */
export async function teamCredit(db: Kysely<Database>, teamId: number): Promise<Credit> {
  const [nodes, settings] = await Promise.all([
    db.selectFrom('nodes').select('info').where('team_id', '=', teamId).where('status', '=', 'ok').where('disabled_at', 'is', null).execute(),
    creditSettings(db),
  ]);
  const credit: Credit = { nodes: 0, cpu: 0, memory: 0 };
  for (const node of nodes) {
    const capacity = capacityOf(node.info);
    credit.nodes += 1;
    credit.cpu += capacity.cpu * settings.credit_cpu_factor;
    credit.memory += capacity.memory * settings.credit_memory_factor;
  }
  return credit;
}

function capacityOf(info: string): { cpu: number; memory: number } {
  try {
    const capacity = (JSON.parse(info) as { cluster?: { capacity?: Record<string, string> } }).cluster?.capacity ?? {};
    const cpu = quantityValue(capacity.cpu ?? '0');
    const memory = quantityValue(capacity.memory ?? '0');
    return { cpu: Number.isFinite(cpu) ? cpu : 0, memory: Number.isFinite(memory) ? memory : 0 };
  } catch {
    return { cpu: 0, memory: 0 };
  }
}

/** The sum of the team's workspaces' effective quotas, leaving one workspace out if asked. */
export async function allocatedInTeam(db: Kysely<Database>, teamId: number, exceptWorkspaceId?: number): Promise<Amounts> {
  const rows = await db
    .selectFrom('workspaces')
    .select(['quota_cpu', 'quota_memory', 'quota_pods', 'quota_storage'])
    .where('team_id', '=', teamId)
    .$if(exceptWorkspaceId !== undefined, (qb) => qb.where('id', '!=', exceptWorkspaceId!))
    .execute();
  const sum: Amounts = { cpu: 0, memory: 0, pods: 0, storage: 0 };
  for (const row of rows) {
    const quota = effectiveQuota({ cpu: row.quota_cpu, memory: row.quota_memory, pods: row.quota_pods, storage: row.quota_storage });
    for (const resource of QUOTA_RESOURCES) sum[resource] += amountOf(resource, quota[resource]);
  }
  return sum;
}

/** The team's caps as numbers, credit included; null for a resource without a cap. */
export function capsOf(quota: TeamQuota, credit: Credit): Record<QuotaResource, number | null> {
  const cap = (resource: QuotaResource) => {
    const value = quota[resource];
    if (value === null) return null;
    const extra = resource === 'cpu' ? credit.cpu : resource === 'memory' ? credit.memory : 0;
    return amountOf(resource, value) + extra;
  };
  return { cpu: cap('cpu'), memory: cap('memory'), pods: cap('pods'), storage: cap('storage') };
}

/** What is needed and what is left, e.g. "The team has 2 CPUs left of 16; this workspace needs 4." */
function roomMessage(resource: QuotaResource, left: string, hard: string, needed: string): string {
  switch (resource) {
    case 'cpu':
      return `The team has ${left} CPUs left of ${hard}; this workspace needs ${needed}.`;
    case 'memory':
      return `The team has ${left} of memory left of ${hard}; this workspace needs ${needed}.`;
    case 'pods':
      return `The team has ${left} pods left of ${hard}; this workspace needs ${needed}.`;
    case 'storage':
      return `The team has ${left} of storage left of ${hard}; this workspace needs ${needed}.`;
  }
}

function lowerMessage(resource: QuotaResource, allocated: string): string {
  switch (resource) {
    case 'cpu':
      return `The team quota for cpu cannot be lower than the ${allocated} its workspaces already hold.`;
    case 'memory':
      return `The team quota for memory cannot be lower than the ${allocated} its workspaces already hold.`;
    case 'pods':
      return `The team quota for pods cannot be lower than the ${allocated} its workspaces already hold.`;
    case 'storage':
      return `The team quota for storage cannot be lower than the ${allocated} its workspaces already hold.`;
  }
}

/** What one workspace would need that the team has not left: field errors `quota.<resource>`, empty when it fits. */
export async function teamRoomErrors(
  db: Kysely<Database>,
  input: { teamId: number; needs: Amounts; exceptWorkspaceId?: number; extra?: Partial<Amounts> },
): Promise<FieldErrors> {
  const team = await db.selectFrom('teams').selectAll().where('id', '=', input.teamId).executeTakeFirst();
  if (!team || !hasTeamQuota(teamQuotaOf(team))) return {};
  const [allocated, credit] = await Promise.all([allocatedInTeam(db, input.teamId, input.exceptWorkspaceId), teamCredit(db, input.teamId)]);
  const caps = capsOf(teamQuotaOf(team), credit);
  const errors: FieldErrors = {};
  for (const resource of QUOTA_RESOURCES) {
    const cap = caps[resource];
    if (cap === null) continue;
    const total = cap + (input.extra?.[resource] ?? 0);
    const left = Math.max(0, total - allocated[resource]);
    // A tolerance of one thousandth: quantities written in other units are the same amount.
    if (input.needs[resource] > left + 1e-9 * Math.max(1, total)) {
      errors[`quota.${resource}`] = [roomMessage(resource, formatAmount(resource, left), formatAmount(resource, total), formatAmount(resource, input.needs[resource]))];
    }
  }
  return errors;
}

/** Throws the 422 of teamRoomErrors when a workspace with this quota does not fit in its team. */
export async function assertTeamRoom(db: Kysely<Database>, input: Parameters<typeof teamRoomErrors>[1]): Promise<void> {
  const errors = await teamRoomErrors(db, input);
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/** A workspace's effective quota as amounts. */
export function effectiveAmounts(quota: TeamQuota): Amounts {
  const effective = effectiveQuota(quota);
  return {
    cpu: amountOf('cpu', effective.cpu),
    memory: amountOf('memory', effective.memory),
    pods: amountOf('pods', effective.pods),
    storage: amountOf('storage', effective.storage),
  };
}

/**
 * Refuses (422) a workspace quota change that raises a resource beyond what its team has left;
 * lowering, or keeping, a resource is always allowed (a team over its cap after a contributed
 * node went down may still shrink).
 */
export async function assertRaiseFits(
  db: Kysely<Database>,
  input: { teamId: number; workspaceId: number; before: TeamQuota; after: TeamQuota; extra?: Partial<Amounts> },
): Promise<void> {
  const before = effectiveAmounts(input.before);
  const needs = effectiveAmounts(input.after);
  const errors = await teamRoomErrors(db, { teamId: input.teamId, needs, exceptWorkspaceId: input.workspaceId, extra: input.extra });
  const raised = Object.fromEntries(Object.entries(errors).filter(([field]) => needs[field.slice('quota.'.length) as QuotaResource] > before[field.slice('quota.'.length) as QuotaResource]));
  if (Object.keys(raised).length > 0) throw validationError(raised);
}

export type TeamQuotaChange = Partial<TeamQuota>;

/**
 * Sets the team quota (undefined: unchanged, null: no cap). Refused (422 per field) when a cap,
 * with the credit, would be lower than what the team's workspaces already hold.
 */
export async function setTeamQuota(db: Kysely<Database>, input: { teamId: number; change: TeamQuotaChange; causerId: number }): Promise<Team> {
  return db.transaction().execute((trx) => changeTeamQuota(trx, input));
}

/** setTeamQuota inside the caller's transaction. */
export async function changeTeamQuota(
  trx: Kysely<Database>,
  input: { teamId: number; change: TeamQuotaChange; causerId: number; requestId?: number },
): Promise<Team> {
  const before = await trx.selectFrom('teams').selectAll().where('id', '=', input.teamId).executeTakeFirstOrThrow();
  const after: TeamQuota = { ...teamQuotaOf(before) };
  for (const resource of QUOTA_RESOURCES) {
    const value = input.change[resource];
    if (value !== undefined) (after as Record<QuotaResource, string | number | null>)[resource] = value;
  }
  const [allocated, credit] = await Promise.all([allocatedInTeam(trx, input.teamId), teamCredit(trx, input.teamId)]);
  const caps = capsOf(after, credit);
  const errors: FieldErrors = {};
  for (const resource of QUOTA_RESOURCES) {
    const cap = caps[resource];
    if (input.change[resource] === undefined || cap === null) continue;
    if (cap + 1e-9 * Math.max(1, cap) < allocated[resource]) errors[`quota.${resource}`] = [lowerMessage(resource, formatAmount(resource, allocated[resource]))];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const updated = await trx
    .updateTable('teams')
    .set({ quota_cpu: after.cpu, quota_memory: after.memory, quota_pods: after.pods, quota_storage: after.storage, updated_at: timestamp() })
    .where('id', '=', input.teamId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordActivity(trx, {
    causerId: input.causerId,
    description: 'team quota changed',
    subject: { type: 'team', id: input.teamId },
    properties: { before: teamQuotaOf(before), after, ...(input.requestId !== undefined ? { request_id: input.requestId } : {}) },
  });
  return updated;
}

/**
 * A platform admin approving more quota than the team has left raises the team's caps just
 * enough for the workspace to get `needs` (each capped resource that would not fit).
 */
export async function raiseTeamQuotaFor(
  trx: Kysely<Database>,
  input: { teamId: number; workspaceId: number; needs: Amounts; causerId: number; requestId: number },
): Promise<void> {
  const team = await trx.selectFrom('teams').selectAll().where('id', '=', input.teamId).executeTakeFirstOrThrow();
  const [allocated, credit] = await Promise.all([allocatedInTeam(trx, input.teamId, input.workspaceId), teamCredit(trx, input.teamId)]);
  const caps = capsOf(teamQuotaOf(team), credit);
  const change: TeamQuotaChange = {};
  for (const resource of QUOTA_RESOURCES) {
    const cap = caps[resource];
    const wanted = allocated[resource] + input.needs[resource];
    if (cap === null || wanted <= cap) continue;
    const own = wanted - (resource === 'cpu' ? credit.cpu : resource === 'memory' ? credit.memory : 0);
    if (resource === 'pods') change.pods = Math.ceil(own);
    else (change as Record<string, string>)[resource] = formatAmount(resource, resource === 'cpu' ? Math.ceil(own * 1000) / 1000 : Math.ceil(own));
  }
  if (Object.keys(change).length > 0) await changeTeamQuota(trx, { teamId: input.teamId, change, causerId: input.causerId, requestId: input.requestId });
}

const teamQuotaEntry = z.object({ hard: z.string(), allocated: z.string(), own: z.string() }).nullable();
/** Per resource its cap (contributor credit included) and the sum of the workspaces' quotas; null: no team quota. */
export const teamQuotaSchema = z.object({ cpu: teamQuotaEntry, memory: teamQuotaEntry, pods: teamQuotaEntry, storage: teamQuotaEntry }).nullable();
/** What the team's Ready contributed nodes add to its caps. */
export const creditSchema = z.object({ nodes: z.number(), cpu: z.string(), memory: z.string() });

export interface PresentedTeamQuota {
  /** The cap in force: what platform admins set, plus the contributor credit. */
  hard: string;
  allocated: string;
  /** What platform admins set, without the credit (what their form edits). */
  own: string;
}

/** `quota` as the team pages answer it: per resource its cap (credit included) and what the workspaces hold; null without a team quota. */
export async function presentTeamQuota(
  db: Kysely<Database>,
  team: Team,
): Promise<Record<QuotaResource, PresentedTeamQuota | null> | null> {
  const quota = teamQuotaOf(team);
  if (!hasTeamQuota(quota)) return null;
  const [allocated, credit] = await Promise.all([allocatedInTeam(db, team.id), teamCredit(db, team.id)]);
  const caps = capsOf(quota, credit);
  const entry = (resource: QuotaResource) => {
    const cap = caps[resource];
    const own = quota[resource];
    return cap === null || own === null
      ? null
      : { hard: formatAmount(resource, cap), allocated: formatAmount(resource, allocated[resource]), own: String(own) };
  };
  return { cpu: entry('cpu'), memory: entry('memory'), pods: entry('pods'), storage: entry('storage') };
}

/** `credit` as GET /api/tenants/{id} answers it: the Ready nodes counted and what they add. */
export async function presentCredit(db: Kysely<Database>, teamId: number): Promise<{ nodes: number; cpu: string; memory: string }> {
  const credit = await teamCredit(db, teamId);
  return { nodes: credit.nodes, cpu: formatAmount('cpu', credit.cpu), memory: formatAmount('memory', credit.memory) };
}
