import { decodeIntegers, decodePolyline, distanceM } from '@app/core';
import type { Fix } from '../fix';
// eslint-disable-next-line no-restricted-imports -- the real GPX traces' reader is a test helper shared with the e2e suites
import { readGpxFixes } from '../../../../test/support/gpx';
import { splitRules, stopSearchResumeTs } from './split';
import { ALTITUDE_NOISE_M, altitudes, TrackAccumulator, trackStats } from './stats';

const RULES = splitRules(5);
const f = (ts: number, lat: number, lng: number, extra: Partial<Fix> = {}): Fix => ({
  ts,
  lat,
  lng,
  acc: null,
  dir: null,
  spd: null,
  elv: null,
  bat: null,
  ...extra,
});

describe('trackStats', () => {
  it('one degree of latitude along a meridian at the equator in 1 h: 110574 m, 30.7 m/s', () => {
    const s = trackStats([f(0, 0, 0), f(1_800_000, 0.5, 0), f(3_600_000, 1, 0)], RULES);
    expect(Math.abs(s.distance - 110574)).toBeLessThan(1);
    expect(s.speedAvg).toBeCloseTo(s.distance / 3600, 9);
    expect(s.speedMax).toBeCloseTo(s.distance / 3600, 3); // no reported speed: the steps' speed
    expect(s.waypointCount).toBe(3);
    expect([s.startTs, s.endTs, s.startLat, s.endLat]).toEqual([0, 3_600_000, 0, 1]);
    expect([s.altitudeMin, s.altitudeMax, s.altitudeGain, s.altitudeLoss]).toEqual([null, null, null, null]);
  });

  it('fixes with acc > 100 m are not used: not for distance, waypoints, polyline nor start/end', () => {
    const s = trackStats(
      [f(0, 46, 14, { acc: 150 }), f(1000, 46.001, 14, { acc: 5 }), f(2000, 47, 14, { acc: 101 }), f(3000, 46.002, 14, { acc: 100 })],
      RULES,
    );
    expect(s.waypointCount).toBe(2);
    expect([s.startTs, s.endTs]).toEqual([1000, 3000]);
    expect(Math.abs(s.distance - 111.1)).toBeLessThan(0.5);
    expect(decodePolyline(s.shortEncoded)).toEqual([
      { lat: 46.001, lng: 14 },
      { lat: 46.002, lng: 14 },
    ]);
  });

  it('speed max: the largest reported spd when any fix reports one', () => {
    const s = trackStats([f(0, 46, 14, { spd: 3 }), f(1000, 46.01, 14), f(2000, 46.02, 14, { spd: 7.5 })], RULES);
    expect(s.speedMax).toBe(7.5);
  });

  it('a one-fix track: 0 m, 0 m/s, a zero box', () => {
    const s = trackStats([f(5, 46, 14, { elv: 300 })], RULES);
    expect([s.distance, s.speedAvg, s.speedMax, s.waypointCount]).toEqual([0, 0, 0, 1]);
    expect([s.latMin, s.latMax, s.lngMin, s.lngMax]).toEqual([46, 46, 14, 14]);
    expect([s.altitudeMin, s.altitudeMax, s.altitudeGain, s.altitudeLoss]).toEqual([300, 300, 0, 0]);
  });

  it('bbox across the antimeridian: lngMin > lngMax', () => {
    const s = trackStats([f(0, -17, 179.9), f(1000, -17, -179.9)], RULES);
    expect([s.lngMin, s.lngMax]).toEqual([179.9, -179.9]);
  });

  it('course: reported dir, else the bearing from the previous fix (the first: towards the next), rounded', () => {
    const s = trackStats([f(0, 0, 0), f(1000, 0, 0.001), f(2000, 0.001, 0.001, { dir: 359.6 }), f(3000, 0, 0.001)], RULES);
    expect(decodeIntegers(s.courseEncoded)).toEqual([90, 90, 0, 180]);
  });
});

describe('altitudes', () => {
  const elv = (values: number[]) => values.map((e, i) => f(i, 0, 0, { elv: e }));

  it(`wiggles under ${ALTITUDE_NOISE_M} m are noise; real climbs and descents count`, () => {
    expect(altitudes(elv([100, 102, 99, 103, 100, 101]))).toEqual({ altitudeMin: 99, altitudeMax: 103, altitudeGain: 0, altitudeLoss: 0 });
    expect(altitudes(elv([100, 110, 120, 118, 121, 100]))).toEqual({
      altitudeMin: 100,
      altitudeMax: 121,
      altitudeGain: 20,
      altitudeLoss: 20,
    });
    // exactly the dead band counts, just under it does not
    expect(altitudes(elv([100, 105, 100]))).toMatchObject({ altitudeGain: 5, altitudeLoss: 5 });
    expect(altitudes(elv([100, 104, 100]))).toMatchObject({ altitudeGain: 0, altitudeLoss: 0 });
  });

  it('a real hike (korita-zbevnica) climbs and descends by hundreds of metres, gain ≤ the sum of all rises', () => {
    const fixes = readGpxFixes('korita-zbevnica.gpx');
    const a = altitudes(fixes);
    let rises = 0;
    for (let i = 1; i < fixes.length; i++) rises += Math.max(0, fixes[i].elv! - fixes[i - 1].elv!);
    expect(a.altitudeGain!).toBeGreaterThan(100);
    expect(a.altitudeGain!).toBeLessThanOrEqual(rises);
    expect(a.altitudeMax! - a.altitudeMin!).toBeGreaterThan(100);
    // net change = gain − loss, within the dead band
    expect(Math.abs(a.altitudeGain! - a.altitudeLoss! - (fixes.at(-1)!.elv! - fixes[0].elv!))).toBeLessThan(ALTITUDE_NOISE_M);
  });
});

