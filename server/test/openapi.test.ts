import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('GET /api/docs', () => {
  it('serves an OpenAPI document listing every route of the contract', async () => {
    const response = await ctx.inject('GET', '/api/docs');
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('Testbed Console API');

    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /register',
        'POST /login',
        'POST /logout',
        'GET /user',
        'PATCH /user',
        'POST /email/verification',
        'GET /api/email/verify/{id}/{hash}',
        'POST /password/link',
        'POST /password/reset/{id}/{signature}',
        'POST /aup/accept',
        'GET /api/tokens',
        'POST /api/tokens',
        'DELETE /api/tokens/{name}',
        'GET /api/settings',
        'GET /api/activity/mine',
        'GET /api/tenants',
        'GET /api/tenants/{team}',
        'GET /api/subnamespaces/{id}',
        'POST /api/requests/teams',
        'PATCH /api/requests/teams',
        'POST /api/requests/workspaces',
        'PATCH /api/requests/workspaces/',
        'GET /api/requests',
        'PATCH /api/requests/{id}',
        'GET /api/admin/teams',
        'GET /api/admin/workspaces',
        'GET /api/admin/users',
        'GET /api/admin/activity',
      ]),
    );
    // Neither the document itself nor the static console are API operations.
    expect(operations.some((operation) => operation.includes('/api/docs') || operation.includes('*'))).toBe(false);
  });

  it('describes request bodies from the zod schemas and marks bearer-token routes', async () => {
    const doc = (await ctx.inject('GET', '/api/docs')).json();
    const register = doc.paths['/register'].post;
    const schema = register.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['firstname', 'lastname', 'email', 'password']));
    expect(schema.properties.email.pattern).toBe('^\\S+@\\S+$');
    expect(schema.properties.password.minLength).toBe(8);

    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/user'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/register'].post.security).toBeUndefined();
  });
});

describe('GET /api/docs: end dates on the admin lists', () => {
  it('documents the end filters, the sort and the bulk extension with its answer', async () => {
    const doc = (await ctx.inject('GET', '/api/docs')).json();
    const parameters = (doc.paths['/api/admin/workspaces'].get.parameters as { name: string }[]).map((parameter) => parameter.name);
    expect(parameters).toEqual(expect.arrayContaining(['filter[expiring_within_days]', 'filter[expired]', 'sort']));
    expect((doc.paths['/api/admin/teams'].get.parameters as { name: string }[]).map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['filter[expiring_within_days]', 'filter[expired]']),
    );
    for (const path of ['/api/admin/teams/bulk', '/api/admin/workspaces/bulk']) {
      const body = doc.paths[path].post.requestBody.content['application/json'].schema;
      expect(body.properties.action.enum, path).toContain('extend');
      expect(body.properties.days, path).toMatchObject({ type: 'integer', minimum: 1, maximum: 3650 });
      expect(JSON.stringify(doc.paths[path].post.responses['200']), path).toContain('resumed_workspaces');
    }
  });
});
