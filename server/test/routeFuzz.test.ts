import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NO_CLUSTER } from '../src/cluster/http.js';
import { authenticateToken } from '../src/tokens/tokens.js';
import { createTestContext, type SignedInUser, type TestContext } from './helpers.js';

// The route-table fuzz guard (docs/security.md). Every route Fastify registers (seen
// through buildApp's `onRoute`, so a new route is fuzzed without anyone listing it) gets the
// bad-input corpus below, as an anonymous caller, an onboarded user and a platform admin (and
// the /agent routes as a node agent too): bad path parameters, bad query strings, bad bodies
// (wrong types per field of the route's own schema, missing fields, 1 MB strings, 10,000-level
// JSON, malformed JSON, other content types, control characters, NUL, prototype keys) and
// forged bearer tokens. No answer may be a 5xx, and every 4xx answer is JSON with a string
// `message`. Every failure is collected and reported at once.
//
// Precise exceptions:
// - 503 {"message": NO_CLUSTER}: the app here runs without a cluster (noneGateway), so routes
//   that need one answer that, as docs/api-contract.md ("Cluster", "Nodes") says.
// - GET/HEAD /agent/install/:secret answers an unknown secret with a plain-text 404 (it is
//   piped into `sh`; docs/nodes-contract.md).
// - HEAD answers have no body: only their status and content type are checked.

const MB = 1_000_000;
const DEPTH = 10_000;
const BIG = 'a'.repeat(MB);
const deepObject = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
const deepArray = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
/** Stands for a deep value in a body, replaced in its JSON text. */
const DEEP_MARK = '\u0000deep\u0000';
/** A plausible string: long enough for passwords, identical for password and its confirmation. */
const PLAUSIBLE = 'correct horse battery staple';

// ---------------------------------------------------------------------------------------
// The corpus

