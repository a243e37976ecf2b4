import fc from 'fast-check';
import { PairSearch } from './pair-search';
import { cheapestInsertion, improvePath, pathLength, PathRoute } from './path-route';
import { SphereMetric } from './sphere-metric';

const point = fc.record({ lat: fc.double({ min: 44, max: 46, noNaN: true }), lng: fc.double({ min: 14, max: 17, noNaN: true }) });

/** Two routes over distinct nodes 0..k-1; start/end nodes may be absent (-1). */
const twoRoutes = fc
  .tuple(fc.array(point, { minLength: 6, maxLength: 16 }), fc.boolean(), fc.boolean(), fc.boolean(), fc.integer({ min: 0, max: 100 }))
  .map(([pts, startA, startB, endB, cut]) => {
    const m = new SphereMetric(pts);
    const free = pts.map((_, i) => i);
    const take = () => free.shift()!;
    const sa = startA ? take() : -1;
    const sb = startB ? take() : -1;
    const eb = endB ? take() : -1;
    const split = free.length ? cut % (free.length + 1) : 0;
    const a: PathRoute = { start: sa, end: -1, nodes: free.slice(0, split) };
    const b: PathRoute = { start: sb, end: eb, nodes: free.slice(split) };
    return { m, a, b, n: pts.length };
  });

const without = (r: PathRoute, i: number): PathRoute => ({ ...r, nodes: r.nodes.filter((_, k) => k !== i) });
const withAt = (r: PathRoute, p: number, v: number): PathRoute => ({ ...r, nodes: [...r.nodes.slice(0, p), v, ...r.nodes.slice(p)] });
const bestInto = (m: SphereMetric, r: PathRoute, v: number) => {
  let best = Infinity;
  for (let p = 0; p <= r.nodes.length; p++) best = Math.min(best, pathLength(m, withAt(r, p, v)));
  return best;
};

describe('cheapestInsertion', () => {
  it('finds the position that lengthens the path least', () => {
    fc.assert(
      fc.property(twoRoutes, ({ m, a, b }) => {
        if (!a.nodes.length) return;
        const v = a.nodes[0];
        const { pos, cost } = cheapestInsertion(m, b, v);
        expect(pathLength(m, withAt(b, pos, v)) - pathLength(m, b)).toBeCloseTo(cost, 6);
        expect(pathLength(m, withAt(b, pos, v))).toBeCloseTo(bestInto(m, b, v), 6);
      }),
      { numRuns: 100 },
    );
  });
});

describe('improvePath (2-opt + Or-opt)', () => {
  it('never lengthens a path, keeps its nodes, start and end', () => {
    fc.assert(
      fc.property(twoRoutes, ({ m, b }) => {
        const before = pathLength(m, b);
        const r = { ...b, nodes: [...b.nodes] };
        const saved = improvePath(m, r);
        expect([...r.nodes].sort((x, y) => x - y)).toEqual([...b.nodes].sort((x, y) => x - y));
        expect(r.start).toBe(b.start);
        expect(r.end).toBe(b.end);
        expect(pathLength(m, r)).toBeLessThanOrEqual(before + 1e-6);
        expect(before - pathLength(m, r)).toBeCloseTo(saved, 3);
      }),
      { numRuns: 150 },
    );
  });
});

describe('PairSearch (relocate and exchange between two routes)', () => {
  it('finds the best relocate/exchange by brute force, and applying it changes the length by its delta', () => {
    fc.assert(
      fc.property(twoRoutes, ({ m, a, b, n }) => {
        const isNew = () => true;
        const nodeJob = Array.from({ length: n }, (_, i) => i);
        const zero = new Float64Array(n);
        const search = new PairSearch(m, isNew, nodeJob, zero, zero);
        const inf = Float64Array.from([Infinity, Infinity]);
        const mv = search.best(a, b, 0, 1, inf, Float64Array.from(inf), Int32Array.from([a.nodes.length, b.nodes.length]), false);
        const base = pathLength(m, a) + pathLength(m, b);
        let brute = 0;
        for (let i = 0; i < a.nodes.length; i++) brute = Math.min(brute, pathLength(m, without(a, i)) + bestInto(m, b, a.nodes[i]) - base);
        for (let q = 0; q < b.nodes.length; q++) brute = Math.min(brute, pathLength(m, without(b, q)) + bestInto(m, a, b.nodes[q]) - base);
        for (let i = 0; i < a.nodes.length; i++) {
          for (let q = 0; q < b.nodes.length; q++) {
            const d = bestInto(m, without(a, i), b.nodes[q]) + bestInto(m, without(b, q), a.nodes[i]) - base;
            brute = Math.min(brute, d);
          }
        }
        if (brute > -1e-3) {
          expect(mv === null || mv.delta > -1e-3).toBe(true);
          return;
        }
        expect(mv).not.toBeNull();
        expect(mv!.delta).toBeCloseTo(brute, 3);
        const ra = { ...a, nodes: [...a.nodes] };
        const rb = { ...b, nodes: [...b.nodes] };
        search.apply(mv!, ra, rb, 0, 1, Float64Array.from(inf), Float64Array.from(inf), Int32Array.from([0, 0]), new Int32Array(n));
        expect(pathLength(m, ra) + pathLength(m, rb) - base).toBeCloseTo(mv!.delta, 3);
      }),
      { numRuns: 150 },
    );
  });
});
