import { Job } from './entities/job.entity';
import { newJobState } from './job-write';
import { assignRouteNumbers, inOrder, landingDays, landsOnRoute, MAX_ROUTE_NUMBER, RouteEntry, workerDayKey } from './route-numbers';

const D1 = 20300506;
const D2 = 20300507;
let seq = 0;
function job(over: Partial<Job> = {}): Job {
  return { ...newJobState({ id: `J${++seq}`, companyId: 'C1', isTemplate: false, createdBy: 'M1', createdVia: 'api', now: 1000 }), ...over };
}
/** A write of `before` (null: a create) to the state `over` describes. */
function entry(before: Job | null, over: Partial<Job>, numberSent = false): RouteEntry {
  return { before, after: { ...(before ?? job()), ...over }, numberSent };
}
const numbers = (entries: RouteEntry[]) => entries.map((e) => e.after.number);

describe('landsOnRoute', () => {
  it('a create, an assignment, a reassignment or a move to another day lands; staying does not', () => {
    const onA = job({ workerId: 'A', day: D1, number: 3 });
    expect(landsOnRoute(entry(null, { workerId: 'A', day: D1 }))).toBe(true);
    expect(landsOnRoute(entry(job({ day: D1 }), { workerId: 'A', day: D1 }))).toBe(true);
    expect(landsOnRoute(entry(onA, { workerId: 'B' }))).toBe(true);
    expect(landsOnRoute(entry(onA, { day: D2 }))).toBe(true);
    expect(landsOnRoute(entry(onA, { destinationName: 'x' }))).toBe(false);
  });

  it('no worker, no day, a template, an archived job or a number sent: no landing', () => {
    expect(landsOnRoute(entry(null, { day: D1 }))).toBe(false);
    expect(landsOnRoute(entry(null, { workerId: 'A' }))).toBe(false);
    expect(landsOnRoute(entry(null, { workerId: 'A', day: D1, isTemplate: true }))).toBe(false);
    expect(landsOnRoute(entry(job({ archived: true }), { workerId: 'A', day: D1 }))).toBe(false);
    expect(landsOnRoute(entry(null, { workerId: 'A', day: D1, number: 9 }, true))).toBe(false);
  });
});

describe('landingDays', () => {
  it('the distinct worker-days landed on, in first-landing order', () => {
    const days = landingDays([
      entry(null, { workerId: 'B', day: D1 }),
      entry(null, { workerId: 'A', day: D1 }),
      entry(null, { workerId: 'B', day: D1 }),
      entry(null, { workerId: 'B', day: D2, number: 4 }, true),
      entry(null, { day: D2 }),
    ]);
    expect(days).toEqual([
      { workerId: 'B', day: D1 },
      { workerId: 'A', day: D1 },
    ]);
  });
});

describe('assignRouteNumbers', () => {
  it('continues each worker-day after its stored top, in the entries’ order', () => {
    const entries = [
      entry(null, { workerId: 'A', day: D1 }),
      entry(null, { workerId: 'B', day: D1 }),
      entry(null, { workerId: 'A', day: D1 }),
      entry(job({ workerId: 'C', day: D1, number: 8 }), { workerId: 'A', day: D2 }), // an old number is replaced
    ];
    assignRouteNumbers(entries, new Map([[workerDayKey('A', D1), 4]]));
    expect(numbers(entries)).toEqual([5, 1, 6, 1]);
  });

  it('a number sent wins and is counted; so are the call’s jobs staying on the worker-day', () => {
    const staying = job({ workerId: 'A', day: D1, number: 7 });
    const entries = [
      entry(null, { workerId: 'A', day: D1 }),
      entry(null, { workerId: 'A', day: D1, number: 10 }, true),
      entry(staying, { destinationName: 'renamed' }),
      entry(null, { workerId: 'A', day: D1, number: -3 }, true),
    ];
    assignRouteNumbers(entries, new Map([[workerDayKey('A', D1), 2]]));
    expect(numbers(entries)).toEqual([11, 10, 7, -3]);
  });

  it('unassigned, undated, template and archived jobs keep their number; negative tops count as 0; the top is capped', () => {
    const entries = [
      entry(job({ number: 5 }), { day: D1 }),
      entry(job({ workerId: 'A', day: D1, number: 5 }), { workerId: null }),
      entry(null, { workerId: 'A', day: D1, isTemplate: true, number: 2 }),
      entry(null, { workerId: 'N', day: D1 }),
      entry(null, { workerId: 'M', day: D1 }),
      entry(null, { workerId: 'M', day: D1 }),
    ];
    assignRouteNumbers(
      entries,
      new Map([
        [workerDayKey('N', D1), -4],
        [workerDayKey('M', D1), MAX_ROUTE_NUMBER - 1],
      ]),
    );
    expect(numbers(entries)).toEqual([5, 5, 2, 1, MAX_ROUTE_NUMBER, MAX_ROUTE_NUMBER]);
  });
});

describe('inOrder', () => {
  it('the listed indexes first, in their order, then the rest in theirs; repeats and out-of-range indexes ignored', () => {
    expect(inOrder(['a', 'b', 'c', 'd'], [2, 0, 2, 9, -1])).toEqual(['c', 'a', 'b', 'd']);
    expect(inOrder(['a', 'b'])).toEqual(['a', 'b']);
  });
});
