import { LookupAddress, LookupOptions, lookup as systemLookup } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import * as ipaddr from 'ipaddr.js';

/**
 * SSRF protection for webhook URLs (CONTRACTS.md, "SSRF"): a syntactic check when a URL is
 * configured, and an address check at connect time on every resolved address (and on IP-literal
 * hosts, which never reach a DNS lookup). Only global unicast addresses pass unless private
 * targets are allowed (`WEBHOOK_ALLOW_PRIVATE=true`). Address ranges: ipaddr.js `range()`.
 */

/** True when `address` (IPv4 or IPv6, IPv4-mapped included) is not a public unicast address. */
export function isForbiddenAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    // IPv4-compatible ::a.b.c.d (deprecated, ::/96): ipaddr.js calls it unicast; never a public target
    else if (v6.parts.slice(0, 6).every((p) => p === 0)) return true;
  }
  return parsed.range() !== 'unicast';
}

/** An IP-literal host of a WHATWG-parsed URL (`[::1]`, `127.0.0.1`), else null. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) ? bare : null;
}

/**
 * The syntactic check at configuration: an absolute https URL (http too when private targets are
 * allowed), no credentials, and — unless allowed — no IP literal outside public unicast, no
 * `localhost`. WHATWG parsing normalises decimal, octal and hex IPv4 forms first.
 * @returns null when acceptable, else the rule broken.
 */
export function configUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (raw.length > 2048) return 'must be at most 2048 characters';
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    return allowPrivate ? 'must be an http or https URL' : 'must be an https URL';
  if (url.username || url.password) return 'must not contain credentials';
  if (allowPrivate) return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, ''); // `localhost.` is localhost too (RFC 6761)
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point at localhost';
  const literal = literalAddress(host);
  if (literal && isForbiddenAddress(literal)) return 'must not point at a private, loopback, link-local or reserved address';
  return null;
}

/** Thrown (as the connect error) when a webhook host resolves to a forbidden address. */
export class BlockedAddressError extends Error {
  readonly code = 'EBLOCKED';
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `net` lookup function for the HTTP agent: resolves with the system resolver, or with `servers`
 * when given, and fails the connection when any resolved address is forbidden (a name resolving
 * to both public and private addresses is refused whole).
 */
export function safeLookup(allowPrivate: boolean, servers?: string[]) {
  const resolver = servers?.length ? new Resolver() : undefined;
  resolver?.setServers(servers!);
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    if (!resolver) {
      return new Promise((ok, fail) => systemLookup(host, { all: true }, (err, addrs) => (err ? fail(err) : ok(addrs))));
    }
    const [v4, v6] = await Promise.all([
      resolver.resolve4(host).catch(() => [] as string[]),
      resolver.resolve6(host).catch(() => [] as string[]),
    ]);
    const all = [...v4.map((address) => ({ address, family: 4 })), ...v6.map((address) => ({ address, family: 6 }))];
    if (!all.length) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return all;
  };
  return (hostname: string, options: LookupOptions | number | undefined, callback: LookupCallback): void => {
    const opts: LookupOptions = typeof options === 'object' && options ? options : {};
    resolve(hostname)
      .then((addresses) => {
        if (!allowPrivate) {
          const bad = addresses.find((a) => isForbiddenAddress(a.address));
          if (bad) return callback(new BlockedAddressError(hostname, bad.address) as NodeJS.ErrnoException, []);
        }
        const wanted = opts.family === 4 || opts.family === 6 ? addresses.filter((a) => a.family === opts.family) : addresses;
        if (!wanted.length) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
        if (opts.all) return callback(null, wanted);
        return callback(null, wanted[0].address, wanted[0].family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, []));
  };
}
