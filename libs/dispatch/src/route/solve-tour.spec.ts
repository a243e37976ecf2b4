import fc from 'fast-check';
import { DistanceMatrix } from '../types';
import { iteratedLocalSearch, nearestNeighbourTwoOpt, solveTour, tourLength } from './index';
import { geodesicMatrix } from './matrix';
import { distanceM, haversineM } from '@app/core/pure';

/** Euclidean matrix of integer-ish points (so ties happen, as in real data). */
function euclid(points: Array<[number, number]>): DistanceMatrix {
  const n = points.length;
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) d[i * n + j] = Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]);
  return { n, d };
}

/**
 * Held–Karp written here, independent of the solver's: the optimal closed tour length, or the optimal
 * open path length with optional fixed first/last node (bitmask DP over "visited set, last node").
 */
function heldKarpLength(m: DistanceMatrix, kind: 'closed' | 'path', start?: number, end?: number): number {
  const { n, d } = m;
  if (n === 1) return 0;
  const full = 1 << n;
  const dp: number[][] = Array.from({ length: full }, () => new Array<number>(n).fill(Infinity));
  const firsts = kind === 'closed' ? [0] : start !== undefined ? [start] : [...Array(n).keys()];
  for (const f of firsts) dp[1 << f][f] = 0;
  for (let mask = 1; mask < full; mask++)
    for (let j = 0; j < n; j++) {
      const v = dp[mask][j];
      if (v === Infinity || !(mask & (1 << j))) continue;
      for (let k = 0; k < n; k++) if (!(mask & (1 << k))) dp[mask | (1 << k)][k] = Math.min(dp[mask | (1 << k)][k], v + d[j * n + k]);
    }
  let best = Infinity;
  for (let j = 0; j < n; j++) {
    if (kind === 'path' && end !== undefined && j !== end) continue;
    best = Math.min(best, dp[full - 1][j] + (kind === 'closed' ? d[j * n] : 0));
  }
  return best;
}

const isPermutation = (order: number[], n: number) => order.length === n && new Set(order).size === n && order.every((x) => Number.isInteger(x) && x >= 0 && x < n);
const pointsArb = (min: number, max: number) =>
  fc.array(fc.tuple(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 })), { minLength: min, maxLength: max });