/** Path parameter values, already as they appear in a URL. */
const BAD_PARAMS: [string, string][] = [
  ['huge', '99999999999999999999999'],
  ['int4+1', '2147483648'],
  ['2^53+1', '9007199254740993'],
  ['negative', '-1'],
  ['zero', '0'],
  ['float', '1.5'],
  ['NaN', 'NaN'],
  ['traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['dotdot', '..'],
  ['NUL', '%00'],
  ['control', '%01%1B%7F%0A%0D'],
  ['malformed %', '%E0%A4%A'],
  ['emoji', '%F0%9F%92%A9'],
  ['space', '%201'],
  ['quote', "1'%20OR%20'1'%3D'1"],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['1 KiB', 'a'.repeat(1024)],
  ['1 MB', BIG],
];

/** Wildcard (static files) values: attempts to leave the console's directory. */
const BAD_WILDCARDS: [string, string][] = [
  ['traversal', '../../../../etc/passwd'],
  ['encoded traversal', '..%2F..%2F..%2F..%2Fetc%2Fpasswd'],
  ['dot-encoded traversal', '%2e%2e/%2e%2e/%2e%2e/etc/passwd'],
  ['double-encoded traversal', '%252e%252e%252f%252e%252e%252fetc%252fpasswd'],
  ['asset traversal', 'assets/..%2F..%2F..%2F..%2Fetc%2Fpasswd'],
  ['backslash traversal', '..%5C..%5C..%5Cetc%5Cpasswd'],
  ['NUL', 'index.html%00.js'],
  ['control', 'assets/%01%1B.js'],
  ['malformed %', 'assets/%E0%A4%A.js'],
  ['1 KiB asset', `${'a'.repeat(1024)}.js`],
  ['1 MB', BIG],
];

/** Query values, already encoded. */
const BAD_QUERY_VALUES: [string, string][] = [
  ['negative', '-1'],
  ['zero', '0'],
  ['float', '1.5'],
  ['overflow', '1e309'],
  ['huge', '99999999999999999999'],
  ['word', 'abc'],
  ['empty', ''],
  ['NUL', '%00'],
  ['control', '%01%1B%7F'],
  ['malformed %', '%E0%A4%A'],
  ['__proto__', '__proto__'],
  ['1 MB', BIG],
];

/** Query keys every route is tried with, declared or not. */
const GENERIC_QUERY_KEYS = ['page', 'per_page', 'sort', 'order', 'q', 'filter[team_id]', 'limit', 'status', 'owner', 'namespace'];

/** Bad values for one body field. */
const BAD_FIELD_VALUES: [string, unknown][] = [
  ['null', null],
  ['number', 123],
  ['negative', -1],
  ['float', 1.5],
  ['huge number', 1e308],
  ['2^53+1', 2 ** 53 + 1],
  ['boolean', true],
  ['array', []],
  ['object', {}],
  ['prototype object', JSON.parse('{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}')],
  ['empty', ''],
  ['blank', '   '],
  ['1 MB string', BIG],
  ['NUL', '\u0000'],
  ['inner NUL', 'a\u0000b'],
  ['control', '\u0001\u0002\u001b[31m\u007f\u0085'],
  ['bidi', '\u202egnp.exe'],
  ['lone surrogate', '\ud800'],
  ['traversal', '../../etc/passwd'],
  ['html', '<script>alert(1)</script>'],
  ['sql', "' OR 1=1 --"],
  ['digits', '99999999999999999999'],
];

interface RawBody {
  label: string;
  contentType?: string;
  payload?: string | Buffer;
}

const multipart = [
  '--fuzz',
  'Content-Disposition: form-data; name="name"',
  '',
  'value',
  '--fuzz',
  'Content-Disposition: form-data; name="file"; filename="a.txt"',
  'Content-Type: text/plain',
  '',
  'hello',
  '--fuzz--',
  '',
].join('\r\n');

/** Whole bodies, independent of the route's schema. */
const RAW_BODIES: RawBody[] = [
  { label: 'no body' },
  { label: 'empty JSON', contentType: 'application/json', payload: '' },
  { label: 'malformed JSON', contentType: 'application/json', payload: '{"a":' },
  { label: 'trailing comma', contentType: 'application/json', payload: '{"a":1,}' },
  { label: 'single quotes', contentType: 'application/json', payload: "{'a':1}" },
  { label: 'raw NUL', contentType: 'application/json', payload: '\u0000' },
  { label: 'invalid UTF-8', contentType: 'application/json', payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
  { label: 'BOM', contentType: 'application/json', payload: '\ufeff{}' },
  { label: 'JSON null', contentType: 'application/json', payload: 'null' },
  { label: 'JSON array', contentType: 'application/json', payload: '[]' },
  { label: 'JSON array of object', contentType: 'application/json', payload: '[{}]' },
  { label: 'JSON string', contentType: 'application/json', payload: '"string"' },
  { label: 'JSON number', contentType: 'application/json', payload: '42' },
  { label: 'JSON true', contentType: 'application/json', payload: 'true' },
  { label: 'JSON {}', contentType: 'application/json', payload: '{}' },
  { label: `deep object (${DEPTH} levels)`, contentType: 'application/json', payload: deepObject },
  { label: `deep array (${DEPTH} levels)`, contentType: 'application/json', payload: deepArray },
  { label: '1 MB JSON string', contentType: 'application/json', payload: JSON.stringify(BIG) },
  { label: 'over 1 MiB', contentType: 'application/json', payload: JSON.stringify({ a: 'a'.repeat(1024 * 1024) }) },
  {
    label: 'prototype keys',
    contentType: 'application/json',
    payload: '{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}},"prototype":{"admin":true}}',
  },
  { label: 'duplicate keys', contentType: 'application/json', payload: '{"a":1,"a":2}' },
  { label: 'JSON with charset', contentType: 'application/json; charset=utf-16', payload: '{}' },
  { label: 'JSON type in capitals', contentType: 'APPLICATION/JSON', payload: '{}' },
  { label: 'vendor JSON type', contentType: 'application/vnd.api+json', payload: '{}' },
  { label: 'text/plain', contentType: 'text/plain', payload: 'hello' },
  { label: 'form', contentType: 'application/x-www-form-urlencoded', payload: 'a=1&b=2&socket_id=1.1&channel_name=x' },
  { label: 'form with prototype keys', contentType: 'application/x-www-form-urlencoded', payload: '__proto__[admin]=1&constructor[prototype][admin]=1&__proto__=1' },
  { label: 'form over 4 KiB', contentType: 'application/x-www-form-urlencoded', payload: `a=${'b'.repeat(5000)}` },
  { label: 'malformed form', contentType: 'application/x-www-form-urlencoded', payload: '%E0%A4%A=%' },
  { label: 'multipart', contentType: 'multipart/form-data; boundary=fuzz', payload: multipart },
  { label: 'xml', contentType: 'application/xml', payload: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>' },
  { label: 'octet-stream', contentType: 'application/octet-stream', payload: Buffer.from([0, 1, 2, 255]) },
  { label: 'garbage content type', contentType: ';;;', payload: '{}' },
];

// ---------------------------------------------------------------------------------------
// Routes and their schemas

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

interface FuzzRoute {
  method: string;
  url: string;
  params: string[];
  wildcard: boolean;
  body?: JsonSchema;
  querystring?: JsonSchema;
}

/** The JSON Schema (input side) of a zod schema, or undefined when there is none. */
function jsonSchemaOf(schema: unknown): JsonSchema | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  if (schema instanceof z.ZodType) {
    try {
      return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    } catch {
      return {};
    }
  }
  return schema as JsonSchema;
}

function fuzzRoutes(routes: RouteOptions[]): FuzzRoute[] {
  return routes.flatMap((route) =>
    [route.method].flat().map((method) => ({
      method,
      url: route.url,
      params: [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]),
      wildcard: route.url.endsWith('*'),
      body: jsonSchemaOf(route.schema?.body),
      querystring: jsonSchemaOf(route.schema?.querystring),
    })),
  );
}

/** Strings tried, in order, for a string field with a pattern. */
const PATTERN_SAMPLES = ['fuzz', 'fuzz@example.org', 'fuzz-1', '1.1', '1', 'ABCDEF', '10.0.0.1', 'all'];

/** A value the schema accepts, as far as JSON Schema tells: the fuzz changes one field at a time. */
function plausible(schema: JsonSchema, key: string): unknown {
  const branch = schema.anyOf?.find((option) => option.type !== 'null') ?? schema.oneOf?.[0];
  if (branch) return plausible(branch, key);
  if (schema.enum?.length) return schema.enum[0];
  const type = [schema.type].flat()[0];
  if (type === 'object') {
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, plausible(property, name)]));
  }
  if (type === 'integer' || type === 'number') return Math.max(1, schema.minimum ?? 1);
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (/url/i.test(key)) return 'https://example.org';
  if (/email/i.test(key)) return `fuzz.${Date.now()}@example.org`;
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    return PATTERN_SAMPLES.find((sample) => pattern.test(sample)) ?? PLAUSIBLE;
  }
  return PLAUSIBLE;
}

