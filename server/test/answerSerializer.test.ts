import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerSerializerCompiler, compileAnswerSchema } from '../src/http/answerSerializer.js';
import { listSchema } from '../src/http/pagination.js';
import { createTestContext, type TestContext } from './helpers.js';

// Answers are written by serialisers compiled from the routes' zod schemas
// (http/answerSerializer.ts); with CHECK_ANSWERS=on, as in every test, zod checks each answer too.

const member = z.object({ id: z.number(), name: z.string(), ends_at: z.string().nullable(), team: z.object({ id: z.number() }).nullable() });

describe('the compiled serialiser of an answer schema', () => {
  const write = compileAnswerSchema(member)!;

  it('writes only what the schema names, in its order, "or null" included', () => {
    const row = { token_hash: 'secret', team: null, ends_at: null, name: 'Ada "the first"', id: 7, password: 'x' };
    expect(write(row)).toBe('{"id":7,"name":"Ada \\"the first\\"","ends_at":null,"team":null}');
    expect(write({ ...row, ends_at: '2026-12-01', team: { id: 3, secret: 1 } })).toBe(
      '{"id":7,"name":"Ada \\"the first\\"","ends_at":"2026-12-01","team":{"id":3}}',
    );
  });

  it('writes a list as an array or as a page, whichever it is given', () => {
    const list = compileAnswerSchema(listSchema(member))!;
    const ada = { id: 1, name: 'Ada', ends_at: null, team: null };
    expect(JSON.parse(list([ada]))).toEqual([ada]);
    const page = { data: [ada], meta: { current_page: 1, per_page: 25, total: 1, last_page: 1 } };
    expect(JSON.parse(list(page))).toEqual(page);
  });

  it('leaves to zod what JSON Schema cannot say', () => {
    expect(compileAnswerSchema(z.string().transform((value) => value.length))).toBeNull();
    expect(compileAnswerSchema(undefined)).toBeNull();
  });
});

describe('an answer that breaks its schema', () => {
  async function appAnswering(checked: boolean, answer: unknown) {
    const app = Fastify();
    app.setSerializerCompiler(answerSerializerCompiler({ checked }));
    app.get('/thing', { schema: { response: { 200: member } } }, async () => answer);
    await app.ready();
    return app;
  }
  const wrong = { id: '7', name: 'Ada', ends_at: null, team: null };

  it('fails the request when answers are checked', async () => {
    const app = await appAnswering(true, wrong);
    const response = await app.inject({ method: 'GET', url: '/thing' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('Ada');
    await app.close();
  });

  it('is written as the schema says when they are not (a server in production)', async () => {
    const app = await appAnswering(false, wrong);
    const response = await app.inject({ method: 'GET', url: '/thing' });
    expect(response.json()).toEqual({ id: 7, name: 'Ada', ends_at: null, team: null });
    await app.close();
  });
});

describe("every route's answers", () => {
  const routes: RouteOptions[] = [];
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ onRoute: (route) => routes.push(route) });
  });
  afterAll(() => ctx.close());

  it('are compiled: no answer schema is left to zod alone', () => {
    const schemas = routes.flatMap((route) =>
      Object.entries((route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {}).map(
        ([status, schema]) => [`${String(route.method)} ${route.url} ${status}`, schema] as const,
      ),
    );
    expect(schemas.length).toBeGreaterThan(100);
    expect(schemas.filter(([, schema]) => compileAnswerSchema(schema) === null).map(([name]) => name)).toEqual([]);
  });
});
