import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { createWorld, insertTeam } from './teamFixtures.js';

// The team pickers' search (GET /api/tenants?q=) ranks what it finds: the team whose name is
// the query (any case) first, then names that start with it, then the other matches (a
// longer name containing it, or a full name or affiliation that does), each group by name.
// Before, the matches came by name alone, so typing "lab" listed "aaa-lab" and "biolab"
// before the team called "lab", and a limit could leave it out altogether.

let ctx: TestContext;
let token: string;
const tag = `r${process.pid}`;

beforeAll(async () => {
  ctx = await createTestContext();
  token = (await createWorld(ctx)).people.outsider.token;
  // Names chosen so that alphabetical order alone would put the exact match last.
  for (const name of ['aaa-lab', 'biolab', 'labs', 'labrador', 'lab']) await insertTeam(ctx, name);
  // Found by the start of its full name only (a prefix search, so also for 1–2 characters).
  await insertTeam(ctx, 'aaa-other');
  await ctx.db.updateTable('teams').set({ fullname: 'La Recherche' }).where('name', '=', 'aaa-other').execute();
  // A match by something else than the name (its full name is "Team <name>").
  await insertTeam(ctx, `${tag}-other`);
  await ctx.db.updateTable('teams').set({ affiliation: 'Lab of everything' }).where('name', '=', `${tag}-other`).execute();
}, 60_000);
afterAll(() => ctx.close());

const search = async (q: string, limit?: number) => {
  const reply = await ctx.inject('GET', `/api/tenants?q=${encodeURIComponent(q)}${limit ? `&limit=${limit}` : ''}`, { token });
  expect(reply.statusCode).toBe(200);
  return (reply.json() as { name: string }[]).map((team) => team.name);
};

describe('team search ranking', () => {
  it('puts the exact name first (any case), then prefixes, then the rest, each by name', async () => {
    const expected = ['lab', 'labs', 'labrador', `${tag}-other`, 'aaa-lab', 'biolab'].sort(byRankThenName('lab'));
    expect(expected.slice(0, 3)).toEqual(['lab', 'labrador', 'labs']);
    expect(await search('lab')).toEqual(expected);
    expect(await search('LAB')).toEqual(expected);
  });

  it('keeps the exact match when the limit cuts the list', async () => {
    expect(await search('lab', 1)).toEqual(['lab']);
    expect(await search('labr', 1)).toEqual(['labrador']);
  });

  it('ranks 1–2 character queries too (prefix searches)', async () => {
    const found = await search('la');
    expect(found.slice(0, 3)).toEqual(['lab', 'labrador', 'labs']);
    expect(found).toContain('aaa-other');
  });
});

/** The expected order, said independently of the server: exact, then prefix, then the rest; by name within each. */
function byRankThenName(q: string) {
  const rank = (name: string) => (name.toLowerCase() === q ? 0 : name.toLowerCase().startsWith(q) ? 1 : 2);
  return (a: string, b: string) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}
