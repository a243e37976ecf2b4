import { decodeTime } from 'ulid';
import { isIdShaped, newEventId, newId, randomBase62 } from './ids';

const CROCKFORD_ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('newId', () => {
  it('is a 26-character Crockford base32 ULID without hyphens', () => {
    for (let i = 0; i < 200; i++) {
      const id = newId();
      expect(id).toMatch(CROCKFORD_ULID);
      expect(id).not.toContain('-');
    }
  });

  it('carries the current time', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    const t = decodeTime(id);
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(after);
  });

  it('is strictly increasing, also many times within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => newId());
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('newEventId', () => {
  it('is msg_ followed by a ULID', () => {
    const id = newEventId();
    expect(id).toMatch(/^msg_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(id).toHaveLength(30);
  });

  it('is unique and ordered', () => {
    const ids = Array.from({ length: 1000 }, () => newEventId());
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('randomBase62', () => {
  it.each([0, 1, 8, 31, 32, 100, 1000])('returns exactly %p base62 characters', (length) => {
    const s = randomBase62(length);
    expect(s).toHaveLength(length);
    expect(s).toMatch(/^[0-9A-Za-z]*$/);
  });

  it('does not repeat itself', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => randomBase62(32)));
    expect(keys.size).toBe(1000);
  });

  it('is roughly uniform over the 62 characters (chi-square, loose bound)', () => {
    const perChar = 2000;
    const n = 62 * perChar;
    const s = randomBase62(n);
    const counts = new Map<string, number>();
    for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    let chi2 = 0;
    for (const c of BASE62) chi2 += ((counts.get(c) ?? 0) - perChar) ** 2 / perChar;
    // 61 degrees of freedom: mean 61, sd ≈ 11. A plain `byte % 62` (no rejection) gives ≈ 900+.
    expect(chi2).toBeLessThan(150);
    // the first 8 characters would be 25 % too frequent with modulo bias
    const low = [...BASE62.slice(0, 8)].reduce((sum, c) => sum + (counts.get(c) ?? 0), 0) / 8;
    expect(low / perChar).toBeLessThan(1.1);
  });

  it('maps bytes 0–247 to base62 by modulo and rejects 248–255', async () => {
    const bytes = [255, 248, 0, 61, 62, 123, 247, 250, 10, 36];
    await jest.isolateModulesAsync(async () => {
      jest.doMock('node:crypto', () => {
        const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
        let i = 0;
        return {
          ...actual,
          randomBytes: (size: number) => Buffer.from(Array.from({ length: size }, () => bytes[i++ % bytes.length])),
        };
      });
      const ids = await import('./ids');
      // 0 → '0', 61 → 'z', 62 → '0', 123 → 'z', 247 → 'z', 10 → 'A', 36 → 'a'; 255, 248, 250 skipped
      expect(ids.randomBase62(7)).toBe('0z0zzAa');
    });
  });
});

describe('isIdShaped', () => {
  it.each(['a', '01J0000000000000000000000', 'msg_01J00000000000000000000000', 'x'.repeat(64), 'not-a-ulid', '0'])(
    '%p is id-shaped',
    (v) => {
      expect(isIdShaped(v)).toBe(true);
    },
  );

  it.each(['', 'x'.repeat(65), 1, 0, null, undefined, {}, ['a'], true])('%p is not id-shaped', (v) => {
    expect(isIdShaped(v)).toBe(false);
  });
});