/** Every field path of an object schema (nested objects included), as key lists. */
function fieldPaths(schema: JsonSchema | undefined, prefix: string[] = []): string[][] {
  const properties = schema?.properties ?? schema?.anyOf?.find((option) => option.properties)?.properties;
  if (!properties) return [];
  return Object.entries(properties).flatMap(([name, property]) => [[...prefix, name], ...fieldPaths(property, [...prefix, name])]);
}

/** A copy of `body` with the field at `path` set to `value`, or removed with `remove`. */
function withField(body: Record<string, unknown>, path: string[], value: unknown, remove = false): Record<string, unknown> {
  const copy = structuredClone(body);
  let target: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof target[key] !== 'object' || target[key] === null || Array.isArray(target[key])) target[key] = {};
    target = target[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (remove) delete target[last];
  else Object.defineProperty(target, last, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

// ---------------------------------------------------------------------------------------
// Requests

interface FuzzCase {
  label: string;
  url: string;
  contentType?: string;
  payload?: string | Buffer;
}

/** The route's path with its parameters filled in: `1` unless given. */
function pathOf(route: FuzzRoute, values: Record<string, string> = {}): string {
  let path = route.url;
  for (const param of route.params) path = path.replace(`:${param}`, values[param] ?? '1');
  if (route.wildcard) path = path.replace(/\*$/, values['*'] ?? 'index.html');
  return path;
}

const hasBody = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method);

function casesFor(route: FuzzRoute): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const baseline = route.body ? (plausible({ type: 'object', ...route.body }, '') as Record<string, unknown>) : undefined;
  const json = (value: unknown) => ({ contentType: 'application/json', payload: JSON.stringify(value) });
  const baselineBody = hasBody(route.method) && baseline ? json(baseline) : {};
  // First the route as a client would call it (the forged tokens are tried on this one).
  cases.push({ label: 'plain', url: pathOf(route), ...baselineBody });

  // Path parameters, one at a time.
  for (const param of route.params) {
    for (const [label, value] of BAD_PARAMS) cases.push({ label: `:${param} ${label}`, url: pathOf(route, { [param]: value }), ...baselineBody });
  }
  if (route.wildcard) {
    for (const [label, value] of BAD_WILDCARDS) cases.push({ label: `* ${label}`, url: pathOf(route, { '*': value }) });
  }

  // HEAD runs the GET handler, which gets the whole corpus: here only the path is fuzzed.
  if (route.method === 'HEAD') return cases;

  // Query strings: each declared key with each bad value; generic keys all at once; pollution.
  const path = pathOf(route);
  const declared = Object.keys(route.querystring?.properties ?? {});
  for (const key of declared) {
    for (const [label, value] of BAD_QUERY_VALUES) cases.push({ label: `?${key} ${label}`, url: `${path}?${encodeURIComponent(key)}=${value}`, ...baselineBody });
    cases.push({ label: `?${key} repeated`, url: `${path}?${encodeURIComponent(key)}=1&${encodeURIComponent(key)}=2`, ...baselineBody });
    cases.push({ label: `?${key}[]`, url: `${path}?${encodeURIComponent(`${key}[]`)}=1&${encodeURIComponent(`${key}[a]`)}=1`, ...baselineBody });
  }
  for (const [label, value] of [
    ['generic keys, negative', '-1'],
    ['generic keys, float', '1.5'],
    ['generic keys, NUL', '%00'],
    ['generic keys, 1 KiB', 'a'.repeat(1024)],
  ]) {
    cases.push({ label: `?${label}`, url: `${path}?${GENERIC_QUERY_KEYS.map((key) => `${encodeURIComponent(key)}=${value}`).join('&')}`, ...baselineBody });
  }
  cases.push({ label: '?prototype keys', url: `${path}?__proto__=1&constructor[prototype][admin]=1&__proto__[admin]=1&filter[__proto__]=1`, ...baselineBody });
  cases.push({ label: '?malformed query', url: `${path}?%E0%A4%A=%&&=&a==b`, ...baselineBody });

  if (!hasBody(route.method)) return cases;

  // Whole bodies.
  for (const raw of RAW_BODIES) cases.push({ label: `body: ${raw.label}`, url: path, contentType: raw.contentType, payload: raw.payload });

  // One field at a time, the others plausible.
  if (baseline) {
    for (const field of fieldPaths(route.body)) {
      const name = field.join('.');
      cases.push({ label: `body: ${name} missing`, url: path, ...json(withField(baseline, field, undefined, true)) });
      for (const [label, value] of BAD_FIELD_VALUES) cases.push({ label: `body: ${name} ${label}`, url: path, ...json(withField(baseline, field, value)) });
      const marked = JSON.stringify(withField(baseline, field, DEEP_MARK));
      cases.push({ label: `body: ${name} deep`, url: path, contentType: 'application/json', payload: marked.replace(JSON.stringify(DEEP_MARK), deepObject) });
    }
  }
  return cases;
}

