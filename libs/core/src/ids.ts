import { randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const ulid = monotonicFactory();

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
