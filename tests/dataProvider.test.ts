import { http as mswHttp, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createDataProvider, listOnClient, paginatorQuery } from '../src/dataProvider';
import { createHttpClient, tokenStore } from '../src/httpClient';
import { db, requestsTo } from './mocks/db';
import { makeToken, SESSION_TOKEN } from './mocks/fixtures';
import { server } from './mocks/server';

const things = [
  { id: 1, name: 'charlie', team: { name: 'b' } },
  { id: 2, name: 'alpha', team: { name: 'a' } },
  { id: 3, name: 'bravo', team: { name: 'a' } },
];

const provider = (map?: Parameters<typeof createDataProvider>[1]) => createDataProvider(createHttpClient(), map);

describe('dataProvider', () => {
  it('getList sorts, filters and paginates a plain array on the client', async () => {
    server.use(mswHttp.get('/api/things', () => HttpResponse.json(things)));
    const dataProvider = provider({ things: { path: '/api/things' } });
    const page1 = await dataProvider.getList('things', {
      pagination: { page: 1, perPage: 2 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(page1.data.map((thing) => thing.name)).toEqual(['alpha', 'bravo']);
    expect(page1.total).toBe(3);

    const filtered = await dataProvider.getList('things', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'name', order: 'DESC' },
      filter: { 'team.name': 'a' },
    });
    expect(filtered.data.map((thing) => thing.id)).toEqual([3, 2]);
    expect(filtered.total).toBe(2);

    const searched = await dataProvider.getList('things', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'ASC' },
      filter: { q: 'CHAR' },
    });
    expect(searched.data.map((thing) => thing.id)).toEqual([1]);
  });

  it('getList sends the paginator query and reads {data, meta.total}', async () => {
    let query: URLSearchParams | undefined;
    server.use(
      mswHttp.get('/api/admin/users', ({ request }) => {
        query = new URL(request.url).searchParams;
        return HttpResponse.json({
          data: [{ id: 11, name: 'x' }],
          meta: { current_page: 2, per_page: 25, total: 10000, last_page: 400 },
        });
      }),
    );
    const dataProvider = provider({ users: { path: '/api/admin/users', pagination: 'server' } });
    const result = await dataProvider.getList('users', {
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'name', order: 'DESC' },
      filter: { q: 'ada', admin: true },
    });
    expect(result).toEqual({ data: [{ id: 11, name: 'x' }], total: 10000 });
    expect(query?.get('page')).toBe('2');
    expect(query?.get('per_page')).toBe('25');
    expect(query?.get('sort')).toBe('name');
    expect(query?.get('order')).toBe('desc');
    expect(query?.get('q')).toBe('ada');
    expect(query?.get('filter[admin]')).toBe('true');
  });

  it('a page larger than the server allows (the CSV export) is gathered from server pages of 100', async () => {
    const everyone = Array.from({ length: 250 }, (_, index) => ({ id: index + 1, name: `user ${index + 1}` }));
    const asked: string[] = [];
    server.use(
      mswHttp.get('/api/admin/users', ({ request }) => {
        const query = new URL(request.url).searchParams;
        const page = Number(query.get('page'));
        const perPage = Number(query.get('per_page'));
        asked.push(`${page}x${perPage}/${query.get('sort')}`);
        return HttpResponse.json({
          data: everyone.slice((page - 1) * perPage, page * perPage),
          meta: { current_page: page, per_page: perPage, total: everyone.length, last_page: Math.ceil(everyone.length / perPage) },
        });
      }),
    );
    const dataProvider = provider({ users: { path: '/api/admin/users', pagination: 'server' } });
    const result = await dataProvider.getList('users', { pagination: { page: 1, perPage: 1000 }, sort: { field: 'name', order: 'ASC' } });
    expect(result.total).toBe(250);
    expect(result.data.map((user) => user.id)).toEqual(everyone.map((user) => user.id));
    expect(asked).toEqual(['1x100/name', '2x100/name', '3x100/name']);
  });

  it('paginatorQuery and listOnClient are usable alone', () => {
    expect(paginatorQuery({ pagination: { page: 1, perPage: 5 }, filter: { q: '' } })).toEqual({ page: 1, per_page: 5 });
    expect(listOnClient(things, { pagination: { page: 2, perPage: 2 }, sort: { field: 'id', order: 'ASC' } })).toEqual({
      data: [things[2]],
      total: 3,
    });
  });

  it('getOne, update and delete use the record path', async () => {
    const seen: string[] = [];
    server.use(
      mswHttp.get('/api/things/2', () => HttpResponse.json({ data: things[1] })),
      mswHttp.patch('/api/things/2', async ({ request }) => {
        seen.push(`PATCH ${JSON.stringify(await request.json())}`);
        return HttpResponse.json({ ...things[1], name: 'renamed' });
      }),
      mswHttp.delete('/api/things/2', () => {
        seen.push('DELETE');
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const dataProvider = provider({ things: { path: '/api/things' } });
    expect((await dataProvider.getOne('things', { id: 2 })).data).toEqual(things[1]);
    const updated = await dataProvider.update('things', { id: 2, data: { name: 'renamed' }, previousData: things[1] });
    expect(updated.data.name).toBe('renamed');
    const deleted = await dataProvider.delete('things', { id: 2, previousData: things[1] });
    expect(deleted.data).toEqual(things[1]);
    expect(seen).toEqual(['PATCH {"name":"renamed"}', 'DELETE']);
  });

  it('tokens: lists GET /api/tokens with the bearer token', async () => {
    tokenStore.set(SESSION_TOKEN);
    db.tokens = [makeToken({ id: 1, name: 'b' }), makeToken({ id: 2, name: 'a' })];
    const result = await provider().getList('tokens', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(result.data.map((token) => token.name)).toEqual(['a', 'b']);
    expect(requestsTo('GET', '/api/tokens')[0]!.headers.get('Authorization')).toBe(`Bearer ${SESSION_TOKEN}`);
  });

  it('tokens: create maps {token: {accessToken, plainTextToken}} to one record', async () => {
    tokenStore.set(SESSION_TOKEN);
    const { data } = await provider().create('tokens', { data: { name: 'ci', expires_in_days: 30 } });
    expect(data).toMatchObject({ id: 100, name: 'ci', abilities: ['*'], plainTextToken: '100|plain-secret-100' });
    expect(requestsTo('POST', '/api/tokens')[0]!.body).toEqual({ name: 'ci', expires_in_days: 30 });
  });

  it('tokens: a duplicate name is a 422 on the name field', async () => {
    tokenStore.set(SESSION_TOKEN);
    db.tokens = [makeToken({ name: 'ci' })];
    const failure = await provider()
      .create('tokens', { data: { name: 'ci' } })
      .catch((error) => error);
    expect(failure.status).toBe(422);
    expect(failure.body.errors).toEqual({ name: 'You already have a token with this name.' });
  });

  it('tokens: delete goes to /api/tokens/{name}, not the numeric id', async () => {
    tokenStore.set(SESSION_TOKEN);
    const token = makeToken({ id: 7, name: 'my laptop' });
    db.tokens = [token];
    await provider().delete('tokens', { id: 7, previousData: token });
    expect(requestsTo('DELETE', /^\/api\/tokens\//).map((request) => request.url.pathname)).toEqual([
      '/api/tokens/my%20laptop',
    ]);
    expect(db.tokens).toEqual([]);
  });

  it('tokens: deleteMany looks the names up first', async () => {
    tokenStore.set(SESSION_TOKEN);
    db.tokens = [makeToken({ id: 1, name: 'one' }), makeToken({ id: 2, name: 'two' }), makeToken({ id: 3, name: 'three' })];
    await provider().deleteMany('tokens', { ids: [1, 3] });
    expect(db.tokens.map((token) => token.name)).toEqual(['two']);
  });

  it('an unknown resource is a clear error', async () => {
    await expect(provider().getList('nope', {})).rejects.toThrow(/Unknown resource "nope"/);
  });
});