interface Caller {
  name: string;
  authorization(): string | undefined;
}

interface Failure {
  caller: string;
  method: string;
  url: string;
  label: string;
  status: number;
  body: string;
  problem: string;
}

const shortUrl = (url: string) => (url.length > 100 ? `${url.slice(0, 60)}…(${url.length} chars)` : url);

/** What is wrong with an answer, or null. */
function problemWith(route: FuzzRoute, response: LightMyRequestResponse): string | null {
  const { statusCode: status } = response;
  const contentType = String(response.headers['content-type'] ?? '');
  if (/root:x?:0:0:/.test(response.body)) return 'served a file outside the console';
  if (status >= 500) {
    if (status === 503 && contentType.startsWith('application/json') && (route.method === 'HEAD' || messageOf(response) === NO_CLUSTER)) return null;
    return 'server error';
  }
  if (status < 400) return null;
  if (route.url === '/agent/install/:secret' && status === 404 && contentType.startsWith('text/plain')) return null;
  if (!contentType.startsWith('application/json')) return `4xx answer is not JSON (${contentType || 'no content type'})`;
  if (route.method === 'HEAD') return null;
  const message = messageOf(response);
  if (message === undefined) return '4xx answer is not valid JSON';
  return typeof message === 'string' && message.length > 0 ? null : '4xx answer has no string message';
}

