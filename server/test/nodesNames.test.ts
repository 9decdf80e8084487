import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTNAME_TAKEN } from '../src/nodes/schemas.js';
import { createTestContext, type SignedInUser, type TestContext, unique } from './helpers.js';
import { FAST, nodeUser, secretOf } from './nodesFixtures.js';

// One name, one node (server/src/nodes/names.ts): a hostname that another node of the console
// already goes by, whoever owns it, is refused on `hostname` and nothing is written, whether
// the node is added or a machine is claimed with it; at once as well as one after the other.

let ctx: TestContext;
let alice: SignedInUser;
let bob: SignedInUser;

beforeAll(async () => {
  ctx = await createTestContext({ cluster: { timings: FAST } });
  alice = await nodeUser(ctx, { firstname: 'Alice' });
  bob = await nodeUser(ctx, { firstname: 'Bob' });
});
afterAll(async () => {
  await ctx?.close();
});

const add = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  ctx.inject('POST', '/api/nodes', { token, body, headers });

const nodeCount = async () => Number((await ctx.db.selectFrom('nodes').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()).count);

describe('a hostname another node goes by', () => {
  it('is refused on `hostname` (422, in English and French), for any owner, whatever its case; nothing is created', async () => {
    const hostname = unique('pi-lab');
    expect((await add(alice.token, { type: 'raspberry-pi', hostname })).statusCode).toBe(201);
    const before = await nodeCount();

    const again = await add(bob.token, { type: 'jetson', hostname: hostname.toUpperCase() });
    expect(again.statusCode, again.body).toBe(422);
    expect(again.json()).toEqual({ message: HOSTNAME_TAKEN, errors: { hostname: [HOSTNAME_TAKEN] } });
    const french = await add(alice.token, { type: 'raspberry-pi', hostname }, { 'accept-language': 'fr' });
    expect(french.statusCode).toBe(422);
    expect(french.json().errors).toEqual({ hostname: ['Ce nom est déjà utilisé par un autre nœud. Choisissez un autre nom d’hôte.'] });
    expect(await nodeCount()).toBe(before);

    // Another name, or none at all, is fine.
    expect((await add(bob.token, { type: 'jetson', hostname: `${hostname}-2` })).statusCode).toBe(201);
    expect((await add(bob.token, { type: 'jetson' })).statusCode).toBe(201);
    expect((await add(bob.token, { type: 'jetson' })).statusCode).toBe(201);
  });

  it('is said in the same answer as the other fields\' errors, not only once they are fixed', async () => {
    const hostname = unique('pi-same');
    expect((await add(alice.token, { type: 'raspberry-pi', hostname })).statusCode).toBe(201);
    const before = await nodeCount();
    const both = await add(bob.token, { type: 'toaster', hostname, ipv4: 'not an address' });
    expect(both.statusCode).toBe(422);
    expect(both.json().errors).toEqual({ type: ['The selected type is invalid.'], ipv4: [expect.any(String)], hostname: [HOSTNAME_TAKEN] });
    // Without the name taken, the schema's answer is unchanged; a malformed name is its own error.
    const free = await add(bob.token, { type: 'toaster', hostname: `${hostname}-free` });
    expect(free.json()).toEqual({ message: 'The selected type is invalid.', errors: { type: ['The selected type is invalid.'] } });
    const malformed = await add(bob.token, { type: 'toaster', hostname: 'not a hostname!' });
    expect(Object.keys(malformed.json().errors)).toEqual(['type', 'hostname']);
    expect(malformed.json().errors.hostname).not.toContain(HOSTNAME_TAKEN);
    expect(await nodeCount()).toBe(before);
  });

  it('is refused when it is the Kubernetes name of a node, disabled or not', async () => {
    const added = (await add(alice.token, { type: 'x86-64', hostname: `${unique('rack')}.lab.example` })).json();
    const name = unique('rack-node');
    await ctx.db.updateTable('nodes').set({ name, disabled_at: new Date().toISOString() }).where('id', '=', added.id).execute();
    const refused = await add(bob.token, { type: 'x86-64', hostname: name });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ hostname: [HOSTNAME_TAKEN] });
  });

  it('goes to one node only when many ask for it at the same moment', async () => {
    const hostname = unique('race');
    const people = await Promise.all(Array.from({ length: 6 }, (_, index) => nodeUser(ctx, { firstname: `Racer${index}` })));
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, index) => add(people[index % people.length]!.token, { type: 'other', hostname })),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 422)).toHaveLength(23);
    const rows = await ctx.db.selectFrom('nodes').select('id').where('hostname', '=', hostname).execute();
    expect(rows).toHaveLength(1);
  });

  it('is refused when claiming a machine with it; the machine stays free and its code still works', async () => {
    const hostname = unique('claimed');
    expect((await add(alice.token, { type: 'other', hostname })).statusCode).toBe(201);
    const { code } = (await ctx.inject('POST', '/agent/register', { body: { facts: { hostname: 'whatever' } } })).json();

    const refused = await add(bob.token, { type: 'other', code, hostname });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ hostname: [HOSTNAME_TAKEN] });
    const machine = await ctx.db.selectFrom('nodes').select(['owner_id', 'claim_code']).where('claim_code', '=', code).executeTakeFirstOrThrow();
    expect(machine.owner_id).toBeNull();

    const claimed = await add(bob.token, { type: 'other', code, hostname: `${hostname}-b` });
    expect(claimed.statusCode, claimed.body).toBe(201);
    expect(claimed.json()).toMatchObject({ hostname: `${hostname}-b`, owner: { id: bob.user.id } });
  });
});

describe('the Kubernetes name a node gets', () => {
  it('is not a name another node goes by as its hostname', async () => {
    const host = unique('twin');
    const first = (await add(alice.token, { type: 'other', hostname: `${host}.lab.example` })).json();
    const second = (await add(bob.token, { type: 'other', hostname: host })).json();
    const bootstrap = async (node: { installation_url: string }) =>
      (await ctx.inject('POST', '/agent/bootstrap', { headers: { authorization: `Bearer ${secretOf(node.installation_url)}` }, body: {} })).json().node_name;
    // The first label of the first one's hostname is the second one's whole hostname: the
    // second keeps it, the first gets its number.
    expect(await bootstrap(first)).toBe(`${host}-${first.id}`);
    expect(await bootstrap(second)).toBe(host);
  });
});
