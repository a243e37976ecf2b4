import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/** CSPRNG bytes handed out one at a time (ulid's own generator asks the CSPRNG for 1 byte per character: 16 calls an id, ~65 µs). */
const pool = { bytes: Buffer.alloc(0), next: 0 };

/** ulid's generator contract (a number in [0, 1], as its default: a CSPRNG byte / 0xff), from {@link pool}. */
function pooledRandom(): number {
  if (pool.next >= pool.bytes.length) {
    pool.bytes = randomBytes(4096);
    pool.next = 0;
  }
  return pool.bytes[pool.next++] / 0xff;
}

const ulid = monotonicFactory(pooledRandom);

/** A new hyphen-free id: a 26-character ULID (time-ordered, Crockford base32). */
export function newId(): string {
  return ulid();
}

/** A new outbox event id, `msg_<ulid>` — also the Standard Webhooks `webhook-id`. */
export function newEventId(): string {
  return `msg_${ulid()}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` uniformly random base62 characters from the CSPRNG (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Id parameters are only checked as non-empty strings of at most 64 characters (CONTRACTS.md). */
export function isIdShaped(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 64;
}
