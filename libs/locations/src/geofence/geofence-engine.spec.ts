import { distanceM } from '@app/core';
import fc from 'fast-check';
import { Geodesic } from 'geographiclib-geodesic';
import {
  ClassifiedFence,
  evaluateGeofences,
  FenceState,
  Geofence,
  GeofenceFix,
  GeofenceRules,
  hysteresisMarginM,
  VISIT_GAP_MS,
  zoneOf,
} from './geofence-engine';

const CENTER = { lat: 45.2744, lng: 13.7233 };
const RULES: GeofenceRules = { dwellMs: 60_000, gapMs: VISIT_GAP_MS };
const T0 = 1_790_000_000_000;

/** A fix `m` metres from CENTER along azimuth `azi` (degrees), at T0 + `s` seconds. */
function fixAt(s: number, m: number, acc: number | null = 5, azi = 90): GeofenceFix {
  const p = Geodesic.WGS84.Direct(CENTER.lat, CENTER.lng, azi, m);
  return { ts: T0 + s * 1000, lat: p.lat2!, lng: p.lon2!, acc };
}

/** Fixes every `step` s from `from` to `to` (inclusive), at `m` metres. */
function run(from: number, to: number, m: number, step = 5, acc: number | null = 5): GeofenceFix[] {
  const out: GeofenceFix[] = [];
  for (let s = from; s <= to; s += step) out.push(fixAt(s, m, acc));
  return out;
}

const place: Geofence = { key: 'p:1', center: CENTER, radius: 100 };

describe('zoneOf / hysteresisMarginM', () => {
  it('uses max(20 m, 25 % of the radius) beyond the radius', () => {
    expect(hysteresisMarginM(40)).toBe(20);
    expect(hysteresisMarginM(100)).toBe(25);
    expect(hysteresisMarginM(400)).toBe(100);
    expect(zoneOf(100, 100)).toBe('in');
    expect(zoneOf(100.01, 100)).toBe('edge');
    expect(zoneOf(125, 100)).toBe('edge');
    expect(zoneOf(125.01, 100)).toBe('out');
    expect(zoneOf(60.5, 40)).toBe('out');
  });

  it('places test fixes at the distance asked (geodesic)', () => {
    expect(distanceM(fixAt(0, 123.4), CENTER)).toBeCloseTo(123.4, 6);
  });
});

