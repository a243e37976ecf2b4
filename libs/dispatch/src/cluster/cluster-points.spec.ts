import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import type { GeoPoint } from '../types';
import { balancedCapacity, balancedKMeans, capacitatedAssign, randomSwap } from './balance';
import { clusterPoints } from './cluster-points';
import { chord2 } from './kmeans';
import { mulberry32 } from '../random';
import { sphericalMean, toUnitVectors } from './sphere';
import { renderClusterSvg, scaleBar } from './svg';

const point = fc.record({ lat: fc.double({ min: 42, max: 47, noNaN: true }), lng: fc.double({ min: 13, max: 20, noNaN: true }) });
const sizesOf = (a: number[], k: number) => a.reduce((s, x) => (s[x]++, s), new Array<number>(k).fill(0));

/** Gaussian blobs of `per` points around `centres`, σ ≈ sigmaKm. */
function blobs(centres: GeoPoint[], per: number, sigmaKm: number, seed: number): { points: GeoPoint[]; truth: number[] } {
  const r = mulberry32(seed);
  const g = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const points: GeoPoint[] = [];
  const truth: number[] = [];
  centres.forEach((c, j) => {
    for (let i = 0; i < per; i++) {
      points.push({ lat: c.lat + (g() * sigmaKm) / 111, lng: c.lng + (g() * sigmaKm) / (111 * Math.cos((c.lat * Math.PI) / 180)) });
      truth.push(j);
    }
  });
  return { points, truth };
}

