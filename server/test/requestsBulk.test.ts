import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignedInUser, TestContext } from './helpers.js';
import { createTestContext } from './helpers.js';
import { addTeamMember, addWorkspaceMember, createWorld, insertTeam, insertWorkspace, type World } from './teamFixtures.js';

// GET /api/requests at scale (pages, filters, search, date order, the requester's email) and
// POST /api/requests/bulk (each request decided as one at a time; partial failures reported
// per id). A second team ("lab") of its own keeps the expected rows exact.

let ctx: TestContext;
let world: World;
let lab: { id: number; name: string };
let labWorkspace: { id: number; name: string };
let labOwner: SignedInUser;
let labMember: SignedInUser;
/** Requesters with searchable names. */
let zelda: SignedInUser;
let yuri: SignedInUser;
let xena: SignedInUser;
/** Pending requests about the lab, oldest first. */
const labRequests: { id: number; type: string }[] = [];

type Listed = { id: number; type: string; status: string; created_at: string; team: { id: number } | null; user: { id: number; name: string; email: string } };
type Page = { data: Listed[]; meta: { current_page: number; per_page: number; total: number; last_page: number } };

const list = async (token: string, query: string) => {
  const response = await ctx.inject('GET', `/api/requests${query}`, { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};
const joinLab = (person: SignedInUser, message = 'Let me in') =>
  ctx.inject('PATCH', '/api/requests/teams', { token: person.token, body: { team_id: lab.id, message } });
const bulk = (token: string, body: unknown) => ctx.inject('POST', '/api/requests/bulk', { token, body });

beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
  lab = await insertTeam(ctx);
  labWorkspace = await insertWorkspace(ctx, lab);
  [labOwner, labMember, zelda, yuri, xena] = await Promise.all([
    ctx.signedInUser({ firstname: 'Lara', lastname: 'Labowner' }),
    ctx.signedInUser({ firstname: 'Lenny', lastname: 'Labmember' }),
    ctx.signedInUser({ firstname: 'Zelda', lastname: 'Zebra', email: `zelda.${Date.now()}@zoo.example.org` }),
    ctx.signedInUser({ firstname: 'Yuri', lastname: 'Yak' }),
    ctx.signedInUser({ firstname: 'Xena', lastname: 'Xerus' }),
  ]);
  await addTeamMember(ctx, lab.id, labOwner.user.id, 'owner');
  await addTeamMember(ctx, lab.id, labMember.user.id, 'member');
  await addWorkspaceMember(ctx, labWorkspace.id, labMember.user.id, 'member');
  // One at a time, so that created_at (then id) orders them as made.
  for (const person of [zelda, yuri, xena]) {
    const made = await joinLab(person);
    expect(made.statusCode).toBe(201);
    labRequests.push(made.json());
  }
  const workspace = await ctx.inject('POST', '/api/requests/workspaces', {
    token: labMember.token,
    body: { label: 'Robots', name: 'robots', team_id: lab.id },
  });
  expect(workspace.statusCode).toBe(201);
  labRequests.push(workspace.json());
});
afterAll(() => ctx.close());

