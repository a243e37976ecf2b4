import { MIN_FIX_TS, validateFix, validateFixes } from './fix-rules';

const now = Date.UTC(2026, 10, 23, 12);
const window = { now, retentionMs: 180 * 86_400_000 };
const good = { ts: now - 1000, lat: 46.05, lng: 14.5 };

describe('validateFix', () => {
  it('accepts the required fields alone, optional ones as null', () => {
    expect(validateFix(good, window)).toEqual({ ...good, acc: null, dir: null, spd: null, elv: null, bat: null });
  });

  it('rounds acc, dir, elv and bat, keeps spd', () => {
    expect(validateFix({ ...good, acc: 4.6, dir: 359.6, spd: 1.25, elv: -3.4, bat: 49.5, lat: -90, lng: 180 }, window)).toEqual({
      ts: good.ts,
      lat: -90,
      lng: 180,
      acc: 5,
      dir: 360,
      spd: 1.25,
      elv: -3,
      bat: 50,
    });
  });

  it('treats null optional values as absent', () => {
    expect(validateFix({ ...good, acc: null, bat: null }, window)).toMatchObject({ acc: null, bat: null });
  });

  it.each([
    [{ ...good, ts: 1.5 }, 'ts: must be an integer (ms since the epoch)'],
    [{ ...good, ts: '1' }, 'ts: must be an integer (ms since the epoch)'],
    [{ lat: 1, lng: 1 }, 'ts: must be an integer (ms since the epoch)'],
    [{ ...good, ts: MIN_FIX_TS }, 'ts: must be after 2000-01-01 (ms since the epoch)'],
    [{ ...good, ts: now + 5 * 60_000 + 1 }, 'ts: must not be more than 5 minutes ahead of the server clock'],
    [{ ...good, ts: now - 181 * 86_400_000 }, 'ts: is older than the location history retention (it would be pruned at once)'],
    [{ ...good, lat: 90.0001 }, 'lat: must be between -90 and 90'],
    [{ ...good, lat: null }, 'lat: must be between -90 and 90'],
    [{ ...good, lat: NaN }, 'lat: must be between -90 and 90'],
    [{ ...good, lng: -180.5 }, 'lng: must be between -180 and 180'],
    [{ ...good, acc: -1 }, 'acc: must be a number ≥ 0 and ≤ 1000000 (m)'],
    [{ ...good, dir: 361 }, 'dir: must be between 0 and 360 (degrees)'],
    [{ ...good, dir: '90' }, 'dir: must be between 0 and 360 (degrees)'],
    [{ ...good, spd: -0.1 }, 'spd: must be a number ≥ 0 and ≤ 1000 (m/s)'],
    [{ ...good, elv: 1e7 }, 'elv: must be a number between -1000000 and 1000000 (m)'],
    [{ ...good, bat: 101 }, 'bat: must be between 0 and 100 (percent)'],
    [{ ...good, speed: 3 }, 'speed: is not a field of a fix (ts, lat, lng, acc, dir, spd, elv, bat)'],
    [[1, 2], 'fix: must be an object {ts, lat, lng, acc, dir, spd, elv, bat}'],
    [null, 'fix: must be an object {ts, lat, lng, acc, dir, spd, elv, bat}'],
  ])('refuses %j: %s', (raw, error) => {
    const [field, ...rule] = error.split(': ');
    expect(validateFix(raw, window)).toEqual({ field, rule: rule.join(': ') });
  });

  it('accepts a fix exactly 5 minutes ahead', () => {
    expect(validateFix({ ...good, ts: now + 5 * 60_000 }, window)).toMatchObject({ ts: now + 5 * 60_000 });
  });
});

describe('validateFixes', () => {
  it('keeps the good fixes in order and reports the bad ones by index', () => {
    const out = validateFixes([good, { ...good, lat: 91 }, { ...good, ts: good.ts - 1 }], window);
    expect(out.fixes.map((f) => f.ts)).toEqual([good.ts, good.ts - 1]);
    expect(out.rejected).toEqual([{ index: 1, error: 'lat: must be between -90 and 90' }]);
  });
});
