import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestamp } from '../src/db/database.js';
import { allocatedInTeam, formatAmount, setTeamQuota, teamCredit } from '../src/teams/quota.js';
import { createTestContext, type TestContext } from './helpers.js';
import { addTeamMember, createWorld, insertTeam, insertWorkspace, type World } from './teamFixtures.js';

// The team quota: platform admins cap what a team's workspaces add up to (PATCH
// /api/admin/teams/{id} {quota}); a workspace created or raised beyond it is refused with what is
// needed and what is left; Ready contributed nodes add credit to the cpu and memory caps.

let ctx: TestContext;
let world: World;

beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
});
afterAll(() => ctx.close());

const admin = () => world.people.admin.token;
const patchTeam = (teamId: number, body: unknown, token = admin(), headers?: Record<string, string>) =>
  ctx.inject('PATCH', `/api/admin/teams/${teamId}`, { token, body, headers });

/** A team with `count` workspaces (each with the defaults: 8 CPUs, 16Gi, 50 pods, 100Gi) and a manager. */
async function teamWith(count: number) {
  const team = await insertTeam(ctx);
  const workspaces = [];
  for (let index = 0; index < count; index += 1) workspaces.push(await insertWorkspace(ctx, team));
  const manager = await ctx.signedInUser();
  await addTeamMember(ctx, team.id, manager.user.id, 'manager');
  return { team, workspaces, manager };
}

describe('PATCH /api/admin/teams/{id} {quota}', () => {
  it('401 without a session, 403 for a team manager', async () => {
    expect((await ctx.inject('PATCH', `/api/admin/teams/${world.team.id}`, { body: { quota: { cpu: '4' } } })).statusCode).toBe(401);
    expect((await patchTeam(world.team.id, { quota: { cpu: '4' } }, world.people.owner.token)).statusCode).toBe(403);
  });

  it('sets, answers allocated / hard per resource, records the change, and clears with null', async () => {
    const { team } = await teamWith(2);
    const answer = await patchTeam(team.id, { quota: { cpu: '20', memory: '64Gi' } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().quota).toEqual({ cpu: { hard: '20', allocated: '16', own: '20' }, memory: { hard: '64Gi', allocated: '32Gi', own: '64Gi' }, pods: null, storage: null });
    const entry = await ctx.db.selectFrom('activity_log').selectAll().where('subject_type', '=', 'team').where('subject_id', '=', team.id).where('description', '=', 'team quota changed').executeTakeFirst();
    expect(entry).toBeDefined();
    const cleared = await patchTeam(team.id, { quota: { cpu: null, memory: null } });
    expect(cleared.json().quota).toBeNull();
  });

  it('refuses what is not a quantity with the workspace quota messages, in English and French, and changes nothing', async () => {
    const { team } = await teamWith(0);
    const answer = await patchTeam(team.id, { quota: { cpu: 'lots', pods: -1 } });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors['quota.cpu'][0]).toBe('The quota.cpu field must be a CPU quantity such as 4, 0.5 or 500m.');
    expect(answer.json().errors['quota.pods']).toEqual(['The quota.pods field must be at least 1.']);
    const french = await patchTeam(team.id, { quota: { memory: '12 apples' } }, admin(), { 'accept-language': 'fr' });
    expect(french.statusCode).toBe(422);
    expect(french.json().errors['quota.memory'][0]).toMatch(/^Le champ/);
    expect((await ctx.db.selectFrom('teams').select('quota_cpu').where('id', '=', team.id).executeTakeFirstOrThrow()).quota_cpu).toBeNull();
  });

  it('refuses a cap lower than what the workspaces already hold', async () => {
    const { team } = await teamWith(2);
    const answer = await patchTeam(team.id, { quota: { cpu: '12' } });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors).toEqual({ 'quota.cpu': ['The team quota for cpu cannot be lower than the 16 its workspaces already hold.'] });
    const french = await patchTeam(team.id, { quota: { pods: 10 } }, admin(), { 'accept-language': 'fr' });
    expect(french.json().errors['quota.pods']).toEqual(['Le quota d’équipe en pods ne peut pas être inférieur aux 100 que ses espaces de travail détiennent déjà.']);
  });

  it('GET /api/admin/teams/{id} and GET /api/tenants/{id} answer the quota and the credit', async () => {
    const { team, manager } = await teamWith(1);
    expect((await ctx.inject('GET', `/api/admin/teams/${team.id}`, { token: admin() })).json().quota).toBeNull();
    await patchTeam(team.id, { quota: { pods: 120 } });
    const tenant = await ctx.inject('GET', `/api/tenants/${team.id}`, { token: manager.token });
    expect(tenant.statusCode).toBe(200);
    expect(tenant.json().quota).toEqual({ cpu: null, memory: null, pods: { hard: '120', allocated: '50', own: '120' }, storage: null });
    expect(tenant.json().credit).toEqual({ nodes: 0, cpu: '0', memory: '0' });
  });
});

