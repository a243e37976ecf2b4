import fc from 'fast-check';
import { ASSIGN_REASONS, AssignInput, assignJobs, AssignJob, AssignWorker } from './assign-jobs';

const point = fc.record({ lat: fc.double({ min: 45, max: 46, noNaN: true }), lng: fc.double({ min: 15, max: 16.5, noNaN: true }) });
const maybePoint = fc.option(point, { freq: 6 });
const cap = fc.option(fc.integer({ min: 0, max: 12 }), { freq: 3 });
const existing = fc.array(fc.record({ point: maybePoint, pickup: fc.integer({ min: 0, max: 3 }), dropoff: fc.integer({ min: 0, max: 3 }) }), {
  maxLength: 3,
});

const instance = fc
  .record({
    workers: fc.array(
      fc.record({ start: maybePoint, end: fc.option(point, { freq: 4 }), pickupCapacity: cap, dropoffCapacity: cap, existing }),
      { minLength: 0, maxLength: 6 },
    ),
    jobs: fc.array(
      fc.record({
        point: maybePoint,
        pickup: fc.integer({ min: 0, max: 3 }),
        dropoff: fc.integer({ min: 0, max: 3 }),
        eligible: fc.option(fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 4 }), { freq: 3 }),
      }),
      { maxLength: 30 },
    ),
    method: fc.constantFrom<AssignInput['method']>('distance', 'size', 'zones'),
    seed: fc.integer({ min: 1, max: 1000 }),
  })
  .map(({ workers, jobs, method, seed }) => ({
    method,
    seed,
    budgetMs: 2000,
    workers: workers.map((w, i): AssignWorker => ({ id: `w${i}`, ...w })),
    // eligible ids 6 and 7 never exist: unknown ids are ignored
    jobs: jobs.map((j, i): AssignJob => ({ id: `j${i}`, ...j, eligible: j.eligible?.map((k) => `w${k}`) ?? null })),
  }));

const reasons = new Set<string>(Object.values(ASSIGN_REASONS));

