import { distanceM } from '@app/core';
import fc from 'fast-check';
import type { Fix } from '../fix';
// eslint-disable-next-line no-restricted-imports -- the real GPX traces' reader is a test helper shared with the e2e suites
import { GPX_TRACES, readGpxFixes } from '../../../../test/support/gpx';
// eslint-disable-next-line no-restricted-imports -- the real GPX traces' reader is a test helper shared with the e2e suites
import { independentStretches } from '../../../../test/support/track-stretches';
import { findStops, isUsable, Segment, splitRules, splitTracks } from './split';
import { trackStats } from './stats';

const RULES = splitRules(5);
const MIN = 60_000;
const T0 = Date.UTC(2026, 0, 5, 8);

/** A fix `m` metres north of (46.05, 14.5) at minute `min` (0.0001° lat ≈ 11.1 m). */
const fix = (min: number, northM = 0, extra: Partial<Fix> = {}): Fix => ({
  ts: T0 + min * MIN,
  lat: 46.05 + northM / 111_132,
  lng: 14.5,
  acc: null,
  dir: null,
  spd: null,
  elv: null,
  bat: null,
  ...extra,
});
const minutes = (s: Segment) => s.fixes.map((f) => (f.ts - T0) / MIN);

describe('splitTracks: the split rule', () => {
  it('a gap of 10 min or more ends a track; 9:59 does not', () => {
    const fixes = [fix(0, 0), fix(1, 200), fix(11, 400), fix(12, 600), fix(22 - 1 / 60, 800)];
    expect(splitTracks(fixes, [], RULES).map((s) => [minutes(s), s.endedBy])).toEqual([
      [[0, 1], 'gap'],
      [[11, 12, 22 - 1 / 60], null],
    ]);
  });

  it('tracking switched off ends a track, even with the next fix a minute later', () => {
    const fixes = [fix(0, 0), fix(1, 200), fix(2, 400), fix(3, 600)];
    expect(splitTracks(fixes, [T0 + 1.5 * MIN], RULES).map((s) => [minutes(s), s.endedBy])).toEqual([
      [[0, 1], 'tracking_off'],
      [[2, 3], null],
    ]);
    // off after the last fix: the newest track is closed
    expect(splitTracks(fixes, [T0 + 4 * MIN], RULES).map((s) => s.endedBy)).toEqual(['tracking_off']);
  });

  it('a stop of 5 min within 100 m: the track before ends at the arrival, the next starts at the departure, the dwelling is in none', () => {
    const fixes = [fix(0, 0), fix(1, 300), fix(2, 600), fix(3, 650), fix(4, 610), fix(6, 640), fix(7, 605), fix(8, 900), fix(9, 1200)];
    const segments = splitTracks(fixes, [], RULES);
    expect(segments.map((s) => [minutes(s), s.endedBy])).toEqual([
      [[0, 1, 2], 'stop'],
      [[7, 8, 9], null],
    ]);
  });

  it('4 min 59 s within 100 m is no stop', () => {
    const fixes = [fix(0, 0), fix(1, 300), fix(2, 600), fix(4, 650), fix(7 - 1 / 60, 610), fix(8, 900)];
    expect(splitTracks(fixes, [], RULES)).toHaveLength(1);
  });

  it('one-fix segments: a lone fix is a track; a run that starts or ends stopped gives no arrival/departure-only track', () => {
    expect(splitTracks([fix(0)], [], RULES).map(minutes)).toEqual([[0]]);
    // starts stopped: dwelling 0..6, leaves at 6
    const startsStopped = [fix(0, 0), fix(3, 20), fix(6, 10), fix(7, 400), fix(8, 800)];
    expect(splitTracks(startsStopped, [], RULES).map(minutes)).toEqual([[6, 7, 8]]);
    // ends stopped (still there): the track ends at the arrival and is closed by the stop
    const endsStopped = [fix(0, 0), fix(1, 400), fix(2, 800), fix(5, 820), fix(8, 810)];
    expect(splitTracks(endsStopped, [], RULES).map((s) => [minutes(s), s.endedBy])).toEqual([[[0, 1, 2], 'stop']]);
  });

  it('inaccurate fixes (acc > 100 m) neither anchor nor break a stop', () => {
    const fixes = [fix(0, 0), fix(1, 400), fix(2, 800), fix(4, 2000, { acc: 500 }), fix(7, 820), fix(8, 1200)];
    expect(splitTracks(fixes, [], RULES).map(minutes)).toEqual([
      [0, 1, 2],
      [7, 8],
    ]);
  });

  it('unsorted input and repeated ts are handled as sorted, once', () => {
    const fixes = [fix(2, 400), fix(0, 0), fix(1, 200), fix(1, 200)];
    expect(splitTracks(fixes, [], RULES).map(minutes)).toEqual([[0, 1, 2]]);
  });

  it.each(GPX_TRACES)(
    '%s: splitting again from any track start (flagged when it is a departure) gives the same tracks as the whole history',
    (file) => {
      const fixes = readGpxFixes(file);
      const whole = splitTracks(fixes, [], RULES);
      whole.forEach((segment, k) => {
        const start = segment.fixes[0].ts;
        // a track start is a run start (a gap or tracking off before it) or a stop's departure
        const previous = fixes.filter((f) => f.ts < start).at(-1);
        const afterStop = previous !== undefined && start - previous.ts < RULES.gapMs;
        const again = splitTracks(
          fixes.filter((f) => f.ts >= start),
          [],
          RULES,
          afterStop,
        );
        expect(again.map((s) => [s.fixes.map((f) => f.ts), s.endedBy])).toEqual(
          whole.slice(k).map((s) => [s.fixes.map((f) => f.ts), s.endedBy]),
        );
      });
    },
  );
});