describe('workspaces within the team quota', () => {
  it('a raise beyond what the team has left is refused with what is needed and what is left (English and French)', async () => {
    const { team, workspaces } = await teamWith(2);
    await patchTeam(team.id, { quota: { cpu: '18' } });
    const url = `/api/admin/workspaces/${workspaces[0]!.id}`;
    const refused = await ctx.inject('PATCH', url, { token: admin(), body: { quota: { cpu: '12' } } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ 'quota.cpu': ['The team has 10 CPUs left of 18; this workspace needs 12.'] });
    const french = await ctx.inject('PATCH', url, { token: admin(), body: { quota: { cpu: '12' } }, headers: { 'accept-language': 'fr' } });
    expect(french.json().errors['quota.cpu']).toEqual(['L’équipe a encore 10 CPU sur 18 ; cet espace de travail en demande 12.']);
    expect((await ctx.db.selectFrom('workspaces').select('quota_cpu').where('id', '=', workspaces[0]!.id).executeTakeFirstOrThrow()).quota_cpu).toBeNull();
    // Within what is left it goes through; lowering always does.
    expect((await ctx.inject('PATCH', url, { token: admin(), body: { quota: { cpu: '10' } } })).statusCode).toBe(200);
    expect((await ctx.inject('PATCH', url, { token: admin(), body: { quota: { cpu: '2' } } })).statusCode).toBe(200);
  });

  it('a new workspace that does not fit is refused when its request is approved', async () => {
    const { team, manager } = await teamWith(1);
    await patchTeam(team.id, { quota: { memory: '20Gi' } });
    // The manager's own request is approved at once, so the refusal is the request's answer.
    const refused = await ctx.inject('POST', '/api/requests/workspaces', { token: manager.token, body: { label: 'More', name: 'more', team_id: team.id } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ 'quota.memory': ['The team has 4Gi of memory left of 20Gi; this workspace needs 16Gi.'] });
    expect(await ctx.db.selectFrom('workspaces').select('id').where('team_id', '=', team.id).where('name', '=', 'more').executeTakeFirst()).toBeUndefined();
    await patchTeam(team.id, { quota: { memory: '32Gi' } });
    const created = await ctx.inject('POST', '/api/requests/workspaces', { token: manager.token, body: { label: 'More', name: 'more', team_id: team.id } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().status).toBe('Approved');
  });
});

describe('contributor credit', () => {
  async function contributedNode(teamId: number | null, status: 'ok' | 'error', capacity: { cpu: string; memory: string }, ownerId = world.people.owner.user.id) {
    const now = timestamp();
    return ctx.db
      .insertInto('nodes')
      .values({
        owner_id: ownerId,
        name: `node-${Math.random().toString(36).slice(2, 10)}`,
        type: 'amd64',
        dhcp: 1,
        hostname: null,
        ipv4: null,
        ip_v6: null,
        notes: null,
        status,
        disabled_at: null,
        secret_hash: Math.random().toString(36),
        secret_salt: 'salt',
        claim_code: null,
        claim_code_expires_at: null,
        info: JSON.stringify({ cluster: { capacity } }),
        last_active_at: null,
        created_at: now,
        updated_at: now,
        team_id: teamId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  it("PATCH /api/nodes/{id} {team_id}: the owner chooses among their own teams; 401, 403, 404, 422", async () => {
    const node = await contributedNode(null, 'ok', { cpu: '2', memory: '4Gi' });
    const url = `/api/nodes/${node.id}`;
    const owner = world.people.owner.token;
    expect((await ctx.inject('PATCH', url, { body: { team_id: world.team.id } })).statusCode).toBe(401);
    expect((await ctx.inject('PATCH', url, { token: world.people.member.token, body: { team_id: world.team.id } })).statusCode).toBe(404);
    const byAdmin = await ctx.inject('PATCH', url, { token: admin(), body: { team_id: world.team.id } });
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().message).toBe('Only the owner of this node may choose the team it counts for.');
    const other = await insertTeam(ctx);
    const notTheirs = await ctx.inject('PATCH', url, { token: owner, body: { team_id: other.id } });
    expect(notTheirs.statusCode).toBe(422);
    expect(notTheirs.json().errors).toEqual({ team_id: ['The selected team_id is invalid.'] });
    expect((await ctx.inject('PATCH', url, { token: owner, body: { team_id: 'x' } })).statusCode).toBe(422);
    const chosen = await ctx.inject('PATCH', url, { token: owner, body: { team_id: world.team.id } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().team_id).toBe(world.team.id);
    expect((await teamCredit(ctx.db, world.team.id)).nodes).toBe(1);
    expect((await ctx.inject('PATCH', url, { token: owner, body: { team_id: null } })).json().team_id).toBeNull();
    expect((await teamCredit(ctx.db, world.team.id)).nodes).toBe(0);
  });

  it('Ready nodes add capacity × factor to the cpu and memory caps; nodes not Ready add nothing; factor 0 turns it off', async () => {
    const { team, workspaces } = await teamWith(1);
    await contributedNode(team.id, 'ok', { cpu: '4', memory: '10Gi' });
    await contributedNode(team.id, 'error', { cpu: '64', memory: '256Gi' });
    const credit = await teamCredit(ctx.db, team.id);
    expect(credit.nodes).toBe(1);
    expect(formatAmount('cpu', credit.cpu)).toBe('6');
    expect(formatAmount('memory', credit.memory)).toBe('13Gi');
    await patchTeam(team.id, { quota: { cpu: '8' } });
    const tenant = (await ctx.inject('GET', `/api/tenants/${team.id}`, { token: admin() })).json();
    // The cap in force has the credit in it; what admins set (their form's value) does not.
    expect(tenant.quota.cpu).toEqual({ hard: '14', allocated: '8', own: '8' });
    expect(tenant.credit).toEqual({ nodes: 1, cpu: '6', memory: '13Gi' });
    // The credit is room: the workspace may grow to 14 CPUs.
    expect((await ctx.inject('PATCH', `/api/admin/workspaces/${workspaces[0]!.id}`, { token: admin(), body: { quota: { cpu: '14' } } })).statusCode).toBe(200);
    // Platform admins change the factors on /admin/settings: 0 turns the CPU credit off.
    const off = await ctx.inject('PATCH', '/api/admin/settings', { token: admin(), body: { credit_cpu_factor: 0 } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ credit_cpu_factor: 0, credit_memory_factor: 1.3, defaults: { credit_cpu_factor: 1.5, credit_memory_factor: 1.3 } });
    try {
      expect((await teamCredit(ctx.db, team.id)).cpu).toBe(0);
      for (const [value, message] of [
        [-1, 'The credit_cpu_factor field must be at least 0.'],
        [11, 'The credit_cpu_factor field must not be greater than 10.'],
      ] as const) {
        const refused = await ctx.inject('PATCH', '/api/admin/settings', { token: admin(), body: { credit_cpu_factor: value } });
        expect(refused.statusCode).toBe(422);
        expect(refused.json().errors).toEqual({ credit_cpu_factor: [message] });
      }
    } finally {
      await ctx.inject('PATCH', '/api/admin/settings', { token: admin(), body: { credit_cpu_factor: 1.5 } });
    }
    expect((await teamCredit(ctx.db, team.id)).cpu).toBe(6);
  });

  it('allocatedInTeam sums the effective quotas, leaving one out when asked', async () => {
    const { team, workspaces } = await teamWith(2);
    await setTeamQuota(ctx.db, { teamId: team.id, change: { cpu: '100' }, causerId: world.people.admin.user.id });
    expect((await allocatedInTeam(ctx.db, team.id)).cpu).toBe(16);
    expect((await allocatedInTeam(ctx.db, team.id, workspaces[0]!.id)).cpu).toBe(8);
  });
});