/** The `message` of a JSON answer (null when it has none), or undefined when the body is not JSON. */
function messageOf(response: LightMyRequestResponse): unknown {
  try {
    return (JSON.parse(response.body) as { message?: unknown } | null)?.message ?? null;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------

const routes: RouteOptions[] = [];
let ctx: TestContext;
let user: SignedInUser;
let admin: SignedInUser;
let nodeSecret: string;

beforeAll(async () => {
  ctx = await createTestContext({ onRoute: (route) => routes.push(route) });
  [user, admin] = await Promise.all([ctx.signedInUser(), ctx.signedInUser({ admin: true })]);
  const registered = await ctx.inject('POST', '/agent/register', { body: { facts: { hostname: 'fuzz-machine' } } });
  expect(registered.statusCode).toBe(201);
  nodeSecret = registered.json().secret;
});

afterAll(async () => {
  await ctx?.close();
});

describe('the route-table fuzz', () => {
  it('finds the route table through Fastify', () => {
    const table = fuzzRoutes(routes);
    const names = new Set(table.map((route) => `${route.method} ${route.url}`));
    expect(table.length).toBeGreaterThan(60);
    for (const known of ['POST /register', 'POST /login', 'DELETE /api/tokens/:name', 'GET /api/admin/users', 'PATCH /api/requests/:id', 'POST /agent/report', 'GET /api/docs', 'GET /*']) {
      expect(names, known).toContain(known);
    }
  });

  it('answers bad input to every route with a 4xx JSON message, never a 5xx', async () => {
    const table = fuzzRoutes(routes);
    const callers: Caller[] = [
      { name: 'anonymous', authorization: () => undefined },
      { name: 'user', authorization: () => `Bearer ${user.token}` },
      { name: 'admin', authorization: () => `Bearer ${admin.token}` },
    ];
    const nodeAgent: Caller = { name: 'node agent', authorization: () => `Bearer ${nodeSecret}` };
    const forged: Caller[] = [
      ['huge id', 'Bearer 999999999999999|abc'],
      ['int4+1 id', 'Bearer 2147483648|abc'],
      ['zero id', 'Bearer 0|abc'],
      ['no secret', 'Bearer 1|'],
      ['1 KiB', `Bearer ${'a'.repeat(1024)}`],
      ['1 MB', `Bearer 1|${BIG}`],
      ['node-looking', 'Bearer tbn_../../etc/passwd'],
      ['basic', 'Basic YWRtaW46YWRtaW4='],
    ].map(([name, header]) => ({ name: `forged token (${name})`, authorization: () => header }));

    const failures: Failure[] = [];
    // The slowest answers are printed (not asserted: CI machines vary), so a slow path shows.
    const slowest: [number, string][] = [];
    const noteDuration = (ms: number, what: string) => {
      slowest.push([ms, what]);
      slowest.sort((a, b) => b[0] - a[0]);
      slowest.length = Math.min(slowest.length, 5);
    };
    const revocations: string[] = [];
    let requests = 0;
    // Answers by status, printed: 2xx and 422 show the corpus reaching handlers and validation.
    const statuses = new Map<number, number>();
    const started = Date.now();

    const send = async (route: FuzzRoute, caller: Caller, fuzz: FuzzCase) => {
      requests += 1;
      const sent = performance.now();
      const authorization = caller.authorization();
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: fuzz.url,
        headers: {
          accept: 'application/json',
          ...(authorization ? { authorization } : {}),
          ...(fuzz.contentType ? { 'content-type': fuzz.contentType } : {}),
        },
        payload: fuzz.payload,
      });
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      noteDuration(performance.now() - sent, `${caller.name} ${route.method} ${shortUrl(fuzz.url)} [${fuzz.label}]`);
      const problem = problemWith(route, response);
      if (problem) {
        failures.push({
          caller: caller.name,
          method: route.method,
          url: shortUrl(fuzz.url),
          label: fuzz.label,
          status: response.statusCode,
          body: response.body.slice(0, 200),
          problem,
        });
      }
    };

    /** A fuzzed logout (or anything else) may revoke a caller's token: log in again. */
    const keepSignedIn = async (route: FuzzRoute) => {
      for (const who of [user, admin]) {
        if (await authenticateToken(ctx.db, who.token)) continue;
        revocations.push(`${route.method} ${route.url}`);
        who.token = await ctx.login(who.user.email, who.password);
      }
    };

    for (const route of table) {
      const cases = casesFor(route);
      const routeCallers = route.url.startsWith('/agent/') ? [...callers, nodeAgent] : callers;
      for (const caller of routeCallers) {
        // A few at a time: password hashing overlaps with the rest.
        for (let index = 0; index < cases.length; index += 4) {
          await Promise.all(cases.slice(index, index + 4).map((fuzz) => send(route, caller, fuzz)));
        }
        await keepSignedIn(route);
      }
      for (const caller of forged) await send(route, caller, cases[0]);
    }

    console.info(
      `route fuzz: ${table.length} routes, ${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s` +
        ` (${[...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ')})` +
        (revocations.length ? `; signed in again after ${[...new Set(revocations)].join(', ')}` : '') +
        `; slowest: ${slowest.map(([ms, what]) => `${Math.round(ms)} ms ${what}`).join('; ')}`,
    );
    const lines = failures.map(
      (failure) => `${failure.caller} ${failure.method} ${failure.url} [${failure.label}] → ${failure.status} ${failure.problem}: ${failure.body}`,
    );
    const report = lines.length > 300 ? [...lines.slice(0, 300), `… and ${lines.length - 300} more`].join('\n') : lines.join('\n');
    expect(failures.length, `${failures.length} bad answers:\n${report}`).toBe(0);
  }, 600_000);
});
