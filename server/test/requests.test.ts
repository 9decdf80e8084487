import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_APP_URL, type TestContext } from './helpers.js';
import { createWorld, membershipFor, newPerson, type RequesterRole, type RequestType, submit, type World } from './teamFixtures.js';

let ctx: TestContext;
let world: World;
beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
});
afterAll(() => ctx.close());

type DeciderRole = 'otherOutsider' | 'member' | 'manager' | 'owner' | 'wsManager' | 'disabledManager' | 'admin';
const deciderRoles: DeciderRole[] = ['otherOutsider', 'member', 'manager', 'owner', 'wsManager', 'disabledManager', 'admin'];
const deciderToken = (role: DeciderRole) => (role === 'otherOutsider' ? world.people.outsider : world.people[role]).token;

/** What a request of each type by each requester role becomes: a status, or an error code. */
const outcomes: Record<RequestType, Record<RequesterRole, 'Pending' | 'Approved' | 403 | 422>> = {
  CreateTeam: { outsider: 'Pending', member: 'Pending', manager: 'Pending', owner: 'Pending', admin: 'Approved' },
  JoinTeam: { outsider: 'Pending', member: 422, manager: 422, owner: 422, admin: 'Approved' },
  CreateWorkspace: { outsider: 403, member: 'Pending', manager: 'Approved', owner: 'Approved', admin: 'Approved' },
  JoinWorkspace: { outsider: 'Pending', member: 'Pending', manager: 'Approved', owner: 'Approved', admin: 'Approved' },
};
const deciders: Record<RequestType, DeciderRole[]> = {
  CreateTeam: ['admin'],
  JoinTeam: ['manager', 'owner', 'admin'],
  CreateWorkspace: ['manager', 'owner', 'admin'],
  JoinWorkspace: ['manager', 'owner', 'wsManager', 'admin'],
};
/** The membership an approval grants the requester. */
const granted: Record<RequestType, string> = { CreateTeam: 'owner', JoinTeam: 'member', CreateWorkspace: 'manager', JoinWorkspace: 'member' };

const types = Object.keys(outcomes) as RequestType[];
const requesterRoles: RequesterRole[] = ['outsider', 'member', 'manager', 'owner', 'admin'];

describe('making requests', () => {
  const cases = types.flatMap((type) => requesterRoles.map((role) => [type, role, outcomes[type][role]] as const));
  it.each(cases)('%s by a team %s → %s', async (type, role, outcome) => {
    const requester = await newPerson(ctx, world, role);
    const response = await submit(ctx, world, type, requester.token);
    if (typeof outcome === 'number') {
      expect(response.statusCode).toBe(outcome);
      expect(response.json().message).toEqual(expect.any(String));
      return;
    }
    expect(response.statusCode).toBe(201);
    const request = response.json();
    expect(request).toMatchObject({ type, status: outcome, user: { id: requester.user.id }, can_decide: false });
    if (outcome === 'Approved') {
      // Approved at once, recorded as decided by the requester, with its effect.
      expect(request.decided_by).toEqual({ id: requester.user.id, name: requester.user.firstname + ' Person' });
      expect(request.decided_at).toEqual(expect.any(String));
      expect(await membershipFor(ctx, request, world)).toBe(granted[type]);
    } else {
      expect(request.decided_by).toBeNull();
      expect(await membershipFor(ctx, request, world)).toBeNull();
    }
    // The requester sees it among their own requests, newest first.
    const own = (await ctx.inject('GET', '/user', { token: requester.token })).json().requests;
    expect(own[0]).toMatchObject({ id: request.id, status: outcome });
  });
});