describe('GET /api/requests, paginated and filtered', () => {
  it('keeps the plain array without ?page, and carries the requester full name and email', async () => {
    const all = (await list(labOwner.token, '')) as Listed[];
    expect(Array.isArray(all)).toBe(true);
    const zeldas = all.find((entry) => entry.id === labRequests[0]!.id)!;
    expect(zeldas.user).toEqual({ id: zelda.user.id, firstname: 'Zelda', lastname: 'Zebra', name: 'Zelda Zebra', email: zelda.user.email });
  });

  it('pages in SQL: consecutive pages cover every row once, newest first', async () => {
    const ids: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = (await list(world.people.admin.token, `?filter[team_id]=${lab.id}&per_page=3&page=${page}`)) as Page;
      expect(body.meta).toEqual({ current_page: page, per_page: 3, total: 4, last_page: 2 });
      ids.push(...body.data.map((entry) => entry.id));
    }
    expect(ids).toEqual(labRequests.map((request) => request.id).reverse());
  });

  it('sorts by date both ways', async () => {
    const asc = (await list(world.people.admin.token, `?filter[team_id]=${lab.id}&sort=created_at&order=asc&page=1`)) as Page;
    expect(asc.data.map((entry) => entry.id)).toEqual(labRequests.map((request) => request.id));
    const desc = (await list(world.people.admin.token, `?filter[team_id]=${lab.id}&order=desc&page=1`)) as Page;
    expect(desc.data.map((entry) => entry.id)).toEqual(labRequests.map((request) => request.id).reverse());
  });

  it('filters by type, status (either spelling) and team', async () => {
    const token = world.people.admin.token;
    const joins = (await list(token, `?filter[team_id]=${lab.id}&filter[type]=JoinTeam`)) as Listed[];
    expect(joins.map((entry) => entry.id).sort()).toEqual(labRequests.slice(0, 3).map((request) => request.id).sort());
    const workspaces = (await list(token, `?filter[team_id]=${lab.id}&filter[type]=CreateWorkspace`)) as Listed[];
    expect(workspaces.map((entry) => entry.id)).toEqual([labRequests[3]!.id]);
    expect(((await list(token, `?filter[team_id]=${lab.id}&filter[status]=Denied`)) as Listed[]).length).toBe(0);
    expect(((await list(token, `?filter[team_id]=${lab.id}&status=Pending`)) as Listed[]).length).toBe(4);
    // filter[status] wins over the old spelling.
    expect(((await list(token, `?filter[team_id]=${lab.id}&status=Pending&filter[status]=Approved`)) as Listed[]).length).toBe(0);
    const other = (await list(token, `?filter[team_id]=${world.team.id}`)) as Listed[];
    expect(other.some((entry) => labRequests.some((request) => request.id === entry.id))).toBe(false);
  });

  it.each([
    ['Zebra', 'last name'],
    ['zelda z', 'full name, any case'],
    ['@zoo.example', 'email'],
    ['robots', 'object name'],
  ])('q=%s finds by %s', async (q, _what) => {
    const found = (await list(world.people.admin.token, `?filter[team_id]=${lab.id}&q=${encodeURIComponent(q)}`)) as Listed[];
    const expected = q === 'robots' ? labRequests[3]!.id : labRequests[0]!.id;
    expect(found.map((entry) => entry.id)).toEqual([expected]);
  });

  it('takes LIKE wildcards in q literally', async () => {
    expect(await list(world.people.admin.token, `?filter[team_id]=${lab.id}&q=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await list(world.people.admin.token, `?filter[team_id]=${lab.id}&q=_`)).toEqual([]);
  });

  it('keeps who sees what: team managers their team only, never their own; members and outsiders nothing', async () => {
    const owned = (await list(labOwner.token, '')) as Listed[];
    expect(owned.map((entry) => entry.id).sort()).toEqual(labRequests.map((request) => request.id).sort());
    // The world's owner sees none of the lab's, even when asking for the lab by filter.
    expect(await list(world.people.owner.token, `?filter[team_id]=${lab.id}`)).toEqual([]);
    expect(await list(labMember.token, '')).toEqual([]);
    expect(await list(zelda.token, '')).toEqual([]);
    const paged = (await list(labMember.token, '?page=1')) as Page;
    expect(paged).toEqual({ data: [], meta: { current_page: 1, per_page: 25, total: 0, last_page: 1 } });
  });

  it.each([
    ['filter[type]=Nope', 'filter[type]'],
    ['filter[status]=Nope', 'filter[status]'],
    ['filter[team_id]=abc', 'filter[team_id]'],
    ['filter[team_id]=99999999999', 'filter[team_id]'],
    ['sort=name', 'sort'],
    ['order=up', 'order'],
    [`q=${'a'.repeat(256)}`, 'q'],
  ])('?%s is a 422 on %s', async (query, field) => {
    const response = await ctx.inject('GET', `/api/requests?${query}`, { token: world.people.admin.token });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toContain(field);
  });
});

describe('POST /api/requests/bulk', () => {
  it('decides what it may and says why not for the rest; mails only the decided', async () => {
    const [first, second] = [await ctx.signedInUser({ firstname: 'Bea', lastname: 'Bulk' }), await ctx.signedInUser({ firstname: 'Cy', lastname: 'Bulk' })];
    const one = (await joinLab(first)).json();
    const two = (await joinLab(second)).json();
    // Already decided (409), the owner's own request (visible to them, 403), another team's (404).
    await ctx.inject('PATCH', `/api/requests/${two.id}`, { token: world.people.admin.token, body: { action: 'deny' } });
    const own = (await ctx.inject('PATCH', '/api/requests/teams', { token: labOwner.token, body: { team_id: world.team.id } })).json();
    const elsewhere = (await ctx.inject('PATCH', '/api/requests/teams', { token: first.token, body: { team_id: world.team.id } })).json();
    await ctx.idle();

    const response = await bulk(labOwner.token, { ids: [one.id, two.id, own.id, elsewhere.id, 2_000_000_000, one.id], action: 'approve', message: 'Welcome aboard' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      results: [
        { id: one.id, status: 'decided', http: 200, request_status: 'Approved' },
        { id: two.id, status: 'conflict', http: 409, message: 'This request has already been decided.' },
        { id: own.id, status: 'forbidden', http: 403, message: 'You may not decide this request.' },
        { id: elsewhere.id, status: 'not_found', http: 404, message: 'Not found.' },
        { id: 2_000_000_000, status: 'not_found', http: 404, message: 'Not found.' },
      ],
      totals: { requested: 5, decided: 1, forbidden: 1, not_found: 2, conflict: 1 },
    });

    // The decided one took effect, with the message; the others did not change.
    const member = await ctx.db.selectFrom('team_members').select('role').where('team_id', '=', lab.id).where('user_id', '=', first.user.id).executeTakeFirst();
    expect(member?.role).toBe('member');
    const rows = await ctx.db.selectFrom('requests').select(['id', 'status', 'decision_message']).where('id', 'in', [one.id, own.id, elsewhere.id]).execute();
    expect(Object.fromEntries(rows.map((row) => [row.id, [row.status, row.decision_message]]))).toEqual({
      [one.id]: ['Approved', 'Welcome aboard'],
      [own.id]: ['Pending', null],
      [elsewhere.id]: ['Pending', null],
    });

    const mail = await ctx.mailbox.waitFor(first.user.email, { subject: /approved/ });
    expect(mail.text).toContain('Welcome aboard');
    expect(mail.text).toContain('by Lara Labowner');
    await ctx.idle();
    expect(ctx.mailbox.messagesTo(first.user.email).filter((sent) => /approved|denied/.test(sent.subject))).toHaveLength(1);
    expect(ctx.mailbox.messagesTo(second.user.email).filter((sent) => /approved/.test(sent.subject))).toHaveLength(0);

    // One entry per decision (as one at a time) and one for the call.
    const entries = await ctx.db.selectFrom('activity_log').select(['description', 'subject_id', 'properties']).where('causer_id', '=', labOwner.user.id).execute();
    expect(entries.filter((entry) => entry.description === 'request approved').map((entry) => entry.subject_id)).toEqual([one.id]);
    const summary = entries.find((entry) => entry.description === 'requests approved in bulk')!;
    expect(JSON.parse(summary.properties)).toMatchObject({ action: 'approve', requested: 5, decided: 1, conflict: 1, forbidden: 1, not_found: 2, ids: [one.id], severity: 'warning' });
  });

  it('a platform admin denies many at once, each mailed with the message', async () => {
    const people = await Promise.all([1, 2, 3].map((n) => ctx.signedInUser({ firstname: `Dee${n}`, lastname: 'Nied' })));
    const made = [];
    for (const person of people) made.push((await joinLab(person)).json());
    const response = await bulk(world.people.admin.token, { ids: made.map((request) => request.id), action: 'deny', message: 'Not this term' });
    expect(response.statusCode).toBe(200);
    expect(response.json().totals).toEqual({ requested: 3, decided: 3, forbidden: 0, not_found: 0, conflict: 0 });
    expect(response.json().results.every((item: { request_status: string }) => item.request_status === 'Denied')).toBe(true);
    for (const person of people) {
      const mail = await ctx.mailbox.waitFor(person.user.email, { subject: /denied/ });
      expect(mail.text).toContain('Not this term');
    }
    const listed = (await list(world.people.admin.token, `?filter[team_id]=${lab.id}&filter[status]=Denied&q=Nied`)) as Listed[];
    expect(listed).toHaveLength(3);
  });

  it('a member decides nothing: every id is 404 (not visible) or 403, nothing changes', async () => {
    const response = await bulk(labMember.token, { ids: [labRequests[0]!.id, labRequests[3]!.id], action: 'approve' });
    expect(response.statusCode).toBe(200);
    // The workspace request is the member's own: visible, not theirs to decide.
    expect(response.json().results.map((item: { status: string }) => item.status)).toEqual(['not_found', 'forbidden']);
    const statuses = await ctx.db.selectFrom('requests').select('status').where('id', 'in', [labRequests[0]!.id, labRequests[3]!.id]).execute();
    expect(statuses.every((row) => row.status === 'Pending')).toBe(true);
  });

  it.each([
    [{ action: 'approve' }, 'ids', 'The ids field is required.'],
    [{ ids: [], action: 'approve' }, 'ids', 'The ids field must have at least 1 item.'],
    [{ ids: Array.from({ length: 501 }, (_, index) => index + 1), action: 'approve' }, 'ids', 'The ids field must not have more than 500 items.'],
    [{ ids: 'all', action: 'approve' }, 'ids', 'The ids field must be an array.'],
    [{ ids: ['x'], action: 'approve' }, 'ids.0', 'The ids.* field must be an integer.'],
    [{ ids: [1] }, 'action', 'The action field is required.'],
    [{ ids: [1], action: 'maybe' }, 'action', 'The selected action is invalid.'],
  ])('%j is a 422 on %s', async (body, field, message) => {
    const response = await bulk(world.people.admin.token, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors[field]).toEqual([message]);
  });

  it('needs a signed-in, onboarded user', async () => {
    expect((await ctx.inject('POST', '/api/requests/bulk', { body: { ids: [1], action: 'approve' } })).statusCode).toBe(401);
  });
});
