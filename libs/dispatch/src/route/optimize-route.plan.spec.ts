import fc from 'fast-check';
import { planRoute, routeFingerprint, RouteJob, routeOrder } from './optimize-route.plan';
import { RouteEnds } from './route-ends';

const OPEN: RouteEnds = { start: null, end: null, startSource: 'open', endSource: 'open', closed: false };
const job = (id: string, lat: number | null, lng: number | null, done = 0): RouteJob => ({
  id,
  tsDoneSuccess: done,
  tsDoneFailed: 0,
  lat,
  lng,
});

describe('planRoute and routeOrder (optimizeroute’s order around the solver)', () => {
  const day = [
    job('a', 46, 14),
    job('b', null, null),
    job('c', 46.1, 14.1, 3000),
    job('d', 46.2, 14.2),
    { ...job('e', 46.3, 14.3), tsDoneFailed: 1000 },
    job('f', null, null),
    job('g', 46.4, 14.4),
  ];

  it('puts completed jobs first by completion time, routes the open ones with coordinates, keeps the rest after them in order', () => {
    const plan = planRoute(day, OPEN);
    expect(plan.completed).toEqual(['e', 'c']);
    expect(plan.routable).toEqual(['a', 'd', 'g']);
    expect(plan.unrouted).toEqual(['b', 'f']);
    expect(plan.offset).toBe(0);
    expect(plan.options).toEqual({ kind: 'path' });
    expect(routeOrder(plan, [2, 0, 1])).toEqual(['e', 'c', 'g', 'a', 'd', 'b', 'f']);
  });

  it('pins a fixed start as node 0 and a fixed end as the last node, and drops both from the answer', () => {
    const ends: RouteEnds = { ...OPEN, start: { lat: 1, lng: 1 }, end: { lat: 2, lng: 2 }, startSource: 'member', endSource: 'member' };
    const plan = planRoute(day, ends);
    expect(plan.points).toEqual([{ lat: 1, lng: 1 }, { lat: 46, lng: 14 }, { lat: 46.2, lng: 14.2 }, { lat: 46.4, lng: 14.4 }, { lat: 2, lng: 2 }]);
    expect(plan.offset).toBe(1);
    expect(plan.options).toEqual({ kind: 'path', start: 0, end: 4 });
    expect(routeOrder(plan, [0, 3, 1, 2, 4])).toEqual(['e', 'c', 'g', 'a', 'd', 'b', 'f']);
  });

  it('startEndAtCompany: a closed tour from node 0', () => {
    const plan = planRoute(day, { start: { lat: 1, lng: 1 }, end: { lat: 1, lng: 1 }, startSource: 'company', endSource: 'company', closed: true });
    expect(plan.points).toHaveLength(4);
    expect(plan.options).toEqual({ kind: 'closed', start: 0 });
    expect(routeOrder(plan, [0, 2, 3, 1])).toEqual(['e', 'c', 'd', 'g', 'a', 'b', 'f']);
  });

  it('asks no solver for at most one routable job', () => {
    const plan = planRoute([job('a', 1, 1), job('b', null, null)], { ...OPEN, start: { lat: 0, lng: 0 }, startSource: 'member' });
    expect(plan.options).toBeNull();
    expect(routeOrder(plan, null)).toEqual(['a', 'b']);
  });

  it('refuses a solver order that is not a permutation of the points', () => {
    const plan = planRoute(day, OPEN);
    expect(() => routeOrder(plan, [0, 0, 1])).toThrow('not a permutation');
    expect(() => routeOrder(plan, [0, 1])).toThrow('not a permutation');
  });

  it('property: the answer is a permutation of the day, completed first, unrouted last, for any solver permutation', () => {
    const arbJob = fc.record({
      lat: fc.option(fc.double({ min: -80, max: 80, noNaN: true }), { nil: null }),
      lng: fc.option(fc.double({ min: -170, max: 170, noNaN: true }), { nil: null }),
      done: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1e6 })),
    });
    fc.assert(
      fc.property(fc.array(arbJob, { maxLength: 30 }), fc.boolean(), fc.boolean(), fc.integer(), (specs, withStart, withEnd, seed) => {
        const jobs = specs.map((s, i) => job(`j${i}`, s.lat, s.lng, s.done));
        const ends: RouteEnds = {
          ...OPEN,
          start: withStart ? { lat: 0, lng: 0 } : null,
          end: withEnd ? { lat: 1, lng: 1 } : null,
        };
        const plan = planRoute(jobs, ends);
        // any permutation that keeps the pinned nodes where the options pin them
        const inner = [...Array(plan.routable.length).keys()].map((k) => k + plan.offset);
        let s = seed;
        for (let i = inner.length - 1; i > 0; i--) {
          s = (s * 1103515245 + 12345) & 0x7fffffff;
          const k = s % (i + 1);
          [inner[i], inner[k]] = [inner[k], inner[i]];
        }
        const order = plan.options ? [...(withStart ? [0] : []), ...inner, ...(withEnd ? [plan.points.length - 1] : [])] : null;
        const out = routeOrder(plan, order);
        expect([...out].sort()).toEqual(jobs.map((j) => j.id).sort());
        const byId = new Map(jobs.map((j) => [j.id, j]));
        const done = (id: string) => byId.get(id)!.tsDoneSuccess > 0;
        const routable = (id: string) => !done(id) && byId.get(id)!.lat !== null && byId.get(id)!.lng !== null;
        const kinds = out.map((id) => (done(id) ? 0 : routable(id) ? 1 : 2));
        expect(kinds).toEqual([...kinds].sort());
        expect(out.filter((id) => kinds[out.indexOf(id)] === 2)).toEqual(jobs.filter((j) => !done(j.id) && !routable(j.id)).map((j) => j.id));
      }),
    );
  });

  it('routeFingerprint changes with the set, a position or a completion, not with the order', () => {
    const base = routeFingerprint(day);
    expect(routeFingerprint([...day].reverse())).toBe(base);
    expect(routeFingerprint(day.slice(1))).not.toBe(base);
    expect(routeFingerprint(day.map((j) => (j.id === 'a' ? { ...j, lat: 46.0001 } : j)))).not.toBe(base);
    expect(routeFingerprint(day.map((j) => (j.id === 'a' ? { ...j, tsDoneSuccess: 5 } : j)))).not.toBe(base);
  });
});
