import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { FAST, nodeUser } from './nodesFixtures.js';

// GET /api/admin/nodes.csv takes the admin list's filters (q, filter[status], filter[type],
// filter[owner_id]) and answers the list's rows, nodes not installed yet included.

describe('GET /api/admin/nodes.csv filters', () => {
  let ctx: TestContext;
  let admin: { token: string };
  let alice: { user: { id: number }; token: string };
  let waitingId: number;
  let installingId: number;

  const addNode = async (token: string, body: Record<string, unknown>) => {
    const response = await ctx.inject('POST', '/api/nodes', { token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: number };
  };
  const csv = async (query: string, token = admin.token) => ctx.inject('GET', `/api/admin/nodes.csv?${query}`, { token });
  /** The CSV's rows as header → cell. */
  const rows = async (query: string) => {
    const response = await csv(query);
    expect(response.statusCode, response.body).toBe(200);
    const [header, ...lines] = parse(response.body) as string[][];
    return lines.map((line) => Object.fromEntries(header!.map((name, index) => [name, line[index]!])));
  };
  const listed = async (query: string) =>
    ((await ctx.inject('GET', `/api/admin/nodes?${query}`, { token: admin.token })).json() as { name: string }[]).map((node) => node.name);

  beforeAll(async () => {
    ctx = await createTestContext({ cluster: { timings: FAST } });
    admin = await nodeUser(ctx, { admin: true });
    alice = await nodeUser(ctx, { firstname: 'Alice' });
    waitingId = (await addNode(alice.token, { type: 'jetson', hostname: 'jetson-csv-7', dhcp: true })).id;
    installingId = (await addNode(admin.token, { type: 'x86-64', hostname: 'rack-csv-2', dhcp: true })).id;
    await ctx.db.updateTable('nodes').set({ status: 'installing' }).where('id', '=', installingId).execute();
  }, 60_000);
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers the same nodes as the list for each filter, nodes not installed yet included', async () => {
    for (const query of ['', 'q=CSV', 'q=sandbox-node-1', 'filter[status]=to%20install', 'filter[status]=installing', 'filter[status]=ok', 'filter[type]=jetson', `filter[owner_id]=${alice.user.id}`, 'filter[type]=jetson&filter[status]=installing']) {
      expect((await rows(query)).map((node) => node.name), query).toEqual(await listed(query));
    }
    expect(await rows('filter[status]=to%20install')).toEqual([
      expect.objectContaining({ name: 'jetson-csv-7', type: 'jetson', status: 'to install', owner_id: String(alice.user.id), node_id: String(waitingId), cpu: '' }),
    ]);
    expect((await rows('filter[status]=installing')).map((node) => node.node_id)).toEqual([String(installingId)]);
    expect((await rows('filter[status]=ok')).every((node) => node.status === 'ok')).toBe(true);
    expect((await rows('filter[status]=ok')).length).toBeGreaterThan(0);
    expect((await rows(`filter[owner_id]=${alice.user.id}`)).map((node) => node.name)).toEqual(['jetson-csv-7']);
    expect((await rows('q=RACK-CSV')).map((node) => node.node_id)).toEqual([String(installingId)]);
    expect(await rows('filter[type]=jetson&filter[status]=installing')).toEqual([]);
  });

  it('refuses a bad filter as the list does (422), and everyone but platform admins (401, 403)', async () => {
    for (const bad of ['filter[status]=sleeping', 'filter[type]=toaster', 'filter[owner_id]=me']) {
      const response = await csv(bad);
      expect(response.statusCode, bad).toBe(422);
      expect(response.json().errors).toEqual((await ctx.inject('GET', `/api/admin/nodes?${bad}`, { token: admin.token })).json().errors);
    }
    expect((await ctx.inject('GET', '/api/admin/nodes.csv?filter[type]=jetson')).statusCode).toBe(401);
    const forbidden = await csv('filter[type]=jetson', alice.token);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.body).not.toContain('jetson-csv-7');
  });
});