it('real drive (around-visnjan): polyline decodes to the fixes within 1e-5°, stats as computed by hand', () => {
  const fixes = readGpxFixes('around-visnjan-with-car.gpx');
  const s = trackStats(fixes, RULES);
  const decoded = decodePolyline(s.shortEncoded);
  expect(decoded).toHaveLength(fixes.length);
  decoded.forEach((p, i) => {
    expect(Math.abs(p.lat - fixes[i].lat)).toBeLessThanOrEqual(0.5e-5 + 1e-12);
    expect(Math.abs(p.lng - fixes[i].lng)).toBeLessThanOrEqual(0.5e-5 + 1e-12);
  });
  expect(s.distance).toBeGreaterThan(2000);
  expect(s.speedAvg).toBeCloseTo(s.distance / ((fixes.at(-1)!.ts - fixes[0].ts) / 1000), 9);
  expect(s.latMin).toBe(Math.min(...fixes.map((x) => x.lat)));
  expect(s.lngMax).toBe(Math.max(...fixes.map((x) => x.lng)));
});

describe('TrackAccumulator', () => {
  it.each(['around-visnjan-with-car.gpx', 'korita-zbevnica.gpx', 'cerknicko-jezero.gpx'])(
    '%s: restored from its JSON state at any cut and fed the rest, it gives trackStats of the whole',
    (file) => {
      const used = readGpxFixes(file).filter((f) => f.acc === null || f.acc <= RULES.maxAccuracyM);
      const whole = trackStats(used, RULES);
      for (const cut of [1, 2, 3, Math.floor(used.length / 3), used.length - 1]) {
        const head = new TrackAccumulator();
        used.slice(0, cut).forEach((f) => head.add(f));
        const tail = new TrackAccumulator(JSON.parse(JSON.stringify(head.state())));
        used.slice(cut).forEach((f) => tail.add(f));
        const box = tail.plainBox()!;
        const [h, t] = [head.stats(box), tail.stats(box)];
        // the restored accumulator's polylines continue the head's (a lone head fix without a direction has no heading yet)
        const headCourse = cut === 1 && used[0].dir === null ? '' : h.courseEncoded;
        expect({ ...t, shortEncoded: h.shortEncoded + t.shortEncoded, courseEncoded: headCourse + t.courseEncoded }).toEqual(whole);
      }
    },
  );

  it('a lone fix without a direction heads 0 until a second fix gives its bearing; no plain box across the antimeridian', () => {
    const acc = new TrackAccumulator();
    acc.add({ ts: 0, lat: 0, lng: 179.9, acc: null, dir: null, spd: null, elv: null, bat: null });
    expect(decodeIntegers(acc.stats(acc.plainBox()!).courseEncoded)).toEqual([0]);
    acc.add({ ts: 1000, lat: 0, lng: -179.9, acc: null, dir: null, spd: null, elv: null, bat: null });
    expect(decodeIntegers(acc.stats({ minLat: 0, maxLat: 0, minLng: 179.9, maxLng: -179.9 }).courseEncoded)).toEqual([90, 90]);
    expect(acc.plainBox()).toBeNull();
  });
});

describe('stopSearchResumeTs', () => {
  it('no usable fix before it can anchor a stay reaching the last fix (exact geodesic check on random walks)', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5;
    for (let run = 0; run < 30; run++) {
      let lat = 46;
      let lng = 14.5;
      const step = 0.00002 + Math.abs(rnd()) * 0.0003;
      const fixes: Fix[] = Array.from({ length: 200 }, (_, i) => {
        lat += rnd() * step;
        lng += rnd() * step;
        return { ts: i * 1000, lat, lng, acc: i % 17 === 0 ? 500 : 5, dir: null, spd: null, elv: null, bat: null };
      });
      const resume = stopSearchResumeTs({ fixes, endedBy: null, startsAtDeparture: false }, RULES);
      const usable = fixes.filter((f) => f.acc! <= RULES.maxAccuracyM);
      const last = usable[usable.length - 1];
      for (const [i, a] of usable.entries()) {
        if (a.ts >= resume || last.ts - a.ts >= RULES.stopMs) continue;
        expect(usable.slice(i + 1).some((b) => distanceM(a, b) > RULES.stopRadiusM)).toBe(true);
      }
    }
  });
});