describe('evaluateGeofences', () => {
  it('enters after the dwell, at the first fix inside, and exits after the dwell beyond the ring, at the first fix beyond', () => {
    const fixes = [...run(0, 55, 500), ...run(60, 300, 30), ...run(305, 500, 400)];
    const out = evaluateGeofences({}, [place], fixes, RULES);
    expect(out.transitions).toEqual([
      { key: 'p:1', kind: 'in', ts: T0 + 60_000 },
      { key: 'p:1', kind: 'out', ts: T0 + 305_000, inTs: T0 + 60_000 },
    ]);
    expect(out.states).toEqual({});
  });

  it('does not enter before the dwell has passed, and keeps the pending run in the state', () => {
    const out = evaluateGeofences({}, [place], run(0, 55, 30), RULES);
    expect(out.transitions).toEqual([]);
    expect(out.states['p:1']).toMatchObject({ inside: false, runTs: T0 });
    // the next batch confirms it, with the entry time of the first batch
    const more = evaluateGeofences(out.states, [place], run(60, 70, 30), RULES);
    expect(more.transitions).toEqual([{ key: 'p:1', kind: 'in', ts: T0 }]);
    expect(more.states['p:1']).toMatchObject({ inside: true, inTs: T0, lastInTs: T0 + 70_000 });
  });

  it('a pass shorter than the dwell fires nothing', () => {
    const fixes = [...run(0, 20, 300), ...run(25, 70, 50), ...run(75, 200, 300)];
    expect(evaluateGeofences({}, [place], fixes, RULES).transitions).toEqual([]);
  });

  it('a short step out (shorter than the dwell) keeps the visit', () => {
    const fixes = [...run(0, 120, 10), ...run(125, 160, 300), ...run(165, 300, 10)];
    const out = evaluateGeofences({}, [place], fixes, RULES);
    expect(out.transitions).toEqual([{ key: 'p:1', kind: 'in', ts: T0 }]);
  });

  it('jitter in the ring between the radius and the hysteresis margin changes nothing', () => {
    // inside, then alternating just outside the radius and inside for 10 minutes
    const jitter: GeofenceFix[] = [];
    for (let s = 100; s <= 700; s += 5) jitter.push(fixAt(s, s % 10 === 0 ? 110 : 95));
    const out = evaluateGeofences({}, [place], [...run(0, 95, 20), ...jitter], RULES);
    expect(out.transitions).toEqual([{ key: 'p:1', kind: 'in', ts: T0 }]);
    // only ring fixes for a long time while inside: still inside
    const ring = evaluateGeofences(out.states, [place], run(705, 1500, 120), RULES);
    expect(ring.transitions).toEqual([]);
    expect(ring.states['p:1'].inside).toBe(true);
    // ring fixes while outside never start an entry
    expect(evaluateGeofences({}, [place], run(0, 900, 124), RULES).transitions).toEqual([]);
  });

  it('ignores fixes whose accuracy exceeds the radius; a fix without accuracy counts', () => {
    const inaccurate = run(0, 300, 10, 5, 150);
    expect(evaluateGeofences({}, [place], inaccurate, RULES).transitions).toEqual([]);
    const unknown = run(0, 60, 10, 5, null);
    expect(evaluateGeofences({}, [place], unknown, RULES).transitions).toEqual([{ key: 'p:1', kind: 'in', ts: T0 }]);
    // inaccurate fixes far away while inside do not check the member out
    const inside = evaluateGeofences({}, [place], run(0, 60, 10), RULES).states;
    const far = evaluateGeofences(inside, [place], run(65, 400, 2000, 5, 500), RULES);
    expect(far.transitions).toEqual([]);
    expect(distanceM(fixAt(0, 100, 100), CENTER)).toBeCloseTo(100, 6);
    // accuracy equal to the radius counts
    expect(evaluateGeofences({}, [place], run(0, 60, 10, 5, 100), RULES).transitions).toHaveLength(1);
  });

  it('closes a visit with no fix for 30 minutes at its last fix inside', () => {
    const fixes = [...run(0, 120, 10), fixAt(120 + 30 * 60, 10)];
    const out = evaluateGeofences({}, [place], fixes, RULES);
    expect(out.transitions).toEqual([
      { key: 'p:1', kind: 'in', ts: T0 },
      { key: 'p:1', kind: 'out', ts: T0 + 120_000, inTs: T0, gap: true },
    ]);
    // the fix after the gap starts a new run
    expect(out.states['p:1']).toMatchObject({ inside: false, runTs: T0 + 1_920_000 });
    // 29 minutes is not a gap
    const short = evaluateGeofences({}, [place], [...run(0, 120, 10), fixAt(120 + 29 * 60, 10)], RULES);
    expect(short.transitions).toEqual([{ key: 'p:1', kind: 'in', ts: T0 }]);
  });

  it('a pending entry run is forgotten after 30 minutes without fixes', () => {
    const fixes = [fixAt(0, 10), fixAt(31 * 60, 10)];
    const out = evaluateGeofences({}, [place], fixes, RULES);
    expect(out.transitions).toEqual([]);
    expect(out.states['p:1'].runTs).toBe(T0 + 31 * 60_000);
  });

  it('evaluates overlapping geofences independently, transitions in ts order', () => {
    const big: Geofence = { key: 'p:big', center: CENTER, radius: 400 };
    const job: Geofence = { key: 'j:1', center: CENTER, radius: 50 };
    const fixes = [...run(0, 60, 300), ...run(65, 200, 30), ...run(205, 400, 300), ...run(405, 700, 1500)];
    const out = evaluateGeofences({}, [place, big, job], fixes, RULES);
    expect(out.transitions.map((t) => `${t.key}:${t.kind}:${(t.ts - T0) / 1000}`)).toEqual([
      'p:big:in:0',
      'p:1:in:65',
      'j:1:in:65',
      'p:1:out:205',
      'j:1:out:205',
      'p:big:out:405',
    ]);
  });

  it('counts for a fence only the fixes within its [from, until) window', () => {
    const job: Geofence = { key: 'j:1', center: CENTER, radius: 100, from: T0 + 100_000, until: T0 + 400_000 };
    const out = evaluateGeofences({}, [job], run(0, 600, 10), RULES);
    expect(out.transitions).toEqual([{ key: 'j:1', kind: 'in', ts: T0 + 100_000 }]);
  });

  it('drops fences no longer given, answering their open visits', () => {
    const open: FenceState = { inside: true, inTs: T0, runTs: null, lastInTs: T0 + 50_000, lastTs: T0 + 50_000 };
    const pending: FenceState = { inside: false, inTs: null, runTs: T0, lastInTs: null, lastTs: T0 };
    const out = evaluateGeofences({ 'p:gone': open, 'p:pending': pending }, [place], run(60, 70, 1000), RULES);
    expect(out.dropped).toEqual([{ key: 'p:gone', inTs: T0, lastInTs: T0 + 50_000 }]);
    expect(out.states).toEqual({});
  });

  it('dwell 0 enters at the first fix inside and exits at the first fix beyond', () => {
    const out = evaluateGeofences({}, [place], [fixAt(0, 10), fixAt(5, 500)], { ...RULES, dwellMs: 0 });
    expect(out.transitions).toEqual([
      { key: 'p:1', kind: 'in', ts: T0 },
      { key: 'p:1', kind: 'out', ts: T0 + 5000, inTs: T0 },
    ]);
  });

  it('does not modify the states it is given', () => {
    const states = { 'p:1': { inside: false, inTs: null, runTs: T0, lastInTs: null, lastTs: T0 } };
    const copy = structuredClone(states);
    evaluateGeofences(states, [place], run(5, 100, 10), RULES);
    expect(states).toEqual(copy);
  });

  describe('classified fences (the zone decided by the caller: alert zones)', () => {
    /** A fence whose zone of each fix is read from `zones` by the fix's ts (T0-relative seconds). */
    const classifiedBy = (zones: Record<number, 'in' | 'edge' | 'out'>, maxAcc?: number): ClassifiedFence => ({
      key: 'z:1',
      classify: (fix) => zones[(fix.ts - T0) / 1000] ?? 'out',
      ...(maxAcc !== undefined ? { maxAcc } : {}),
    });
    const zonesOf = (spec: Array<[number, number, 'in' | 'edge' | 'out']>) => {
      const out: Record<number, 'in' | 'edge' | 'out'> = {};
      for (const [from, to, z] of spec) for (let s = from; s <= to; s += 5) out[s] = z;
      return out;
    };

    it('enters after the dwell and leaves after the dwell beyond, from the given classification, not the distance', () => {
      const zones = zonesOf([
        [0, 55, 'out'],
        [60, 300, 'in'],
        [305, 500, 'out'],
      ]);
      // the fixes' positions (all 5000 m away) are not what decides
      const out = evaluateGeofences({}, [classifiedBy(zones)], run(0, 500, 5000), RULES);
      expect(out.transitions).toEqual([
        { key: 'z:1', kind: 'in', ts: T0 + 60_000 },
        { key: 'z:1', kind: 'out', ts: T0 + 305_000, inTs: T0 + 60_000 },
      ]);
    });

    it('edge fixes (the band outside the polygon) keep a member in and never start an entry', () => {
      const zones = zonesOf([
        [0, 100, 'edge'],
        [105, 200, 'in'],
        [205, 400, 'edge'],
        [405, 420, 'in'],
      ]);
      const out = evaluateGeofences({}, [classifiedBy(zones)], run(0, 420, 0), RULES);
      expect(out.transitions).toEqual([{ key: 'z:1', kind: 'in', ts: T0 + 105_000 }]);
      expect(out.states['z:1']).toMatchObject({ inside: true, inTs: T0 + 105_000 });
    });

    it('maxAcc drops inaccurate fixes; without it every fix counts; an infinite gap never closes a visit', () => {
      const zones = zonesOf([[0, 100, 'in']]);
      expect(evaluateGeofences({}, [classifiedBy(zones, 50)], run(0, 100, 0, 5, 80), RULES).transitions).toEqual([]);
      expect(evaluateGeofences({}, [classifiedBy(zones)], run(0, 100, 0, 5, 80), RULES).transitions).toHaveLength(1);
      const inside = { 'z:1': { inside: true, inTs: T0, runTs: null, lastInTs: T0, lastTs: T0 } };
      const later = [{ ...fixAt(0, 0), ts: T0 + 5 * 3_600_000 }];
      const never = evaluateGeofences(inside, [{ key: 'z:1', classify: () => 'in' as const }], later, { ...RULES, gapMs: Infinity });
      expect(never.transitions).toEqual([]);
      const gap = evaluateGeofences(inside, [{ key: 'z:1', classify: () => 'in' as const }], later, RULES);
      expect(gap.transitions[0]).toMatchObject({ kind: 'out', gap: true });
    });

    it('runs beside circular fences in one call', () => {
      const zones = zonesOf([[0, 100, 'in']]);
      const out = evaluateGeofences({}, [place, classifiedBy(zones)], run(0, 100, 10), RULES);
      expect(out.transitions.map((t) => t.key).sort()).toEqual(['p:1', 'z:1']);
    });
  });

  describe('properties', () => {
    const arbFixes = fc
      .array(
        fc.record({
          dt: fc.integer({ min: 1, max: 40 * 60 }),
          m: fc.double({ min: 0, max: 400, noNaN: true }),
          acc: fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
          azi: fc.integer({ min: 0, max: 359 }),
        }),
        { maxLength: 120 },
      )
      .map((steps) => {
        let s = 0;
        return steps.map((x) => {
          s += x.dt;
          return fixAt(s, x.m, x.acc, x.azi);
        });
      });
    const arbRules = fc.record({ dwellMs: fc.integer({ min: 0, max: 300_000 }), gapMs: fc.constant(VISIT_GAP_MS) });

    it('entries and exits alternate, start with an entry, and are non-decreasing in ts per fence', () => {
      fc.assert(
        fc.property(arbFixes, arbRules, (fixes, rules) => {
          const out = evaluateGeofences({}, [place], fixes, rules);
          let inside = false;
          let last = -Infinity;
          for (const t of out.transitions) {
            expect(t.kind).toBe(inside ? 'out' : 'in');
            expect(t.ts).toBeGreaterThanOrEqual(last);
            if (t.kind === 'out') expect(t.ts).toBeGreaterThanOrEqual(t.inTs!);
            inside = !inside;
            last = t.ts;
          }
          expect(Boolean(out.states['p:1']?.inside)).toBe(inside);
        }),
        { numRuns: 300 },
      );
    });

    it('any split of the fixes into batches gives the same transitions as one batch', () => {
      fc.assert(
        fc.property(arbFixes, fc.array(fc.nat(), { maxLength: 5 }), arbRules, (fixes, cuts, rules) => {
          const whole = evaluateGeofences({}, [place], fixes, rules);
          const points = [...new Set(cuts.map((c) => (fixes.length ? c % fixes.length : 0)))].sort((a, b) => a - b);
          let states: Record<string, FenceState> = {};
          const transitions = [];
          let from = 0;
          for (const to of [...points, fixes.length]) {
            const out = evaluateGeofences(states, [place], fixes.slice(from, to), rules);
            states = out.states;
            transitions.push(...out.transitions);
            from = to;
          }
          expect(transitions).toEqual(whole.transitions);
          expect(states).toEqual(whole.states);
        }),
        { numRuns: 300 },
      );
    });

    it('an entry needs a counted fix inside at its ts, and fixes in the ring or inaccurate fixes never start one', () => {
      fc.assert(
        fc.property(arbFixes, arbRules, (fixes, rules) => {
          const out = evaluateGeofences({}, [place], fixes, rules);
          for (const t of out.transitions.filter((x) => x.kind === 'in')) {
            const fix = fixes.find((f) => f.ts === t.ts)!;
            expect(distanceM(fix, CENTER)).toBeLessThanOrEqual(place.radius);
            expect(fix.acc === null || fix.acc <= place.radius).toBe(true);
          }
        }),
        { numRuns: 300 },
      );
    });
  });
});
