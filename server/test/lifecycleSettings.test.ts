import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, movableClock } from '../src/clock.js';
import { createLifecycleRunner, type LifecycleInput } from '../src/lifecycle/runner.js';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: SignedInUser;
let member: SignedInUser;
const clock = movableClock('2027-01-10T09:00:00.000Z');

beforeAll(async () => {
  ctx = await createTestContext({ clock });
  admin = await ctx.signedInUser({ admin: true });
  member = await ctx.signedInUser();
});
afterAll(() => ctx.close());

describe('GET/PATCH /api/admin/settings', () => {
  it('answers the environment defaults until an admin changes one, and records the change', async () => {
    const before = await ctx.inject('GET', '/api/admin/settings', { token: admin.token });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ workspace_lifetime_days: 180, team_review_days: 365, warning_days: 30, last_warning_hours: 72, retention_days: 30, policy_validity_days: 365 });

    const changed = await ctx.inject('PATCH', '/api/admin/settings', { token: admin.token, body: { workspace_lifetime_days: 90, retention_days: null } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ workspace_lifetime_days: 90, retention_days: null, defaults: { workspace_lifetime_days: 180, retention_days: 30 } });
    expect((await ctx.inject('GET', '/api/admin/settings', { token: admin.token })).json()).toMatchObject({ workspace_lifetime_days: 90, retention_days: null });

    const entry = await ctx.db.selectFrom('activity_log').selectAll().where('description', '=', 'platform settings changed').executeTakeFirstOrThrow();
    expect(entry.causer_id).toBe(admin.user.id);
    expect(JSON.parse(entry.properties)).toMatchObject({ workspace_lifetime_days: { from: 180, to: 90 }, retention_days: { from: 30, to: null } });
  });

  it('refuses bad values with field messages and changes nothing', async () => {
    for (const body of [{ warning_days: 0 }, { warning_days: 2.5 }, { team_review_days: 100000 }, { retention_days: -1 }, { unknown_setting: 3 }, { warning_days: '30' }]) {
      const answer = await ctx.inject('PATCH', '/api/admin/settings', { token: admin.token, body });
      expect(answer.statusCode, JSON.stringify(body)).toBe(422);
    }
    const order = await ctx.inject('PATCH', '/api/admin/settings', { token: admin.token, body: { warning_days: 2, last_warning_hours: 72 } });
    expect(order.statusCode).toBe(422);
    expect(order.json().errors.last_warning_hours).toBeDefined();
    expect((await ctx.inject('GET', '/api/admin/settings', { token: admin.token })).json()).toMatchObject({ warning_days: 30, last_warning_hours: 72 });
  });

  it('is for platform admins only', async () => {
    expect((await ctx.inject('GET', '/api/admin/settings', { token: member.token })).statusCode).toBe(403);
    expect((await ctx.inject('PATCH', '/api/admin/settings', { token: member.token, body: { warning_days: 10 } })).statusCode).toBe(403);
    expect((await ctx.inject('GET', '/api/admin/settings')).statusCode).toBe(401);
  });
});

describe('the lifecycle pass', () => {
  it('runs its steps at the clock\'s time with the settings as they hold, and one failing step does not stop the others', async () => {
    const seen: LifecycleInput[] = [];
    const runner = createLifecycleRunner({
      db: ctx.db,
      config: ctx.config,
      clock,
      services: { broadcaster: { toUser() {}, toWorkspace() {}, rightsChanged() {} } },
      steps: [
        {
          name: 'failing',
          run: async () => {
            throw new Error('cluster down');
          },
        },
        { name: 'recording', run: async (input) => void seen.push(input) },
      ],
    });
    clock.advance(3 * DAY_MS);
    const result = await runner.runOnce();
    expect(result.steps).toEqual([{ name: 'failing', error: 'cluster down' }, { name: 'recording' }]);
    expect(seen[0].now.toISOString()).toBe('2027-01-13T09:00:00.000Z');
    expect(seen[0].settings.workspace_lifetime_days).toBe(90);
  });
});
