import { byWorker, Job, jobEventEffect, jobTimeline, progressOf, routeOrder, stateOfMoving, windowText } from './model';
import { formatRoute, parseRoute } from './route';
import { dayAt, dayBounds, isoToDay, nextDay } from './time';

const job = (over: Partial<Job>): Job =>
  ({
    id: 'J',
    destinationName: 'x',
    destinationText: '',
    destinationLat: 0,
    destinationLng: 0,
    number: 0,
    day: 20261127,
    windowStart: 0,
    windowEnd: 0,
    priority: 0,
    onSiteSeconds: 0,
    teamId: 0,
    contactName: '',
    contactPhone: '',
    textDispatcher: '',
    textReceiver: '',
    tsCreated: 1,
    tsAssigned: 0,
    tsAccepted: 0,
    tsRejected: 0,
    tsDoneSuccess: 0,
    tsDoneFailed: 0,
    tsCheckIn: 0,
    tsCheckOut: 0,
    ...over,
  }) as Job;

describe('console model', () => {
  it('progress follows the connector’s precedence', () => {
    expect(progressOf(job({}))).toBe('scheduled');
    expect(progressOf(job({ tsAccepted: 1 }))).toBe('accepted');
    expect(progressOf(job({ tsAccepted: 1, tsCheckIn: 2 }))).toBe('started');
    expect(progressOf(job({ tsCheckIn: 2, tsRejected: 3 }))).toBe('rejected');
    expect(progressOf(job({ tsRejected: 3, tsDoneFailed: 4 }))).toBe('failed');
    expect(progressOf(job({ tsDoneFailed: 4, tsDoneSuccess: 5 }))).toBe('success');
  });

  it('states.moving maps as the server maps it', () => {
    expect(['moving', 'stopped', 'offline', '', undefined].map(stateOfMoving)).toEqual(['moving', 'halted', 'stale', 'off', 'off']);
  });

  it('route order: number, unnumbered last, then window and id; jobs grouped by worker', () => {
    const jobs = [
      job({ id: 'c', number: 0, worker: 'Ana' }),
      job({ id: 'b', number: 2, worker: 'ana' }),
      job({ id: 'a', number: 1, worker: 'ana' }),
      job({ id: 'u' }),
    ];
    expect(routeOrder(jobs).map((j) => j.id)).toEqual(['a', 'b', 'c', 'u']);
    const { workers, unassigned } = byWorker(jobs);
    expect(workers.get('ana')!.map((j) => j.id)).toEqual(['a', 'b', 'c']);
    expect(unassigned.map((j) => j.id)).toEqual(['u']);
  });

  it('a job event upserts jobs of the day shown and removes deleted, archived and moved ones', () => {
    expect(jobEventEffect('jobupdated', job({}), 20261127)).toBe('upsert');
    expect(jobEventEffect('jobupdated', job({ day: 20261128 }), 20261127)).toBe('remove');
    expect(jobEventEffect('jobdeleted', job({}), 20261127)).toBe('remove');
    expect(jobEventEffect('jobupdated', job({ status: 'archived' }), 20261127)).toBe('remove');
  });

  it('windows and timelines read as a dispatcher reads them', () => {
    expect(windowText(800, 1000)).toBe('08:00–10:00');
    expect(windowText(0, 2400)).toBe('until 24:00');
    expect(windowText(0, 0)).toBe('');
    expect(
      jobTimeline(job({ tsCreated: 1, tsCheckIn: 5 }), [
        { action: 'jobcheckin', ts: 5 },
        { action: 'jobupdated', ts: 3 },
      ]).map((e) => e.label),
    ).toEqual(['created', 'event jobupdated', 'checked in', 'event jobcheckin']);
  });

  it('days in the company’s zone, across a DST change', () => {
    const t = Date.UTC(2026, 2, 28, 23, 30); // 00:30 on 29 March in Zagreb (CET, +1)
    expect(dayAt(t, 'Europe/Zagreb')).toBe(20260329);
    expect(dayAt(t, 'UTC')).toBe(20260328);
    // 29 March 2026: clocks go forward at 02:00, a 23-hour day
    const { from, until } = dayBounds(20260329, 'Europe/Zagreb');
    expect(from).toBe(Date.UTC(2026, 2, 28, 23));
    expect(until - from).toBe(23 * 3_600_000);
    expect(nextDay(20261231, 1)).toBe(20270101);
    expect(isoToDay('2026-11-27')).toBe(20261127);
  });

  it('deep links round-trip', () => {
    expect(parseRoute('/console')).toEqual({ day: null, job: null, member: null });
    expect(parseRoute('/console/day/20261127/job/01ABC')).toEqual({ day: 20261127, job: '01ABC', member: null });
    expect(parseRoute('/console/elsewhere')).toEqual({ day: null, job: null, member: null });
    expect(formatRoute({ day: 20261127, job: null, member: 'M1' })).toBe('/console/day/20261127/member/M1');
  });
});
