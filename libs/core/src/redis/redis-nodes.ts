/** One node of `REDIS_CLUSTER_NODES`: a host name, an IPv4 address or an IPv6 address (without brackets), and a port. */
export interface RedisNode {
  host: string;
  port: number;
}

/** A host name (RFC 1123 labels) or a dotted IPv4 address. */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** An IPv6 address in brackets, as in a URL (`[::1]:7000`). */
const BRACKETED_IPV6 = /^\[([0-9A-Fa-f:.]{2,45})\]$/;

/**
 * Reads `REDIS_CLUSTER_NODES`: comma-separated `host:port` (spaces around items allowed), IPv6 in
 * brackets (`[::1]:7000`). These are only the nodes asked first for the cluster's layout; every other
 * node is found from them.
 * @returns the nodes in the order given, or a message naming what is wrong (the item and the rule).
 */
export function parseRedisClusterNodes(value: string): { nodes: RedisNode[] } | { error: string } {
  const items = value.split(',').map((item) => item.trim());
  if (items.length === 1 && items[0] === '') return { error: 'must list at least one host:port' };
  const nodes: RedisNode[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (item === '') return { error: 'has an empty item (two commas, or a comma at either end)' };
    const colon = item.lastIndexOf(':');
    if (colon <= 0) return { error: `item "${item}" must be host:port` };
    const rawHost = item.slice(0, colon);
    const rawPort = item.slice(colon + 1);
    const v6 = BRACKETED_IPV6.exec(rawHost);
    const host = v6 ? v6[1] : rawHost;
    if (!v6 && !HOST_NAME.test(host))
      return { error: `item "${item}": "${rawHost}" is not a host name or address (IPv6 goes in brackets)` };
    if (!/^\d{1,5}$/.test(rawPort) || Number(rawPort) < 1 || Number(rawPort) > 65535)
      return { error: `item "${item}": the port must be a whole number from 1 to 65535` };
    const key = `${host.toLowerCase()}:${Number(rawPort)}`;
    if (seen.has(key)) return { error: `item "${item}" is listed twice` };
    seen.add(key);
    nodes.push({ host, port: Number(rawPort) });
  }
  return { nodes };
}
