import { HttpError } from 'react-admin';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createDataProvider } from '../src/dataProvider';
import { type HttpClient, type HttpResponse, type RequestOptions, tokenStore } from '../src/httpClient';
import { HOME_NODES_PARAMS, PENDING_COUNT_PARAMS, prefetchHome } from '../src/pages/home/homeLists';
import { createPrefetchingClient, PREFETCH_MAX_AGE_MS } from '../src/prefetch';

// The home's GETs started beside /user (main.tsx) are only worth it if the cards' own reads, made
// through the data provider, are answered by them: the same path and query, not a second request.

const answers: Record<string, unknown> = {
  '/api/nodes': [
    { id: 1, name: 'old', status: 'ok' },
    { id: 2, name: 'new', status: 'ok' },
  ],
  '/api/requests': { data: [{ id: 7, status: 'Pending' }], meta: { total: 3 } },
  '/api/subnamespaces/near-limit': { data: [] },
};

const fakeHttp = () => {
  const calls: { path: string; options?: RequestOptions }[] = [];
  const http = vi.fn(async (path: string, options?: RequestOptions): Promise<HttpResponse> => {
    calls.push({ path, options });
    return { status: 200, headers: new Headers(), json: answers[path] };
  });
  return { http: http as unknown as HttpClient, calls };
};

describe('the home prefetch', () => {
  beforeEach(() => tokenStore.set('1|session'));

  it("answers the cards' reads through the data provider without asking again", async () => {
    const { http, calls } = fakeHttp();
    const client = createPrefetchingClient(http);
    prefetchHome(client.prefetch);
    expect(calls.map((call) => call.path)).toEqual(['/api/nodes', '/api/requests', '/api/subnamespaces/near-limit']);

    const dataProvider = createDataProvider(client.http);
    const nodes = await dataProvider.getList('nodes', { ...HOME_NODES_PARAMS, filter: {} });
    const pending = await dataProvider.getList('requests', { ...PENDING_COUNT_PARAMS });
    const nearLimit = await dataProvider.getWorkspacesNearLimit();

    expect(calls).toHaveLength(3);
    expect(nodes.data.map((node) => node.name)).toEqual(['new', 'old']);
    expect(pending.total).toBe(3);
    expect(nearLimit).toEqual([]);

    // Handed out once: a later visit to the home asks the server.
    await dataProvider.getList('nodes', { ...HOME_NODES_PARAMS, filter: {} });
    expect(calls).toHaveLength(4);
  });

  it('asks again when the answer is stale or was started for another token', async () => {
    let time = 0;
    const { http, calls } = fakeHttp();
    const client = createPrefetchingClient(http, () => time);
    client.prefetch('/api/nodes');
    client.prefetch('/api/subnamespaces/near-limit');

    time = PREFETCH_MAX_AGE_MS + 1;
    await client.http('/api/nodes');
    expect(calls).toHaveLength(3);

    time = 0;
    tokenStore.set('2|someone-else');
    await client.http('/api/subnamespaces/near-limit');
    expect(calls).toHaveLength(4);
  });

  it('asks again when the answer started ahead failed', async () => {
    const calls: string[] = [];
    const http = vi.fn(async (path: string) => {
      calls.push(path);
      // The answers started ahead refuse (a person still in the onboarding wizard); later ones succeed.
      if (calls.length <= 2) throw new HttpError('Your email address is not verified.', 403, {});
      return { status: 200, headers: new Headers(), json: answers[path] };
    }) as unknown as HttpClient;
    const client = createPrefetchingClient(http);
    client.prefetch('/api/nodes');
    client.prefetch('/api/subnamespaces/near-limit');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { json } = await client.http('/api/nodes');
    expect(json).toEqual(answers['/api/nodes']);
    expect(calls).toEqual(['/api/nodes', '/api/subnamespaces/near-limit', '/api/nodes']);
  });

  it('leaves other requests alone: another query, a method other than GET, a token of its own', async () => {
    const { http, calls } = fakeHttp();
    const client = createPrefetchingClient(http);
    client.prefetch('/api/requests', { status: 'Pending' });
    await client.http('/api/requests', { query: { status: 'Approved' } });
    await client.http('/api/requests', { method: 'POST', query: { status: 'Pending' } });
    await client.http('/api/requests', { token: '3|invitation', query: { status: 'Pending' } });
    expect(calls).toHaveLength(4);
    await client.http('/api/requests', { query: { status: 'Pending' } });
    expect(calls).toHaveLength(4);
  });
});
