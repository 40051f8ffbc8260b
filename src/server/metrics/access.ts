import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';

/**
 * Who may read `/metrics` (METRICS_ALLOW, METRICS_TOKEN): a caller whose address is in one of the allowed
 * networks, or one that presents the bearer token. Neither configured: nobody (the route does not exist).
 */
export interface MetricsAccess {
  /** CIDRs or single addresses, e.g. `10.0.0.0/8`, `127.0.0.1`, `fd00::/8`. */
  allow: string[];
  token: string | undefined;
}

/** `address[/prefix]` → the address, its family and prefix; null when it is not an IP network. */
export function parseNetwork(
  entry: string,
): { address: string; family: 'ipv4' | 'ipv6'; prefix: number } | null {
  const [address = '', prefixText, ...rest] = entry.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max) return null;
  return { address, family: version === 4 ? 'ipv4' : 'ipv6', prefix };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** A check for one request: its client address (request.ip) and Authorization header. */
export function metricsGate(
  access: MetricsAccess,
): (ip: string, authorization: string | undefined) => boolean {
  const networks = new BlockList();
  for (const entry of access.allow) {
    const network = parseNetwork(entry);
    if (!network) throw new Error(`not an IP network: ${entry}`);
    networks.addSubnet(network.address, network.prefix, network.family);
  }
  const expected = access.token ? digest(access.token) : null;
  return (ip, authorization) => {
    // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
    const address = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
    const family = isIP(address);
    if (family !== 0 && networks.check(address, family === 4 ? 'ipv4' : 'ipv6')) return true;
    const presented = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    return expected !== null && presented !== undefined && timingSafeEqual(digest(presented), expected);
  };
}