describe.each(GPX_TRACES)('real trace %s', (file) => {
  const fixes = readGpxFixes(file);
  const segments = splitTracks(fixes, [], RULES);
  const expected = independentStretches([...fixes].sort((a, b) => a.ts - b.ts));

  it('each track matches the stretch the split rule gives, computed independently (distance and duration within 1 %)', () => {
    expect(segments.length).toBe(expected.length);
    segments.forEach((s, k) => {
      const stats = trackStats(s.fixes, RULES);
      const e = expected[k];
      expect([stats.startTs, stats.endTs]).toEqual([e.fixes[0].ts, e.fixes.at(-1)!.ts]);
      if (e.distance > 0) expect(Math.abs(stats.distance / e.distance - 1)).toBeLessThan(0.01);
      else expect(stats.distance).toBe(0);
      const duration = stats.endTs - stats.startTs;
      if (e.durationMs > 0) expect(Math.abs(duration / e.durationMs - 1)).toBeLessThan(0.01);
      else expect(duration).toBe(0);
    });
  });

  it('tracks never overlap and keep the fixes in order', () => {
    for (let k = 1; k < segments.length; k++) expect(segments[k].fixes[0].ts).toBeGreaterThan(segments[k - 1].fixes.at(-1)!.ts);
  });
});

it('the traces are split as their README describes', () => {
  // around-visnjan: one drive, its ~2 min stop is no split
  expect(splitTracks(readGpxFixes('around-visnjan-with-car.gpx'), [], RULES)).toHaveLength(1);
  // cerknicko-jezero: gaps of 10 min or more and stops of 5 min or more
  const cerknica = splitTracks(readGpxFixes('cerknicko-jezero.gpx'), [], RULES).map((s) => s.endedBy);
  expect(cerknica).toContain('gap');
  expect(cerknica).toContain('stop');
});

describe('stay-point search', () => {
  /** The plain O(n · stay) search the rule describes: each anchor's stay grown fix by fix with the exact geodesic. */
  function referenceStops(fixes: Fix[]): Array<[number, number]> {
    const usable = fixes.filter((f) => isUsable(f, RULES));
    const stops: Array<[number, number]> = [];
    let a = 0;
    while (a < usable.length) {
      let b = a;
      while (b + 1 < usable.length && distanceM(usable[a], usable[b + 1]) <= RULES.stopRadiusM) b++;
      if (usable[b].ts - usable[a].ts >= RULES.stopMs) {
        stops.push([usable[a].ts, usable[b].ts]);
        a = b + 1;
      } else a++;
    }
    return stops;
  }
  it('findStops finds exactly the stops of the plain search (random walks that pause, drift and wander)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 60, noNaN: true }), fc.integer({ min: 5, max: 60 })), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 1, max: 1e6 }),
        (legs, seed) => {
          let s = seed;
          const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647 - 0.5;
          let lat = 46;
          let lng = 14.5;
          let ts = 0;
          const fixes: Fix[] = [];
          for (const [count, stepM, intervalS] of legs)
            for (let i = 0; i < count; i++) {
              lat += (rnd() * 2 * stepM) / 111_132;
              lng += (rnd() * 2 * stepM) / 77_000;
              ts += intervalS * 1000;
              fixes.push({ ts, lat, lng, acc: Math.abs(rnd()) < 0.05 ? 300 : 10, dir: null, spd: null, elv: null, bat: null });
            }
          expect(findStops(fixes, RULES).map(([arrival, departure]) => [fixes[arrival].ts, fixes[departure].ts])).toEqual(
            referenceStops(fixes),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