describe('clusterPoints', () => {
  it('partitions every point into exactly k non-empty clusters; size respects ⌈1.1·n/k⌉', () => {
    fc.assert(
      fc.property(
        fc.array(point, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 60 }),
        fc.constantFrom('distance', 'size'),
        (pts, kRaw, method) => {
          const k = 1 + (kRaw % pts.length);
          const res = clusterPoints(pts, { k, method: method as 'distance' | 'size', seed: 3, restarts: 2 });
          expect(res.assignment).toHaveLength(pts.length);
          const sizes = sizesOf(res.assignment, k);
          expect(sizes.every((s) => s > 0)).toBe(true);
          expect(res.centers).toHaveLength(k);
          if (method === 'size') expect(Math.max(...sizes)).toBeLessThanOrEqual(balancedCapacity(pts.length, k));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('answers k non-empty clusters for duplicate points', () => {
    const pts = Array.from({ length: 10 }, () => ({ lat: 45.8, lng: 15.97 }));
    for (const method of ['distance', 'size'] as const) {
      const res = clusterPoints(pts, { k: 4, method, seed: 1 });
      expect(sizesOf(res.assignment, 4).every((s) => s > 0)).toBe(true);
      expect(res.sse).toBeCloseTo(0, 6);
    }
  });

  it('centres are the clusters’ spherical means', () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 3, maxLength: 40 }), fc.constantFrom('distance', 'size'), (pts, method) => {
        const k = Math.min(3, pts.length);
        const res = clusterPoints(pts, { k, method: method as 'distance' | 'size', seed: 7, restarts: 2 });
        for (let j = 0; j < k; j++) {
          const m = sphericalMean(pts.filter((_, i) => res.assignment[i] === j));
          expect(res.centers[j].lat).toBeCloseTo(m.lat, 9);
          expect(res.centers[j].lng).toBeCloseTo(m.lng, 9);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('recovers well-separated blobs (both methods)', () => {
    const towns = [
      { lat: 45.81, lng: 15.98 },
      { lat: 43.51, lng: 16.44 },
      { lat: 45.33, lng: 14.44 },
      { lat: 45.55, lng: 18.69 },
      { lat: 42.65, lng: 18.09 },
    ];
    const { points, truth } = blobs(towns, 40, 3, 11);
    for (const method of ['distance', 'size'] as const) {
      const { assignment } = clusterPoints(points, { k: 5, method, seed: 2 });
      // same partition up to renumbering
      const map = new Map<number, number>();
      truth.forEach((t, i) => {
        if (!map.has(t)) map.set(t, assignment[i]);
        expect(assignment[i]).toBe(map.get(t));
      });
      expect(new Set(map.values()).size).toBe(5);
    }
  });

  it('is deterministic for a seed', () => {
    const { points } = blobs(
      [
        { lat: 45, lng: 15 },
        { lat: 45.3, lng: 16 },
        { lat: 44.5, lng: 15.5 },
      ],
      50,
      20,
      5,
    );
    for (const method of ['distance', 'size'] as const) {
      const a = clusterPoints(points, { k: 6, method, seed: 42 });
      const b = clusterPoints(points, { k: 6, method, seed: 42 });
      expect(b).toEqual(a);
    }
  });

  it('keeps points across the antimeridian together (that is why the sphere)', () => {
    const { points, truth } = blobs(
      [
        { lat: -17, lng: 179.95 },
        { lat: -17, lng: 178 },
      ],
      30,
      4,
      9,
    );
    const wrapped = points.map((p) => ({ lat: p.lat, lng: p.lng > 180 ? p.lng - 360 : p.lng }));
    expect(wrapped.some((p) => p.lng < 0) && wrapped.some((p) => p.lng > 179.9)).toBe(true);
    const { assignment, centers } = clusterPoints(wrapped, { k: 2, method: 'distance', seed: 1 });
    const first = assignment[0];
    truth.forEach((t, i) => expect(assignment[i] === first).toBe(t === 0));
    const east = centers[first];
    expect(Math.abs(Math.abs(east.lng) - 179.95)).toBeLessThan(0.1);
  });

  it('rejects k outside 1..n', () => {
    expect(() => clusterPoints([{ lat: 1, lng: 1 }], { k: 2, method: 'distance' })).toThrow(RangeError);
    expect(() => clusterPoints([{ lat: 1, lng: 1 }], { k: 0, method: 'size' })).toThrow(RangeError);
  });
});

describe('capacitatedAssign', () => {
  it('is the exact optimum (brute force on small cases)', () => {
    for (let trial = 0; trial < 80; trial++) {
      const r = mulberry32(trial);
      const n = 2 + Math.floor(r() * 6);
      const k = 1 + Math.floor(r() * 3);
      const cap = Math.ceil(n / k) + Math.floor(r() * 2);
      const v = toUnitVectors(Array.from({ length: n }, () => ({ lat: 45 + r(), lng: 15 + r() })));
      const c = toUnitVectors(Array.from({ length: k }, () => ({ lat: 45 + r(), lng: 15 + r() })));
      let best = Infinity;
      const load = new Array<number>(k).fill(0);
      const rec = (i: number, cost: number) => {
        if (i === n) return void (best = Math.min(best, cost));
        for (let j = 0; j < k; j++)
          if (load[j] < cap) {
            load[j]++;
            rec(i + 1, cost + chord2(v, i, c, j));
            load[j]--;
          }
      };
      rec(0, 0);
      const res = capacitatedAssign(v, n, k, c, cap);
      expect(res.cost).toBeCloseTo(best, 12);
      expect(Math.max(...sizesOf(Array.from(res.assignment), k))).toBeLessThanOrEqual(cap);
    }
  });

  it('balancedCapacity is ⌈1.1·n/k⌉ in integers', () => {
    expect(balancedCapacity(100, 10)).toBe(11);
    expect(balancedCapacity(2000, 20)).toBe(110);
    expect(balancedCapacity(7, 3)).toBe(3);
  });
});

describe('randomSwap', () => {
  it('never raises the cost, keeps the capacity and every cluster, and escapes a bad start on uneven data', () => {
    // one big town and four small ones: the alternation from centres all in the big town gets stuck
    const { points } = blobs(
      [
        { lat: 45.8, lng: 16.0 },
        { lat: 43.5, lng: 16.4 },
        { lat: 45.3, lng: 14.4 },
        { lat: 45.55, lng: 18.7 },
        { lat: 42.65, lng: 18.1 },
      ],
      40,
      3,
      11,
    );
    for (let i = 0; i < 120; i++) points.push({ lat: 45.8 + ((i % 11) - 5) * 0.01, lng: 16.0 + ((i % 7) - 3) * 0.01 });
    const n = points.length;
    const k = 6;
    const v = toUnitVectors(points);
    const cap = balancedCapacity(n, k);
    const centres = toUnitVectors(Array.from({ length: k }, (_, j) => ({ lat: 45.8 + j * 0.001, lng: 16.0 })));
    const start = balancedKMeans(v, n, k, centres, cap);
    const swapped = randomSwap(v, n, k, centres.slice(), cap, start, mulberry32(5), { trials: 40 });
    expect(swapped.cost).toBeLessThan(start.cost * 0.9);
    const sizes = sizesOf(Array.from(swapped.assignment), k);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(cap);
    expect(sizes.every((s) => s > 0)).toBe(true);
    // the same seed, the same answer; no trials, the start itself
    expect(randomSwap(v, n, k, centres.slice(), cap, start, mulberry32(5), { trials: 40 }).cost).toBe(swapped.cost);
    expect(randomSwap(v, n, k, centres.slice(), cap, start, mulberry32(5), { trials: 0 })).toBe(start);
  });
});

describe('sphericalMean', () => {
  it('averages across the antimeridian to 180°, not 0°', () => {
    const m = sphericalMean([
      { lat: 0, lng: 179.9 },
      { lat: 0, lng: -179.9 },
    ]);
    expect(Math.abs(m.lng)).toBeCloseTo(180, 9);
    expect(m.lat).toBeCloseTo(0, 9);
  });
});

describe('renderClusterSvg', () => {
  it('is valid XML with k colours, k centres and a scale bar', () => {
    const { points } = blobs(
      [
        { lat: 45.8, lng: 15.97 },
        { lat: 43.5, lng: 16.44 },
        { lat: 45.33, lng: 14.44 },
        { lat: 45.55, lng: 18.69 },
      ],
      25,
      5,
      3,
    );
    const res = clusterPoints(points, { k: 4, method: 'size', seed: 1 });
    const svg = renderClusterSvg({ points, assignment: res.assignment, centers: res.centers });
    expect(XMLValidator.validate(svg)).toBe(true);
    const fills = new Set([...svg.matchAll(/<g class="cluster"[^>]* fill="([^"]+)"/g)].map((m) => m[1]));
    expect(fills.size).toBe(4);
    expect([...svg.matchAll(/<g class="centre"/g)]).toHaveLength(4);
    expect([...svg.matchAll(/<circle /g)].length).toBe(points.length + 2 * 4);
    expect(svg).toMatch(/<g class="scale"/);
    expect(svg).toMatch(/>\d+ (m|km)<\/text>/);
  });

  it('handles one point and the antimeridian', () => {
    const one = renderClusterSvg({ points: [{ lat: 10, lng: 179.99 }], assignment: [0], centers: [{ lat: 10, lng: 179.99 }] });
    expect(XMLValidator.validate(one)).toBe(true);
    const pts = [
      { lat: -17, lng: 179.9 },
      { lat: -17, lng: -179.9 },
    ];
    const svg = renderClusterSvg({ points: pts, assignment: [0, 0], centers: [sphericalMean(pts)] });
    const width = Number(/<svg[^>]* width="(\d+)"/.exec(svg)![1]);
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(width).toBeLessThan(1000);
    // 0.2° of longitude at 17° S ≈ 21 km, not 360°: the bar is a few km
    expect(svg).toMatch(/>(1|2|5) km</);
  });

  it('scale bars have round lengths', () => {
    expect(scaleBar(10_000)).toEqual({ metres: 2000, label: '2 km' });
    expect(scaleBar(2_000)).toEqual({ metres: 500, label: '500 m' });
    expect(scaleBar(3)).toEqual({ metres: 1, label: '1 m' });
  });
});