describe('assignJobs: properties on random instances', () => {
  it('every job in exactly one of assigned/unassigned; only listed, eligible workers; capacities never exceeded; routes match', () => {
    fc.assert(
      fc.property(instance, (input) => {
        const out = assignJobs(input);
        const ids = new Set(input.workers.map((w) => w.id));
        const pick = new Map(input.workers.map((w) => [w.id, 0]));
        const drop = new Map(input.workers.map((w) => [w.id, 0]));
        for (const job of input.jobs) {
          const a = out.assigned[job.id];
          const u = out.unassigned[job.id];
          expect((a === undefined) !== (u === undefined)).toBe(true);
          if (u !== undefined) {
            expect(reasons.has(u)).toBe(true);
            if (!job.point && input.method !== 'size') expect(u).toBe(ASSIGN_REASONS.noCoordinates);
            continue;
          }
          expect(ids.has(a)).toBe(true);
          if (job.eligible) expect(job.eligible).toContain(a);
          if (input.method !== 'size') expect(job.point).not.toBeNull();
          pick.set(a, pick.get(a)! + job.pickup);
          drop.set(a, drop.get(a)! + job.dropoff);
        }
        expect(Object.keys(out.assigned).length + Object.keys(out.unassigned).length).toBe(input.jobs.length);
        for (const w of input.workers) {
          const basePick = w.existing.reduce((s, e) => s + e.pickup, 0);
          const baseDrop = w.existing.reduce((s, e) => s + e.dropoff, 0);
          if (w.pickupCapacity !== null && pick.get(w.id)! > 0) expect(basePick + pick.get(w.id)!).toBeLessThanOrEqual(w.pickupCapacity);
          if (w.dropoffCapacity !== null && drop.get(w.id)! > 0) expect(baseDrop + drop.get(w.id)!).toBeLessThanOrEqual(w.dropoffCapacity);
          const mine = input.jobs.filter((j) => out.assigned[j.id] === w.id).map((j) => j.id);
          expect([...out.routes[w.id]].sort()).toEqual(mine.sort());
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 300) },
    );
  });

  it('the improvement never makes the objective worse than the construction, and a seed gives one answer', () => {
    fc.assert(
      fc.property(instance, (input) => {
        const out = assignJobs(input);
        expect(out.objectiveM).toBeLessThanOrEqual(out.constructionObjectiveM + 1e-6);
        const built = assignJobs({ ...input, budgetMs: 0 });
        expect(built.objectiveM).toBeCloseTo(out.constructionObjectiveM, 6);
        expect(built.moves).toBe(0);
        if (out.converged) expect(assignJobs(input)).toMatchObject({ assigned: out.assigned, routes: out.routes });
      }),
      { numRuns: 150 },
    );
  });

  it('size evens the day counts: a worker that got new jobs has at most one more than any worker with room', () => {
    const sizeInstance = fc
      .record({
        caps: fc.array(fc.option(fc.integer({ min: 0, max: 10 }), { freq: 2 }), { minLength: 1, maxLength: 7 }),
        existing: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 7, maxLength: 7 }),
        jobs: fc.array(fc.tuple(maybePoint, fc.integer({ min: 0, max: 1 })), { maxLength: 40 }),
        starts: fc.array(point, { minLength: 7, maxLength: 7 }),
      })
      .map(({ caps, existing: ex, jobs, starts }) => ({
        method: 'size' as const,
        budgetMs: 2000,
        workers: caps.map(
          (c, i): AssignWorker => ({
            id: `w${i}`,
            start: starts[i],
            pickupCapacity: c,
            dropoffCapacity: null,
            existing: Array.from({ length: ex[i] }, () => ({ point: starts[i], pickup: 0, dropoff: 0 })),
          }),
        ),
        jobs: jobs.map(([p, pickup], i): AssignJob => ({ id: `j${i}`, point: p, pickup, dropoff: 0 })),
      }));
    fc.assert(
      fc.property(sizeInstance, (input) => {
        const out = assignJobs(input);
        const total = new Map(input.workers.map((w) => [w.id, w.existing.length]));
        const got = new Map(input.workers.map((w) => [w.id, 0]));
        const used = new Map(input.workers.map((w) => [w.id, 0]));
        for (const j of input.jobs) {
          const w = out.assigned[j.id];
          if (!w) continue;
          total.set(w, total.get(w)! + 1);
          got.set(w, got.get(w)! + 1);
          used.set(w, used.get(w)! + j.pickup);
        }
        const hasRoom = (w: AssignWorker) => w.pickupCapacity === null || used.get(w.id)! < w.pickupCapacity;
        for (const a of input.workers) {
          if (!got.get(a.id)) continue;
          for (const b of input.workers) if (hasRoom(b)) expect(total.get(a.id)!).toBeLessThanOrEqual(total.get(b.id)! + 1);
        }
        // jobs are unassigned only when no worker has room for them
        for (const j of input.jobs) if (out.unassigned[j.id]) expect(j.pickup > 0 && !input.workers.some(hasRoom)).toBe(true);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 300) },
    );
  });
});

