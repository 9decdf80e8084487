import { request as httpRequest } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAddressResolver, type TrustProxy, trustFunction } from '../src/http/clientAddress.js';

// The resolver the realtime server gets must name the same client as Fastify's request.ip
// under the same TRUST_PROXY; both are asked here about real HTTP requests on loopback.

const settings: Record<string, TrustProxy> = {
  off: false,
  all: true,
  loopback: ['loopback'],
  chain: ['127.0.0.1', '10.0.0.0/8'],
  elsewhere: ['10.0.0.1'],
};

let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  // One plain server that asks the resolver of every setting about the same request.
  app = Fastify();
  app.get('/', async (request) =>
    Object.fromEntries(Object.entries(settings).map(([name, trust]) => [name, clientAddressResolver(trust)(request.raw)])),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app?.close());

function get(path: string, listenPort: number, forwardedFor?: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port: listenPort, path, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve(JSON.parse(body)));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('clientAddressResolver', () => {
  it('is the socket address without X-Forwarded-For', async () => {
    expect(await get('/', port)).toEqual({ off: '127.0.0.1', all: '127.0.0.1', loopback: '127.0.0.1', chain: '127.0.0.1', elsewhere: '127.0.0.1' });
  });

  it('believes X-Forwarded-For only from trusted proxies, up to the first untrusted hop', async () => {
    expect(await get('/', port, '198.51.100.7, 10.0.0.5')).toEqual({
      off: '127.0.0.1',
      all: '198.51.100.7',
      loopback: '10.0.0.5',
      chain: '198.51.100.7',
      elsewhere: '127.0.0.1',
    });
  });

  it("names the client Fastify's request.ip names with the same setting", async () => {
    for (const trust of Object.values(settings)) {
      const fastify = Fastify({ trustProxy: trust === false ? false : trustFunction(trust) });
      fastify.get('/', async (request) => ({ ip: request.ip, resolved: clientAddressResolver(trust)(request.raw) }));
      await fastify.listen({ host: '127.0.0.1', port: 0 });
      try {
        const answer = await get('/', (fastify.server.address() as { port: number }).port, '198.51.100.7, 10.0.0.5');
        expect(answer.resolved).toBe(answer.ip);
      } finally {
        await fastify.close();
      }
    }
  });
});