describe('the routing matrix', () => {
  const pendingCases = types.flatMap((type) =>
    requesterRoles.filter((role) => outcomes[type][role] === 'Pending').flatMap((role) => deciderRoles.map((decider) => [type, role, decider] as const)),
  );

  it.each(pendingCases)('%s by a team %s, decided by %s', async (type, role, decider) => {
    const requester = await newPerson(ctx, world, role);
    const created = await submit(ctx, world, type, requester.token);
    expect(created.statusCode).toBe(201);
    const request = created.json();
    const token = deciderToken(decider);
    const may = deciders[type].includes(decider);

    const listed = (await ctx.inject('GET', '/api/requests', { token })).json() as { id: number; can_decide: boolean }[];
    const entry = listed.find((candidate) => candidate.id === request.id);
    if (may) expect(entry).toMatchObject({ can_decide: true });
    else expect(entry).toBeUndefined();

    const decided = await ctx.inject('PATCH', `/api/requests/${request.id}`, { token, body: { action: 'approve', message: 'Welcome' } });
    expect(decided.statusCode).toBe(may ? 200 : 404);
    if (may) {
      expect(decided.json()).toMatchObject({ id: request.id, status: 'Approved', decision_message: 'Welcome', can_decide: false });
      expect(await membershipFor(ctx, decided.json(), world)).toBe(granted[type]);
    } else {
      expect(await membershipFor(ctx, request, world)).toBeNull();
    }
  });

  it.each(types)('a denied %s grants nothing and stays as history', async (type) => {
    const role = type === 'CreateWorkspace' ? 'member' : 'outsider';
    const requester = await newPerson(ctx, world, role);
    const request = (await submit(ctx, world, type, requester.token)).json();
    const decider = type === 'CreateTeam' ? world.people.admin : world.people.owner;
    const denied = await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: decider.token, body: { action: 'deny', message: 'No' } });
    expect(denied.statusCode).toBe(200);
    expect(denied.json()).toMatchObject({ status: 'Denied', decided_by: { id: decider.user.id }, decision_message: 'No' });
    expect(await membershipFor(ctx, request, world)).toBeNull();
    const history = (await ctx.inject('GET', '/api/requests?status=Denied', { token: decider.token })).json();
    expect(history.map((entry: { id: number }) => entry.id)).toContain(request.id);
    const entry = await ctx.db
      .selectFrom('activity_log')
      .selectAll()
      .where('subject_type', '=', 'request')
      .where('subject_id', '=', request.id)
      .where('description', '=', 'request denied')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.properties).severity).toBe('warning');
  });

  it('lets the requester see but not decide their own request (403), and hides it from others (404)', async () => {
    const requester = await newPerson(ctx, world, 'outsider');
    const request = (await submit(ctx, world, 'JoinTeam', requester.token)).json();
    const own = await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: requester.token, body: { action: 'approve' } });
    expect(own.statusCode).toBe(403);
    const stranger = await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.outsider.token, body: { action: 'approve' } });
    expect(stranger.statusCode).toBe(404);
    expect((await ctx.inject('PATCH', '/api/requests/999999', { token: world.people.admin.token, body: { action: 'approve' } })).statusCode).toBe(404);
  });

  it('answers 409 for deciding twice and keeps the first decision', async () => {
    const requester = await newPerson(ctx, world, 'outsider');
    const request = (await submit(ctx, world, 'JoinTeam', requester.token)).json();
    const first = await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.owner.token, body: { action: 'deny' } });
    expect(first.statusCode).toBe(200);
    const second = await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.manager.token, body: { action: 'approve' } });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ message: 'This request has already been decided.' });
    const row = await ctx.db.selectFrom('requests').selectAll().where('id', '=', request.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'Denied', decided_by: world.people.owner.user.id });
  });

  it('lets exactly one of two concurrent decisions win', async () => {
    const requester = await newPerson(ctx, world, 'outsider');
    const request = (await submit(ctx, world, 'JoinTeam', requester.token)).json();
    const answers = await Promise.all([
      ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.owner.token, body: { action: 'approve' } }),
      ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.manager.token, body: { action: 'deny' } }),
      ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.admin.token, body: { action: 'approve' } }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409]);
    const decisions = await ctx.db
      .selectFrom('activity_log')
      .select('description')
      .where('subject_type', '=', 'request')
      .where('subject_id', '=', request.id)
      .where('description', 'in', ['request approved', 'request denied'])
      .execute();
    expect(decisions).toHaveLength(1);
    const winner = answers.find((answer) => answer.statusCode === 200)!.json();
    const memberships = await ctx.db.selectFrom('team_members').select('id').where('user_id', '=', requester.user.id).execute();
    expect(memberships).toHaveLength(winner.status === 'Approved' ? 1 : 0);
  });

  it.each(types.filter((type) => type !== 'CreateWorkspace'))('answers 409 for a duplicate pending %s', async (type) => {
    const requester = await newPerson(ctx, world, 'outsider');
    expect((await submit(ctx, world, type, requester.token)).statusCode).toBe(201);
    if (type === 'CreateTeam') {
      // Same short name from someone else.
      const body = { fullname: 'Dup', shortname: 'Dup Team 1', affiliation: 'U', country: 'FR', url: 'https://a.example', joining_reason: 'r', joining_category: 'Other' };
      const other = await newPerson(ctx, world, 'outsider');
      expect((await ctx.inject('POST', '/api/requests/teams', { token: requester.token, body })).statusCode).toBe(201);
      const duplicate = await ctx.inject('POST', '/api/requests/teams', { token: other.token, body: { ...body, shortname: 'dup-team-1' } });
      expect(duplicate.statusCode).toBe(409);
      return;
    }
    const duplicate = await submit(ctx, world, type, requester.token);
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toEqual(expect.any(String));
  });

  it('answers 409 for a duplicate pending CreateWorkspace with the same name in the team', async () => {
    const [first, second] = [await newPerson(ctx, world, 'member'), await newPerson(ctx, world, 'member')];
    const body = { label: 'Dup', name: 'dup-space', team_id: world.team.id };
    expect((await ctx.inject('POST', '/api/requests/workspaces', { token: first.token, body })).statusCode).toBe(201);
    expect((await ctx.inject('POST', '/api/requests/workspaces', { token: second.token, body })).statusCode).toBe(409);
  });

  it('lets a team be asked for again once the first request was denied', async () => {
    const requester = await newPerson(ctx, world, 'outsider');
    const request = (await submit(ctx, world, 'JoinTeam', requester.token)).json();
    await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.owner.token, body: { action: 'deny' } });
    expect((await submit(ctx, world, 'JoinTeam', requester.token)).statusCode).toBe(201);
  });

  it('answers 409 when deciding a request already approved at once', async () => {
    const requester = await newPerson(ctx, world, 'owner');
    const request = (await submit(ctx, world, 'CreateWorkspace', requester.token)).json();
    expect(request.status).toBe('Approved');
    expect((await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.admin.token, body: { action: 'deny' } })).statusCode).toBe(409);
  });

  it('paginates GET /api/requests and filters by status', async () => {
    const page = await ctx.inject('GET', '/api/requests?status=Pending&page=1&per_page=2', { token: world.people.admin.token });
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body.data.length).toBeLessThanOrEqual(2);
    expect(body.meta).toMatchObject({ current_page: 1, per_page: 2 });
    expect(body.meta.total).toBeGreaterThan(2);
    expect(body.data.every((entry: { status: string }) => entry.status === 'Pending')).toBe(true);
    expect((await ctx.inject('GET', '/api/requests?status=Nope', { token: world.people.admin.token })).statusCode).toBe(422);
    expect((await ctx.inject('GET', '/api/requests?page=0', { token: world.people.admin.token })).statusCode).toBe(422);
    expect((await ctx.inject('GET', '/api/requests?page=1&per_page=500', { token: world.people.admin.token })).statusCode).toBe(422);
    // Outsiders decide nothing.
    expect((await ctx.inject('GET', '/api/requests', { token: world.people.outsider.token })).json()).toEqual([]);
  });
});

