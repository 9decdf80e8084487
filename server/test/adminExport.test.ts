import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell, csvStream, keysetBatches, neutralizeCell } from '../src/http/csvExport.js';
import { filteredUsers, USER_COLUMNS } from '../src/admin/lists.js';
import { timestamp } from '../src/db/database.js';
import { createTestContext, type TestContext } from './helpers.js';
import { FAST, nodeUser } from './nodesFixtures.js';
import { addTeamMember, addWorkspaceMember, createWorld, insertTeam, insertWorkspace, type World } from './teamFixtures.js';

// GET /api/admin/{users,teams,workspaces,activity,nodes}.csv (docs/api-contract.md; formula safety, docs/security.md):
// the whole filtered list, formula-safe, streamed in batches, for platform admins only.

const SEEDED = 2500; // more than two export batches of 1,000
const prefix = `csv${process.pid}`;

/** Spreadsheet formula starts (OWASP) as first names, as a hostile user could register them. */
const HOSTILE = ['=HYPERLINK("http://x","y")', '+1', '-2', '@SUM(1)', '\tTab', '\rCR'];
/** Fields that CSV must quote, and that must come back unchanged. */
const AWKWARD = { firstname: 'Ann, "the" Admin', lastname: 'First line\nsecond line' };

const today = () => new Date().toISOString().slice(0, 10);

/** The CSV as records of header → cell, checking the header line first. */
function records(body: string, header: string[]): Record<string, string>[] {
  const rows = parse(body, { relax_column_count: false }) as string[][];
  expect(rows[0]).toEqual(header);
  return rows.slice(1).map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]!])));
}

describe('neutralizeCell / csvCell', () => {
  it.each(HOSTILE)('prefixes a single quote to %j', (value) => {
    expect(neutralizeCell(value)).toBe(`'${value}`);
  });

  it('leaves other text, numbers, flags and empty cells alone', () => {
    for (const value of ['Ada', 'a=b', "'quoted", '', '2026-11-22T10:00:00.000Z', 'x-1']) expect(neutralizeCell(value)).toBe(value);
    expect([csvCell(null), csvCell(undefined), csvCell(42), csvCell(true), csvCell(false), csvCell(-3)]).toEqual(['', '', '42', 'true', 'false', "'-3"]);
  });
});