describe('solveTour', () => {
  it('returns a permutation; a closed tour starts at `start`; its length is the order\'s', () => {
    fc.assert(
      fc.property(pointsArb(1, 60), fc.nat(), fc.nat(), (pts, s, seed) => {
        const m = euclid(pts);
        const start = s % m.n;
        const r = solveTour(m, { kind: 'closed', start, budgetMs: 20, seed });
        expect(isPermutation(r.order, m.n)).toBe(true);
        expect(r.order[0]).toBe(start);
        expect(r.length).toBeCloseTo(tourLength(m, r.order, 'closed'), 6);
      }),
      { numRuns: 60 },
    );
  });

  it('an open path honours a fixed start and/or end', () => {
    fc.assert(
      fc.property(pointsArb(2, 50), fc.nat(), fc.nat(), fc.constantFrom('start', 'end', 'both', 'none'), (pts, a, b, which) => {
        const m = euclid(pts);
        const start = which === 'start' || which === 'both' ? a % m.n : undefined;
        let end = which === 'end' || which === 'both' ? b % m.n : undefined;
        if (end !== undefined && end === start) end = (end + 1) % m.n;
        const r = solveTour(m, { kind: 'path', start, end, budgetMs: 20 });
        expect(isPermutation(r.order, m.n)).toBe(true);
        if (start !== undefined) expect(r.order[0]).toBe(start);
        if (end !== undefined) expect(r.order[m.n - 1]).toBe(end);
        expect(r.length).toBeCloseTo(tourLength(m, r.order, 'path'), 6);
      }),
      { numRuns: 60 },
    );
  });

  it('is never longer than nearest neighbour + 2-opt on the same instance', () => {
    fc.assert(
      fc.property(pointsArb(13, 120), fc.nat(), (pts, seed) => {
        const m = euclid(pts);
        const r = solveTour(m, { kind: 'closed', start: 0, budgetMs: 30, seed });
        expect(r.length).toBeLessThanOrEqual(tourLength(m, nearestNeighbourTwoOpt(m, 0), 'closed') + 1e-6);
      }),
      { numRuns: 40 },
    );
  });

  it('for n ≤ 10 equals the Held–Karp optimum (closed and open, fixed ends or not)', () => {
    fc.assert(
      fc.property(pointsArb(1, 10), fc.nat(), fc.nat(), fc.constantFrom('closed', 'free', 'start', 'both'), (pts, a, b, mode) => {
        const m = euclid(pts);
        const kind = mode === 'closed' ? 'closed' : 'path';
        const start = mode === 'start' || mode === 'both' ? a % m.n : undefined;
        let end = mode === 'both' ? b % m.n : undefined;
        if (end !== undefined && end === start) end = m.n > 1 ? (end + 1) % m.n : undefined;
        const r = solveTour(m, { kind, start, end });
        expect(r.exact).toBe(true);
        expect(r.length).toBeCloseTo(heldKarpLength(m, kind, start, end), 6);
      }),
      { numRuns: 150 },
    );
  });

  it('its iterated local search alone (no exact shortcut) also finds the optimum for n ≤ 10', () => {
    fc.assert(
      fc.property(pointsArb(4, 10), fc.nat(), (pts, seed) => {
        const m = euclid(pts);
        const r = iteratedLocalSearch(m.d, m.n, { from: 0, budgetMs: 10_000, seed, stallKicks: 300 });
        expect(isPermutation(Array.from(r.tour), m.n)).toBe(true);
        expect(r.length).toBeCloseTo(heldKarpLength(m, 'closed'), 6);
      }),
      { numRuns: 100 },
    );
  });

  it('is deterministic for a seed when the stall rule (not the clock) stops it', () => {
    const pts: Array<[number, number]> = Array.from({ length: 40 }, (_, i) => [(i * 7919) % 997, (i * 104729) % 991]);
    const m = euclid(pts);
    const a = solveTour(m, { kind: 'closed', budgetMs: 10_000, seed: 7 });
    const b = solveTour(m, { kind: 'closed', budgetMs: 10_000, seed: 7 });
    expect(a.order).toEqual(b.order);
    expect(a.exact).toBe(false);
    expect(a.timeToBestMs).toBeLessThanOrEqual(a.elapsedMs);
  });

  it('reaches the proven optimum of TSPLIB ulysses22 (7013 under TSPLIB\'s GEO distance)', () => {
    // ulysses22.tsp's coordinates (DDD.MM) and TSPLIB 95's GEO function, as bench/tsplib.ts
    const v = '38.24 20.42 39.57 26.15 40.56 25.32 36.26 23.12 33.48 10.54 37.56 12.19 38.42 13.11 37.52 20.44 41.23 9.10 41.17 13.05 36.08 -5.21 38.47 15.13 38.15 15.35 37.51 15.17 35.49 14.32 39.36 19.56 38.09 24.36 36.09 23.00 40.44 13.57 40.33 14.15 40.37 14.23 37.57 22.56'.split(' ').map(Number);
    const rad = (x: number) => (3.141592 * (Math.trunc(x) + ((x - Math.trunc(x)) * 5) / 3)) / 180;
    const n = v.length / 2;
    const d = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const q1 = Math.cos(rad(v[2 * i + 1]) - rad(v[2 * j + 1]));
        const q2 = Math.cos(rad(v[2 * i]) - rad(v[2 * j]));
        const q3 = Math.cos(rad(v[2 * i]) + rad(v[2 * j]));
        d[i * n + j] = Math.trunc(6378.388 * Math.acos(0.5 * ((1 + q1) * q2 - (1 - q1) * q3)) + 1);
      }
    const r = solveTour({ n, d }, { kind: 'closed', start: 0, budgetMs: 1000, seed: 1 });
    expect(r.length).toBe(7013);
  });

  it('rejects ends outside the nodes, an end on a closed tour, and a path from a node to itself', () => {
    const m = euclid([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(() => solveTour(m, { kind: 'closed', start: 3 })).toThrow(RangeError);
    expect(() => solveTour(m, { kind: 'closed', end: 1 })).toThrow(RangeError);
    expect(() => solveTour(m, { kind: 'path', start: 1, end: 1 })).toThrow(RangeError);
    expect(solveTour({ n: 0, d: new Float64Array(0) }, { kind: 'closed' }).order).toEqual([]);
  });
});

describe('geodesicMatrix', () => {
  it('holds the WGS84 geodesic distances, symmetric with a zero diagonal', () => {
    const pts = [
      { lat: 52.52, lng: 13.405 },
      { lat: 48.8566, lng: 2.3522 },
      { lat: -33.8688, lng: 151.2093 },
      { lat: 52.52, lng: 13.405 },
    ];
    const m = geodesicMatrix(pts);
    for (let i = 0; i < 4; i++)
      for (let j = 0; j < 4; j++) {
        expect(m.d[i * 4 + j]).toBeCloseTo(i === j ? 0 : distanceM(pts[i], pts[j]), 6);
        expect(m.d[i * 4 + j]).toBe(m.d[j * 4 + i]);
      }
    expect(Math.abs(m.d[1] / haversineM(pts[0], pts[1]) - 1)).toBeLessThan(0.005); // the sphere is within 0.5 %
  });
});