describe('request shape and activity', () => {
  it('presents object, team, user and data, and logs creation and decision', async () => {
    const requester = await newPerson(ctx, world, 'member');
    const created = (
      await ctx.inject('POST', '/api/requests/workspaces', {
        token: requester.token,
        body: { label: 'Vision <b>', name: 'vision-x', team_id: String(world.team.id), description: 'Cameras', message: 'please' },
      })
    ).json();
    expect(created).toMatchObject({
      type: 'CreateWorkspace',
      status: 'Pending',
      message: 'please',
      data: { label: 'Vision <b>', name: 'vision-x', team_id: world.team.id, description: 'Cameras' },
      user: { id: requester.user.id, firstname: 'Newmember', lastname: 'Person', name: 'Newmember Person' },
      object: { name: 'vision-x', label: 'Vision <b>' },
      team: { id: world.team.id, name: world.team.name, fullname: world.team.fullname },
      decided_by: null,
      decided_at: null,
    });
    const decided = (await ctx.inject('PATCH', `/api/requests/${created.id}`, { token: world.people.owner.token, body: { action: 'approve' } })).json();
    expect(decided.object).toEqual({ id: expect.any(Number), name: 'vision-x', label: 'Vision <b>' });
    const workspace = await ctx.db.selectFrom('workspaces').selectAll().where('id', '=', decided.object.id).executeTakeFirstOrThrow();
    expect(workspace).toMatchObject({ namespace: `${world.team.name}-vision-x`, description: 'Cameras' });

    const entries = await ctx.db.selectFrom('activity_log').select(['description', 'subject_type', 'subject_id']).orderBy('id').execute();
    const mine = entries.filter((entry) => (entry.subject_type === 'request' && entry.subject_id === created.id) || (entry.subject_type === 'workspace' && entry.subject_id === workspace.id));
    expect(mine.map((entry) => entry.description)).toEqual(['request created', 'workspace created', 'workspace member added', 'request approved']);
  });
});

