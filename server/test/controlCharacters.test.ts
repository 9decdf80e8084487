import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';
import { createWorld, type World } from './teamFixtures.js';

// Control characters (docs/security.md): a name holding a line break (or any other control character) can forge
// lines wherever it is printed — a mail written to the log, with a fake reset link in it.
// Every name-like field refuses them with a 422 saying so; fields that are multi-line by
// nature (a request's reason, a description, a message, notes) keep their line breaks.

let ctx: TestContext;
let world: World;
let person: SignedInUser;
beforeAll(async () => {
  ctx = await createTestContext();
  world = await createWorld(ctx);
  person = await ctx.signedInUser();
});
afterAll(() => ctx.close());

const says = (field: string) => `The ${field} field must not contain line breaks or other control characters.`;

// LF and CR forge lines; ESC drives terminals; NEL (U+0085) and DEL are Cc too; TAB as well.
const CONTROLS = [
  ['LF', 'Ada\nTo: victim@example.org'],
  ['CR', 'Ada\rSubject: reset'],
  ['ESC', 'Ada\u001b[2K'],
  ['NEL', 'Ada\u0085Lovelace'],
  ['DEL', 'Ada\u007f'],
  ['TAB', 'Ada\tLovelace'],
  ['NUL', 'Ada\u0000'],
] as const;

const teamBody = {
  fullname: 'Edge Lab',
  shortname: 'Edge Lab',
  affiliation: 'University of X',
  country: 'FR',
  url: 'https://edgelab.example.org',
  joining_reason: 'Research',
  joining_category: 'Research',
};

type Case = {
  field: string;
  send: (value: string) => ReturnType<TestContext['inject']>;
};

const cases: Case[] = [
  { field: 'firstname', send: (value) => ctx.register({ firstname: value }) },
  { field: 'lastname', send: (value) => ctx.register({ lastname: value }) },
  { field: 'email', send: (value) => ctx.register({ email: `a${value}@example.org` }) },
  { field: 'email', send: (value) => ctx.inject('POST', '/password/link', { body: { email: `a${value}@example.org` } }) },
  { field: 'firstname', send: (value) => ctx.inject('PATCH', '/user', { token: person.token, body: { firstname: value, lastname: 'L' } }) },
  { field: 'lastname', send: (value) => ctx.inject('PATCH', '/user', { token: person.token, body: { firstname: 'F', lastname: value } }) },
  { field: 'name', send: (value) => ctx.inject('POST', '/api/tokens', { token: person.token, body: { name: value } }) },
  ...(['fullname', 'shortname', 'affiliation', 'country', 'url', 'city'] as const).map((field) => ({
    field,
    send: (value: string) =>
      ctx.inject('POST', '/api/requests/teams', {
        token: person.token,
        body: { ...teamBody, [field]: field === 'url' ? `https://x.example.org/${value}` : value },
      }),
  })),
  {
    field: 'label',
    send: (value) =>
      ctx.inject('POST', '/api/requests/workspaces', {
        token: world.people.owner.token,
        body: { label: value, name: 'fine-name', team_id: world.team.id },
      }),
  },
  {
    field: 'name',
    send: (value) =>
      ctx.inject('PATCH', '/api/requests/workspaces/', { token: person.token, body: { team_id: world.team.id, name: value } }),
  },
  { field: 'hostname', send: (value) => ctx.inject('POST', '/api/nodes', { token: person.token, body: { type: 'other', hostname: value } }) },
  { field: 'code', send: (value) => ctx.inject('POST', '/api/nodes', { token: person.token, body: { code: value } }) },
  { field: 'facts.hostname', send: (value) => ctx.inject('POST', '/agent/register', { body: { facts: { hostname: value } } }) },
  { field: 'facts.os', send: (value) => ctx.inject('POST', '/agent/register', { body: { facts: { os: value } } }) },
  { field: 'facts.addresses', send: (value) => ctx.inject('POST', '/agent/register', { body: { facts: { addresses: [value] } } }) },
];

describe('name-like fields refuse control characters', () => {
  it.each(cases.flatMap((entry) => CONTROLS.map(([name, value]) => [entry.field, name, entry, value] as const)))(
    '%s with %s: 422 saying so',
    async (field, _name, entry, value) => {
      const response = await entry.send(value);
      expect(response.statusCode, response.body).toBe(422);
      const messages = response.json().errors[field.startsWith('facts.addresses') ? 'facts.addresses.0' : field];
      expect(messages, response.body).toContain(says(field));
    },
  );

  it('still trims surrounding whitespace, line breaks included, rather than refusing it', async () => {
    const response = await ctx.inject('PATCH', '/user', { token: person.token, body: { firstname: '\n Ada \r\n', lastname: 'Lovelace\t' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ firstname: 'Ada', lastname: 'Lovelace' });
  });

  it('keeps names in any script, with emoji and inner spaces', async () => {
    const response = await ctx.inject('PATCH', '/user', { token: person.token, body: { firstname: 'Zoë 🚀', lastname: 'Ñúñez Østergård' } });
    expect(response.statusCode, response.body).toBe(200);
  });
});

describe('multi-line fields keep their line breaks', () => {
  it('a team request keeps the lines of its reason', async () => {
    const response = await ctx.inject('POST', '/api/requests/teams', {
      token: person.token,
      body: { ...teamBody, shortname: `Lines ${process.pid}`, joining_reason: 'Teaching:\r\n- edge AI\n- robotics' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.joining_reason).toBe('Teaching:\r\n- edge AI\n- robotics');
  });

  it('a workspace request keeps the lines of its description and message', async () => {
    const response = await ctx.inject('POST', '/api/requests/workspaces', {
      token: world.people.member.token,
      body: { label: 'Vision', name: `vision-${process.pid}`, team_id: world.team.id, description: 'Line one\nLine two', message: 'Hi\nthere' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data).toMatchObject({ description: 'Line one\nLine two' });
  });

  it('node notes keep their lines', async () => {
    const response = await ctx.inject('POST', '/api/nodes', { token: person.token, body: { type: 'other', notes: 'rack 3\nshelf 2' } });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().notes).toBe('rack 3\nshelf 2');
  });
});
