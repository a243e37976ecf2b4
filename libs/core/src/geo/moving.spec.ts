import { distanceM } from './geodesic';
import { movingState } from './moving';

const NOW = 1_800_000_000_000;
const MIN = 60_000;
const here = { lat: 46.0569, lng: 14.5058 };
/** A point `m` metres north of `here` (1° of latitude ≈ 111,120 m at 46°N; checked below). */
const north = (m: number) => ({ lat: here.lat + m / 111_120, lng: here.lng });

describe('movingState', () => {
  const fix = (ageMs: number, spd: number | null = 0) => ({ ...here, ts: NOW - ageMs, spd });

  it('"" when never located, whatever the tracking state', () => {
    expect(movingState(null, null, false, NOW)).toBe('');
    expect(movingState(null, null, true, NOW)).toBe('');
  });

  it('"" when tracking is off, even with a fresh fix at speed', () => {
    expect(movingState(fix(0, 20), null, false, NOW)).toBe('');
    expect(movingState(fix(60 * MIN), null, false, NOW)).toBe('');
  });

  it('10 min is the freshness boundary: exactly 10 min old is current, 1 ms more is offline', () => {
    expect(movingState(fix(10 * MIN), null, true, NOW)).toBe('stopped');
    expect(movingState(fix(10 * MIN + 1), null, true, NOW)).toBe('offline');
    expect(movingState(fix(10 * MIN + 1, 30), null, true, NOW)).toBe('offline');
    expect(movingState(fix(10 * MIN, 30), null, true, NOW)).toBe('moving');
  });

  it('a fix stamped in the future counts as current', () => {
    expect(movingState(fix(-4 * MIN, 0), null, true, NOW)).toBe('stopped');
  });

  it('speed: ≥ 1 m/s is moving, just below is stopped, unknown is not moving', () => {
    expect(movingState(fix(0, 1), null, true, NOW)).toBe('moving');
    expect(movingState(fix(0, 0.999), null, true, NOW)).toBe('stopped');
    expect(movingState(fix(0, null), null, true, NOW)).toBe('stopped');
  });

  describe('distance from the anchor (the fix ≥ 2 min before)', () => {
    const latestAt = (m: number) => ({ ...north(m), ts: NOW, spd: 0 });
    const anchor = (gapMs: number) => ({ ...here, ts: NOW - gapMs });

    it('the test points are where they claim (50 m and 49.9 m, geodesic)', () => {
      expect(distanceM(here, north(50.05))).toBeGreaterThanOrEqual(50);
      expect(distanceM(here, north(49.9))).toBeLessThan(50);
    });

    it('≥ 50 m is moving, under 50 m is stopped', () => {
      expect(movingState(latestAt(50.05), anchor(2 * MIN), true, NOW)).toBe('moving');
      expect(movingState(latestAt(49.9), anchor(2 * MIN), true, NOW)).toBe('stopped');
    });

    it('an anchor less than 2 min older is not compared', () => {
      expect(movingState(latestAt(500), anchor(2 * MIN - 1), true, NOW)).toBe('stopped');
    });

    it('an anchor up to 10 min older is compared; older is the last fix before a gap and is not', () => {
      expect(movingState(latestAt(500), anchor(10 * MIN), true, NOW)).toBe('moving');
      expect(movingState(latestAt(500), anchor(10 * MIN + 1), true, NOW)).toBe('stopped');
    });

    it('a stale latest fix is offline whatever the anchor says', () => {
      const stale = { ...north(500), ts: NOW - 11 * MIN, spd: 0 };
      expect(movingState(stale, { ...here, ts: stale.ts - 3 * MIN }, true, NOW)).toBe('offline');
    });
  });
});