describe('validation', () => {
  const teamBody = { fullname: 'F', shortname: 'Valid Short', affiliation: 'A', country: 'FR', url: 'https://x.example', joining_reason: 'r', joining_category: 'Teaching' };

  it.each([
    ['fullname', { fullname: '' }, 'The fullname field is required.'],
    ['shortname', { shortname: undefined }, 'The shortname field is required.'],
    ['shortname', { shortname: '!!!' }, 'The shortname field must contain at least one letter or digit.'],
    ['affiliation', { affiliation: null }, 'The affiliation field is required.'],
    ['country', { country: 12 }, 'The country field must be a string.'],
    ['url', { url: 'ftp://x.example' }, 'Invalid URL'],
    ['url', { url: 'not a url' }, 'Invalid URL'],
    ['joining_reason', { joining_reason: 'x'.repeat(5000) }, 'The joining_reason field must not be greater than 2000 characters.'],
    ['joining_category', { joining_category: 'Fun' }, 'The selected joining_category is invalid.'],
    ['joining_category', { joining_category: undefined }, 'The joining_category field is required.'],
    ['fullname', { fullname: 'x'.repeat(100_000) }, 'The fullname field must not be greater than 255 characters.'],
  ])('POST /api/requests/teams: %s %j', async (field, change, message) => {
    const response = await ctx.inject('POST', '/api/requests/teams', { token: world.people.outsider.token, body: { ...teamBody, ...change } });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toContain(message);
  });

  it('POST /api/requests/teams: a short name whose team exists, and a missing body', async () => {
    const taken = await ctx.inject('POST', '/api/requests/teams', {
      token: world.people.outsider.token,
      body: { ...teamBody, shortname: world.team.name.toUpperCase() },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.shortname).toEqual(['A team with this short name already exists.']);
    const empty = await ctx.inject('POST', '/api/requests/teams', { token: world.people.outsider.token });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors)).toEqual(
      expect.arrayContaining(['fullname', 'shortname', 'affiliation', 'country', 'url', 'joining_reason', 'joining_category']),
    );
  });

  it('POST /api/requests/teams derives the name from the short name and ignores a sent name', async () => {
    const response = await ctx.inject('POST', '/api/requests/teams', {
      token: world.people.outsider.token,
      body: { ...teamBody, shortname: 'Édge Lab_2!', name: 'hijack' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().object).toMatchObject({ name: 'edgelab2', shortname: 'Édge Lab_2!' });
    expect(response.json().team).toBeNull();
  });

  it.each([
    [{ team_id: 'abc' }, 'team_id', 'The team_id field must be an integer.'],
    [{ team_id: 1.5 }, 'team_id', 'The team_id field must be an integer.'],
    [{ team_id: 99999999999 }, 'team_id', 'The selected team_id is invalid.'],
    [{ team_id: '12345678901234567890' }, 'team_id', 'The team_id field must be an integer.'],
    [{ team_id: 2147483647 }, 'team_id', 'The selected team_id is invalid.'],
    [{}, 'team_id', 'The team_id field is required.'],
    [{ team_id: [1] }, 'team_id', 'The team_id field must be an integer.'],
  ])('PATCH /api/requests/teams %j', async (body, field, message) => {
    const response = await ctx.inject('PATCH', '/api/requests/teams', { token: world.people.outsider.token, body });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toContain(message);
  });

  it.each([
    [{ name: 'Bad Name' }, 'name', 'Invalid name'],
    [{ name: '-bad' }, 'name', 'Invalid name'],
    [{ name: 'a' }, 'name', 'Invalid name'],
    [{ name: 'a'.repeat(41) }, 'name', 'The name field must not be greater than 40 characters.'],
    [{ name: undefined }, 'name', 'The name field is required.'],
    [{ label: '' }, 'label', 'The label field is required.'],
    [{ team_id: 'x' }, 'team_id', 'The team_id field must be an integer.'],
    [{ team_id: 2147483647 }, 'team_id', 'The selected team_id is invalid.'],
    [{ description: 'x'.repeat(3000) }, 'description', 'The description field must not be greater than 2000 characters.'],
  ])('POST /api/requests/workspaces %j', async (change, field, message) => {
    const response = await ctx.inject('POST', '/api/requests/workspaces', {
      token: world.people.member.token,
      body: { label: 'L', name: 'fine-name', team_id: world.team.id, ...change },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toContain(message);
  });

  it('POST /api/requests/workspaces: a name taken in the team', async () => {
    const response = await ctx.inject('POST', '/api/requests/workspaces', {
      token: world.people.member.token,
      body: { label: 'L', name: world.workspace.name, team_id: world.team.id },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.name).toEqual(['A workspace with this name already exists in this team.']);
  });

  it.each([
    [{ name: 'nope' }, 'name', 'The selected workspace is invalid.'],
    [{ team_id: 2147483647 }, 'team_id', 'The selected team_id is invalid.'],
    [{ name: '' }, 'name', 'The name field is required.'],
  ])('PATCH /api/requests/workspaces/ %j', async (change, field, message) => {
    const response = await ctx.inject('PATCH', '/api/requests/workspaces/', {
      token: world.people.outsider.token,
      body: { team_id: world.team.id, name: world.workspace.name, ...change },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toContain(message);
  });

  it('PATCH /api/requests/workspaces/: already a member', async () => {
    const response = await ctx.inject('PATCH', '/api/requests/workspaces', {
      token: world.people.wsMember.token,
      body: { team_id: world.team.id, name: world.workspace.name },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.name).toEqual(['You are already a member of this workspace.']);
  });

  it.each([
    [{ action: 'maybe' }, 'The selected action is invalid.'],
    [{}, 'The action field is required.'],
    [{ action: 'approve', message: 5 }, undefined],
  ])('PATCH /api/requests/{id} %j', async (body, message) => {
    const response = await ctx.inject('PATCH', '/api/requests/1', { token: world.people.admin.token, body });
    expect(response.statusCode).toBe(422);
    if (message) expect(response.json().errors.action).toContain(message);
  });

  it.each(['abc', '1.5', '-1', '99999999999999999999', '1e3'])('PATCH /api/requests/%s answers 404', async (id) => {
    const response = await ctx.inject('PATCH', `/api/requests/${id}`, { token: world.people.admin.token, body: { action: 'approve' } });
    expect(response.statusCode).toBe(404);
  });

  it('never answers 500 for odd bodies', async () => {
    for (const body of ['[]', '"text"', '123', 'null', '{"team_id": {"a": 1}}']) {
      for (const [method, url] of [
        ['POST', '/api/requests/teams'],
        ['PATCH', '/api/requests/teams'],
        ['POST', '/api/requests/workspaces'],
        ['PATCH', '/api/requests/workspaces/'],
        ['PATCH', '/api/requests/1'],
      ] as const) {
        const response = await ctx.inject(method, url, { token: world.people.outsider.token, body });
        expect(response.statusCode, `${method} ${url} ${body}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${method} ${url} ${body}`).toBeLessThan(500);
      }
    }
  });
});

describe('mail', () => {
  it('mails the team owner/managers about a JoinTeam, and the requester about the decision', async () => {
    const requester = await newPerson(ctx, world, 'outsider');
    const request = (await submit(ctx, world, 'JoinTeam', requester.token)).json();
    for (const decider of [world.people.owner, world.people.manager]) {
      const mail = await ctx.mailbox.waitFor(decider.user.email, { subject: /New request/ });
      expect(mail.subject).toContain('Newoutsider Person asks to join the team');
      expect(mail.text).toContain(`${TEST_APP_URL}/requests`);
      expect(mail.html).toContain(`href="${TEST_APP_URL}/requests"`);
    }
    await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.owner.token, body: { action: 'approve', message: '<hello>' } });
    const decided = await ctx.mailbox.waitFor(requester.user.email, { subject: /approved/ });
    expect(decided.text).toContain(`${TEST_APP_URL}/teams/${world.team.id}`);
    expect(decided.text).toContain('<hello>');
    expect(decided.html).toContain('&lt;hello&gt;');
    await ctx.idle();
    // Neither the plain member nor the disabled manager is told.
    expect(ctx.mailbox.messagesTo(world.people.member.user.email)).toHaveLength(0);
    expect(ctx.mailbox.messagesTo(world.people.disabledManager.user.email)).toHaveLength(0);
  });

  it('mails platform admins about a CreateTeam, and the requester with a profile link when denied', async () => {
    const requester = await newPerson(ctx, world, 'outsider');
    const request = (await submit(ctx, world, 'CreateTeam', requester.token)).json();
    const mail = await ctx.mailbox.waitFor(world.people.admin.user.email, { subject: new RegExp(`\\(${request.object.name}\\)`) });
    expect(mail.text).toContain(request.object.fullname);
    await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.admin.token, body: { action: 'deny' } });
    const denied = await ctx.mailbox.waitFor(requester.user.email, { subject: /denied/ });
    expect(denied.text).toContain(`${TEST_APP_URL}/profile`);
  });

  it('mails workspace managers and team owner/managers about a JoinWorkspace; approval links to the workspace', async () => {
    const requester = await newPerson(ctx, world, 'member');
    const request = (await submit(ctx, world, 'JoinWorkspace', requester.token)).json();
    for (const decider of [world.people.wsManager, world.people.owner, world.people.manager]) {
      await ctx.mailbox.waitFor(decider.user.email, { subject: /join the workspace/ });
    }
    await ctx.inject('PATCH', `/api/requests/${request.id}`, { token: world.people.wsManager.token, body: { action: 'approve' } });
    const approved = await ctx.mailbox.waitFor(requester.user.email, { subject: /approved/ });
    expect(approved.text).toContain(`${TEST_APP_URL}/workspaces/${world.workspace.id}`);
  });

  it('sends nothing for a request approved at once', async () => {
    await ctx.idle();
    const before = ctx.mailbox.messages.length;
    const requester = await newPerson(ctx, world, 'manager');
    expect((await submit(ctx, world, 'CreateWorkspace', requester.token)).json().status).toBe('Approved');
    await ctx.idle();
    expect(ctx.mailbox.messages.length).toBe(before);
  });
});