describe('assignJobs: cases', () => {
  const at = (lat: number, lng: number) => ({ lat, lng });
  const worker = (id: string, start: { lat: number; lng: number } | null, capacity: number | null = null): AssignWorker => ({
    id,
    start,
    pickupCapacity: capacity,
    dropoffCapacity: null,
    existing: [],
  });

  it('gives each job to the worker nearby when capacities allow', () => {
    const workers = [worker('zagreb', at(45.81, 15.98)), worker('split', at(43.51, 16.44))];
    const jobs: AssignJob[] = [
      { id: 'a', point: at(45.8, 15.95), pickup: 1, dropoff: 0 },
      { id: 'b', point: at(43.52, 16.46), pickup: 1, dropoff: 0 },
      { id: 'c', point: at(45.83, 16.01), pickup: 1, dropoff: 0 },
    ];
    const out = assignJobs({ jobs, workers, method: 'distance' });
    expect(out.assigned).toEqual({ a: 'zagreb', b: 'split', c: 'zagreb' });
    expect(out.unassigned).toEqual({});
  });

  it('answers the reasons: no coordinates, capacity, zones, no worker', () => {
    const workers = [worker('w1', at(45.8, 15.9), 1)];
    workers[0].existing = [{ point: null, pickup: 1, dropoff: 0 }];
    const jobs: AssignJob[] = [
      { id: 'nowhere', point: null, pickup: 0, dropoff: 0 },
      { id: 'heavy', point: at(45.8, 15.95), pickup: 1, dropoff: 0 },
      { id: 'zoned', point: at(45.8, 15.95), pickup: 0, dropoff: 0, eligible: ['other'] },
      { id: 'light', point: at(45.8, 15.95), pickup: 0, dropoff: 2 },
    ];
    const out = assignJobs({ jobs, workers, method: 'zones' });
    expect(out.unassigned).toEqual({
      nowhere: ASSIGN_REASONS.noCoordinates,
      heavy: ASSIGN_REASONS.pickup,
      zoned: ASSIGN_REASONS.noZoneWorker,
    });
    expect(out.assigned).toEqual({ light: 'w1' });
    expect(assignJobs({ jobs, workers: [], method: 'distance' }).unassigned.heavy).toBe(ASSIGN_REASONS.noWorker);
    workers[0].dropoffCapacity = 1;
    expect(assignJobs({ jobs, workers, method: 'distance' }).unassigned.light).toBe(ASSIGN_REASONS.dropoff);
  });

  it('treats non-finite coordinates as none (a job: no coordinates; a start: free)', () => {
    const workers = [worker('w', { lat: NaN, lng: 15 })];
    const jobs: AssignJob[] = [
      { id: 'bad', point: { lat: 45, lng: Infinity }, pickup: 0, dropoff: 0 },
      { id: 'ok', point: at(45, 15), pickup: 0, dropoff: 0 },
    ];
    const out = assignJobs({ jobs, workers, method: 'distance' });
    expect(out).toMatchObject({ assigned: { ok: 'w' }, unassigned: { bad: ASSIGN_REASONS.noCoordinates }, objectiveM: 0 });
  });

  it('size assigns jobs without coordinates to the worker with the fewest jobs', () => {
    const workers = [worker('busy', at(45.8, 15.9)), worker('idle', at(45.8, 15.9))];
    workers[0].existing = [{ point: at(45.8, 15.9), pickup: 0, dropoff: 0 }];
    const out = assignJobs({ jobs: [{ id: 'x', point: null, pickup: 0, dropoff: 0 }], workers, method: 'size' });
    expect(out.assigned).toEqual({ x: 'idle' });
  });

  it('under tight capacities regret insertion keeps the far job for the worker that must take it', () => {
    // two workers of capacity 2; greedy nearest-first would give w1 both near jobs and send w2 across
    const workers = [worker('w1', at(45.0, 15.0), 2), worker('w2', at(45.0, 16.0), 2)];
    const jobs: AssignJob[] = [
      { id: 'n1', point: at(45.0, 15.1), pickup: 1, dropoff: 0 },
      { id: 'mid', point: at(45.0, 15.45), pickup: 1, dropoff: 0 },
      { id: 'n2', point: at(45.0, 15.9), pickup: 1, dropoff: 0 },
      { id: 'n3', point: at(45.0, 15.95), pickup: 1, dropoff: 0 },
    ];
    const out = assignJobs({ jobs, workers, method: 'distance' });
    expect(out.assigned).toEqual({ n1: 'w1', mid: 'w1', n2: 'w2', n3: 'w2' });
  });
});
