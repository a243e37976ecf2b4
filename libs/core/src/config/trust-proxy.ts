import * as ipaddr from 'ipaddr.js';

const TRUST_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `TRUST_PROXY` as Express's `trust proxy` value: a hop count, `false`, or the list of addresses,
 * subnets and names. `undefined` for a value that is none of these (including `true`).
 */
export function trustProxySetting(value: string): number | false | string[] | undefined {
  const v = value.trim();
  if (v === 'false') return false;
  if (/^\d+$/.test(v)) return Number(v) === 0 ? false : Number(v) <= 10 ? Number(v) : undefined;
  const address = (a: string) => ipaddr.IPv4.isValidFourPartDecimal(a) || ipaddr.IPv6.isValid(a);
  const valid = (item: string) => {
    if (TRUST_NAMES.has(item)) return true;
    const [a, bits, ...rest] = item.split('/');
    if (bits === undefined) return address(a);
    if (rest.length || !address(a) || !/^\d{1,3}$/.test(bits)) return false;
    return Number(bits) <= (ipaddr.IPv4.isValidFourPartDecimal(a) ? 32 : 128);
  };
  const items = v.split(',').map((item) => item.trim());
  return items.every(valid) ? items : undefined;
}