describe('the admin CSV exports', () => {
  let ctx: TestContext;
  let world: World;
  let admin: string;
  let hostileIds: number[];
  let awkwardId: number;
  let seededTeam: { id: number; name: string };

  beforeAll(async () => {
    ctx = await createTestContext();
    world = await createWorld(ctx);
    admin = world.people.admin.token;

    const now = timestamp();
    const person = (n: number, fields: { firstname?: string; lastname?: string } = {}) => ({
      firstname: `Seed${String(n).padStart(5, '0')}`,
      lastname: 'Bulk',
      email: `${prefix}.${n}@bulk.example.org`,
      password_hash: 'not-a-real-hash',
      email_verified_at: now,
      aup_accepted_at: now,
      admin: 0,
      enabled: n % 5 === 0 ? 0 : 1,
      authority: null,
      created_at: now,
      updated_at: now,
      ...fields,
    });
    // The hostile and awkward people first, so that they head the seeded team's members.
    hostileIds = [];
    for (const [index, firstname] of HOSTILE.entries()) {
      const row = await ctx.db.insertInto('users').values(person(SEEDED + index, { firstname })).returning('id').executeTakeFirstOrThrow();
      hostileIds.push(row.id);
    }
    awkwardId = (await ctx.db.insertInto('users').values(person(SEEDED + 100, AWKWARD)).returning('id').executeTakeFirstOrThrow()).id;
    for (let start = 0; start < SEEDED; start += 500) {
      const rows = Array.from({ length: Math.min(500, SEEDED - start) }, (_, offset) => person(start + offset));
      await ctx.db.insertInto('users').values(rows).execute();
    }

    seededTeam = await insertTeam(ctx, `${prefix}team`);
    const workspace = await insertWorkspace(ctx, seededTeam, 'exported');
    for (const id of [...hostileIds, awkwardId]) {
      await addTeamMember(ctx, seededTeam.id, id, 'member');
      await addWorkspaceMember(ctx, workspace.id, id, 'member');
    }
  }, 120_000);
  afterAll(() => ctx?.close());

  /** GET as the platform admin, or with another token, or none (null). */
  const get = (url: string, token: string | null = admin) => ctx.inject('GET', url, { token: token ?? undefined });
  const listTotal = async (url: string) => (await get(url)).json().meta.total as number;

  it('users.csv: every user of the filters, one line each, as a download', async () => {
    const response = await get(`/api/admin/users.csv?q=${prefix}`);
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="users-${today()}.csv"`);

    const users = records(response.body, [
      'id',
      'firstname',
      'lastname',
      'email',
      'admin',
      'enabled',
      'email_verified_at',
      'created_at',
      'team_count',
      'teams',
      'workspace_count',
      'workspaces',
    ]);
    const total = await listTotal(`/api/admin/users?page=1&q=${prefix}`);
    expect(total).toBe(SEEDED + HOSTILE.length + 1);
    expect(users).toHaveLength(total);
    // The list's own rows, no more, no fewer, none twice.
    const listed = (await get(`/api/admin/users?q=${prefix}`)).json() as { id: number }[];
    expect(users.map((user) => Number(user.id))).toEqual(listed.map((user) => user.id).sort((a, b) => a - b));

    const seed42 = users.find((user) => user.email === `${prefix}.42@bulk.example.org`)!;
    expect(seed42).toMatchObject({ firstname: 'Seed00042', lastname: 'Bulk', admin: 'false', enabled: 'true', team_count: '0', teams: '' });

    // A filter: the disabled ones only, as the list counts them.
    const disabled = records((await get(`/api/admin/users.csv?q=${prefix}&filter[enabled]=false`)).body, Object.keys(seed42));
    expect(disabled).toHaveLength(await listTotal(`/api/admin/users?page=1&q=${prefix}&filter[enabled]=false`));
    expect(disabled.length).toBeGreaterThan(SEEDED / 5 - 1);
    expect(disabled.every((user) => user.enabled === 'false')).toBe(true);
    // Paging and sorting of the list do not cut or reorder the export.
    expect(records((await get(`/api/admin/users.csv?q=${prefix}&page=2&per_page=10&sort=email&order=desc`)).body, Object.keys(seed42))).toEqual(users);
  });

  it('users.csv: formula starts are neutralised, commas, quotes and newlines round-trip', async () => {
    const response = await get(`/api/admin/users.csv?q=${prefix}`);
    const rows = parse(response.body) as string[][];
    const byId = new Map(rows.slice(1).map((row) => [Number(row[0]), row]));
    for (const [index, id] of hostileIds.entries()) {
      const row = byId.get(id)!;
      expect(row[1], HOSTILE[index]).toBe(`'${HOSTILE[index]}`);
      expect(row[9]).toBe(`${prefix}team (member)`);
    }
    const awkward = byId.get(awkwardId)!;
    expect([awkward[1], awkward[2]]).toEqual([AWKWARD.firstname, AWKWARD.lastname]);
    // No cell of the whole file starts a formula.
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('teams.csv: one line per team, members as a count and a joined column', async () => {
    const response = await get(`/api/admin/teams.csv?q=${prefix}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="teams-${today()}.csv"`);
    const teams = records(response.body, [
      'id',
      'name',
      'fullname',
      'shortname',
      'country',
      'created_at',
      'member_count',
      'members',
      'workspace_count',
      'workspaces',
    ]);
    expect(teams).toHaveLength(1);
    const [team] = teams;
    expect(team).toMatchObject({ id: String(seededTeam.id), name: `${prefix}team`, member_count: String(HOSTILE.length + 1), workspace_count: '1', workspaces: 'exported' });
    // The first member's name starts with '=': the joined cell is neutralised as a whole.
    expect(team!.members).toBe(
      `'${[...HOSTILE.map((firstname) => `${firstname} Bulk (member)`), `${AWKWARD.firstname} ${AWKWARD.lastname} (member)`].join('; ')}`,
    );

    const all = records((await get('/api/admin/teams.csv')).body, Object.keys(team!));
    expect(all).toHaveLength(((await get('/api/admin/teams')).json() as unknown[]).length);
    expect(all.find((row) => row.name === world.team.name)).toMatchObject({ member_count: String((await get('/api/admin/teams')).json().find((t: { id: number }) => t.id === world.team.id).member_count) });
  });

  it('workspaces.csv: one line per workspace with its team and member count, filtered by team', async () => {
    const response = await get(`/api/admin/workspaces.csv?filter[team_id]=${seededTeam.id}`);
    expect(response.statusCode).toBe(200);
    const workspaces = records(response.body, ['id', 'name', 'label', 'namespace', 'team_id', 'team', 'created_at', 'member_count', 'members']);
    expect(workspaces).toHaveLength(1);
    expect(workspaces[0]).toMatchObject({ name: 'exported', team_id: String(seededTeam.id), team: `${prefix}team`, member_count: String(HOSTILE.length + 1) });
    expect(workspaces[0]!.members.startsWith(`'=HYPERLINK`)).toBe(true);

    const all = records((await get('/api/admin/workspaces.csv')).body, Object.keys(workspaces[0]!));
    expect(all.map((row) => Number(row.id))).toEqual(((await get('/api/admin/workspaces')).json() as { id: number }[]).map((w) => w.id).sort((a, b) => a - b));
    expect((await get('/api/admin/workspaces.csv?filter[team_id]=abc')).statusCode).toBe(422);
  });

  it('activity.csv: the audit log of the filters, newest first', async () => {
    const header = ['id', 'created_at', 'severity', 'description', 'causer_id', 'causer', 'subject_type', 'subject_id', 'subject', 'properties'];
    const response = await get('/api/admin/activity.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="activity-${today()}.csv"`);
    const entries = records(response.body, header);
    expect(entries).toHaveLength(await listTotal('/api/admin/activity?page=1'));
    const ids = entries.map((entry) => Number(entry.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const login = entries.find((entry) => entry.description === 'logged in' && entry.causer_id === String(world.people.admin.user.id))!;
    expect(login).toMatchObject({ severity: 'info', causer: world.people.admin.user.firstname + ' ' + world.people.admin.user.lastname });
    expect(JSON.parse(login.properties)).toMatchObject({ severity: 'info' });

    const logins = records((await get('/api/admin/activity.csv?q=logged in&filter[severity]=info')).body, header);
    expect(logins).toHaveLength(await listTotal('/api/admin/activity?page=1&q=logged in&filter[severity]=info'));
    expect(logins.every((entry) => entry.description === 'logged in')).toBe(true);
    expect((await get('/api/admin/activity.csv?filter[severity]=fatal')).statusCode).toBe(422);
  });

  it.each(['users', 'teams', 'workspaces', 'activity', 'nodes'])('%s.csv: 401 anonymous, 403 for others, JSON messages', async (list) => {
    const anonymous = await get(`/api/admin/${list}.csv`, null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Unauthenticated.' });
    const member = await get(`/api/admin/${list}.csv`, world.people.member.token);
    expect(member.statusCode).toBe(403);
    expect(member.json().message).toEqual(expect.any(String));
    expect(member.headers['content-disposition']).toBeUndefined();
  });

  it('are in the OpenAPI document as text/csv answers', async () => {
    const doc = (await get('/api/docs', null)).json();
    for (const list of ['users', 'teams', 'workspaces', 'activity', 'nodes']) {
      const operation = doc.paths[`/api/admin/${list}.csv`]?.get;
      expect(operation, list).toBeDefined();
      expect(Object.keys(operation.responses['200'].content)).toEqual(['text/csv']);
      expect(operation.security).toEqual([{ bearerAuth: [] }]);
    }
  });

  /** The seeded people's emails as an export streams them, in batches of `size`, counting the queries and noting when the batches are closed. */
  function emailExport(size: number) {
    const seen = { queried: 0, closed: false };
    const users = keysetBatches(async (after, limit) => {
      seen.queried += 1;
      return filteredUsers(ctx.db, { q: prefix })
        .select(USER_COLUMNS)
        .$if(after !== undefined, (qb) => qb.where('id', '>', after!))
        .orderBy('id')
        .limit(limit)
        .execute();
    }, size);
    async function* batches() {
      try {
        yield* users;
      } finally {
        seen.closed = true;
      }
    }
    return { seen, stream: csvStream([{ header: 'email', value: (user: { email: string }) => user.email }], batches()) };
  }

  it('stream with backpressure: batches are queried as the reader takes the lines, never all at once', async () => {
    const BATCH = 100;
    const { seen, stream } = emailExport(BATCH);

    // Nobody reads: the buffers fill and the queries stop. What may be held is csv-stringify's
    // 16 KiB of text (~470 lines of ~35 bytes), 16 + 16 rows in the object buffers and the
    // batch in hand: at most 7 of the 26 batches.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const total = SEEDED + HOSTILE.length + 1;
    expect(seen.queried).toBeGreaterThan(0);
    expect(seen.queried).toBeLessThanOrEqual(7);

    let text = '';
    for await (const chunk of stream) text += String(chunk);
    expect(text.split('\r\n')).toHaveLength(total + 2); // the header, the rows, and '' after the last CRLF
    expect(seen.queried).toBe(Math.ceil(total / BATCH) + (total % BATCH === 0 ? 1 : 0));
  });

  it('a reader that goes away stops the queries: the batches are closed, no query follows', async () => {
    const { seen, stream } = emailExport(100);
    const reader = stream[Symbol.asyncIterator]();
    await reader.next();
    stream.destroy(); // what Fastify does when the client's connection closes
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.closed).toBe(true);
    const total = SEEDED + HOSTILE.length + 1;
    expect(seen.queried).toBeLessThan(Math.ceil(total / 100));
    const after = seen.queried;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen.queried).toBe(after);
  });

  it('a query failing mid-export fails the stream instead of ending the file early', async () => {
    async function* failing() {
      yield [{ id: 1 }];
      throw new Error('connection lost');
    }
    const stream = csvStream([{ header: 'id', value: (row: { id: number }) => row.id }], failing());
    await expect(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    ).rejects.toThrow('connection lost');
  });
});

describe('GET /api/admin/nodes.csv', () => {
  let nodesCtx: TestContext;
  let admin: { token: string };
  let owner: { user: { id: number }; token: string };

  beforeAll(async () => {
    nodesCtx = await createTestContext({ cluster: { timings: FAST } });
    admin = await nodeUser(nodesCtx, { admin: true });
    owner = await nodeUser(nodesCtx, { firstname: '@cmd' });
  }, 60_000);
  afterAll(async () => {
    await nodesCtx?.close();
  });

  it('lists the cluster nodes of the search, with their owners, formula-safe', async () => {
    const added = await nodesCtx.inject('POST', '/api/nodes', { token: owner.token, body: { type: 'raspberry-pi' } });
    expect(added.statusCode, added.body).toBe(201);
    await nodesCtx.db.updateTable('nodes').set({ name: 'sandbox-node-2' }).where('id', '=', added.json().id).execute();

    const response = await nodesCtx.inject('GET', '/api/admin/nodes.csv', { token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="nodes-${today()}.csv"`);
    const header = [
      'name',
      'type',
      'status',
      'owner_id',
      'owner',
      'node_id',
      'addresses',
      'cpu',
      'memory',
      'ephemeral_storage',
      'pods',
      'architecture',
      'operating_system',
      'os_image',
      'kubelet_version',
      'unschedulable',
      'last_active',
    ];
    const nodes = records(response.body, header);
    const listed = (await nodesCtx.inject('GET', '/api/admin/nodes', { token: admin.token })).json() as { name: string }[];
    expect(nodes.map((node) => node.name)).toEqual(listed.map((node) => node.name));
    expect(nodes.find((node) => node.name === 'sandbox-node-1')).toMatchObject({
      type: 'x86-64',
      status: 'ok',
      owner: '',
      addresses: 'InternalIP 10.240.0.11; Hostname sandbox-node-1',
      cpu: '4',
      architecture: 'amd64',
      unschedulable: 'false',
    });
    expect(nodes.find((node) => node.name === 'sandbox-node-2')).toMatchObject({
      type: 'raspberry-pi',
      owner_id: String(owner.user.id),
      owner: "'@cmd Owner",
      node_id: String(added.json().id),
    });

    const searched = records((await nodesCtx.inject('GET', '/api/admin/nodes.csv?q=NODE-3', { token: admin.token })).body, header);
    expect(searched.map((node) => node.name)).toEqual(['sandbox-node-3']);
  });

  it('answers 503, not an empty file, while the cluster is down', async () => {
    await nodesCtx.cluster.stop();
    try {
      const response = await nodesCtx.inject('GET', '/api/admin/nodes.csv', { token: admin.token });
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toBe('The cluster cannot be reached right now. Try again in a minute.');
    } finally {
      await nodesCtx.cluster.start();
    }
  });
});
