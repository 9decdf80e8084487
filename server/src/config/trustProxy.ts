import proxyAddr from '@fastify/proxy-addr';

/**
 * Which peers may say, in X-Forwarded-For, whom they forward for (TRUST_PROXY): nobody
 * (false, the default: the client address is the socket's), every peer (true), or the
 * proxies at these addresses and CIDR ranges (`loopback`, `linklocal` and `uniquelocal` name
 * the usual ranges).
 */
export type TrustProxy = boolean | string[];

/**
 * TRUST_PROXY as written in the environment, or a message saying why it is not valid.
 * Hop counts are refused: Fastify 5 ignores them (a hop count cannot tell the proxy from a
 * client that connects directly and sends its own X-Forwarded-For), so a count would look
 * configured and do nothing. Addresses are checked with proxy-addr, which Fastify uses.
 */
export function parseTrustProxy(text: string | undefined): { value: TrustProxy } | { problem: string } {
  const value = text?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false' || value === 'off') return { value: false };
  if (value === 'true' || value === 'on') return { value: true };
  if (/^\d+$/.test(value)) {
    return { problem: 'TRUST_PROXY takes the addresses or CIDR ranges of the proxies, not a hop count' };
  }
  const addresses = text!.split(',').map((address) => address.trim()).filter((address) => address !== '');
  for (const address of addresses) {
    try {
      proxyAddr.compile([address]);
    } catch {
      return { problem: `TRUST_PROXY must be true, false, or a comma-separated list of IP addresses or CIDR ranges ("${address}" is neither)` };
    }
  }
  return { value: addresses };
}
