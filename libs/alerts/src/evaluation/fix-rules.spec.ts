import { Geodesic } from 'geographiclib-geodesic';
import { advanceStill, BATTERY_REARM_MARGIN, evaluateBattery, RuleFix } from './fix-rules';

const C = { lat: 46.05, lng: 14.5 };
const T0 = 1_790_000_000_000;
const fix = (s: number, bat: number | null, m = 0, acc: number | null = 5): RuleFix => {
  const p = Geodesic.WGS84.Direct(C.lat, C.lng, 90, m);
  return { ts: T0 + s * 1000, lat: p.lat2!, lng: p.lon2!, acc, bat };
};
const always = () => true;

describe('evaluateBattery', () => {
  it('fires once at the first fix below the threshold and not again while it stays low', () => {
    const out = evaluateBattery(false, [fix(0, 40), fix(10, 15), fix(20, 14), fix(30, 9), fix(40, null)], 15, always);
    expect(out).toEqual({ low: true, fired: [{ ts: T0 + 20_000, bat: 14 }] });
  });

  it('re-arms only at threshold + margin, then fires again', () => {
    const up = 15 + BATTERY_REARM_MARGIN;
    const out = evaluateBattery(true, [fix(0, 15), fix(10, 14), fix(20, up), fix(30, 12)], 15, always);
    expect(out.fired).toEqual([{ ts: T0 + 30_000, bat: 12 }]);
    expect(evaluateBattery(true, [fix(0, up - 1), fix(10, 3)], 15, always).fired).toEqual([]);
  });

  it('a low fix outside the window does not fire; the first one inside does', () => {
    const out = evaluateBattery(false, [fix(0, 10), fix(10, 9), fix(20, 8)], 15, (ts) => ts >= T0 + 10_000);
    expect(out.fired).toEqual([{ ts: T0 + 10_000, bat: 9 }]);
  });
});

describe('advanceStill', () => {
  it('starts at the first fix and keeps it while the member stays within 50 m', () => {
    const p = advanceStill(null, [fix(0, null, 0), fix(60, null, 30), fix(120, null, 49)]);
    expect(p).toMatchObject({ since: T0 });
  });

  it('a fix 50 m or more from the period start begins a new period; creeping counts from the start', () => {
    expect(advanceStill(null, [fix(0, null, 0), fix(60, null, 30), fix(120, null, 55)])).toMatchObject({ since: T0 + 120_000 });
    const creep = [0, 20, 40, 60].map((m, i) => fix(i * 60, null, m));
    expect(advanceStill(null, creep)).toMatchObject({ since: T0 + 180_000 });
  });

  it('inaccurate fixes neither move nor start; a period carries over between batches', () => {
    expect(advanceStill(null, [fix(0, null, 500, 300)])).toBeNull();
    const first = advanceStill(null, [fix(0, null, 0)]);
    expect(advanceStill(first, [fix(60, null, 10), fix(70, null, 900, 200)])).toEqual(first);
  });
});
