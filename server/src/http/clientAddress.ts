import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../config/trustProxy.js';

export type { TrustProxy };

export type TrustFunction = (address: string, hop: number) => boolean;

/** The trust function for a TRUST_PROXY setting (Fastify's `trustProxy` accepts it as is). */
export function trustFunction(trustProxy: TrustProxy): TrustFunction {
  if (trustProxy === true) return () => true;
  if (trustProxy === false || trustProxy.length === 0) return () => false;
  return proxyAddr.compile(trustProxy);
}

/**
 * The client address of a raw request under TRUST_PROXY, as Fastify computes `request.ip`:
 * the socket's address, or, when that peer is a trusted proxy, the nearest address in
 * X-Forwarded-For that is not. For servers outside Fastify (the realtime WebSocket server's
 * per-address limit), so that they key on the same address as the HTTP limits.
 */
export function clientAddressResolver(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  const trust = trustFunction(trustProxy);
  return (request) => {
    const addresses = proxyAddr.all(request, trust);
    return addresses[addresses.length - 1] ?? request.socket.remoteAddress ?? 'unknown';
  };
}
