import { zonedDayTimeToMs } from '@app/core/pure';
import { countJob, JobCounts, statisticsRow } from './statistics';
import { clockedIntervals, daysSpan } from './time-accounting';
import type { TrackSpan, Visit } from './time-data';

const LJ = 'Europe/Ljubljana';
const D = 20260615;
const at = (hh: number, mm: number, day = D) => zonedDayTimeToMs(day, hh * 60 + mm, LJ);

function visit(kind: 'job' | 'place', start: number, end: number): Visit {
  return { kind, inTs: start, outTs: end, start, end, jobId: kind === 'job' ? 'j' : null, placeId: null, jobTitle: null, placeName: null, address: null };
}

describe('countJob', () => {
  const none = (): JobCounts => ({ jobs: 0, ontime: 0, delays: 0, success: 0, issues: 0 });
  const job = (tsCheckIn: number, windowStart = 900, windowEnd = 1000) => ({ day: D, windowStart, windowEnd, tsCheckIn, tsDoneSuccess: 0, tsDoneFailed: 0 });

  it('on time within [start, end] (both ends), delayed after the end, neither before the start or unchecked', () => {
    const c = none();
    countJob(c, job(at(9, 0)), LJ);
    countJob(c, job(at(10, 0)), LJ);
    countJob(c, job(at(10, 0) + 1), LJ);
    countJob(c, job(at(8, 59)), LJ);
    countJob(c, job(0), LJ);
    expect(c).toEqual({ jobs: 5, ontime: 2, delays: 1, success: 0, issues: 0 });
  });

  it('no window: neither; an end of 0 with a start means the end of the day; outcomes counted', () => {
    const c = none();
    countJob(c, job(at(9, 0), 0, 0), LJ);
    countJob(c, job(at(23, 0), 1400, 0), LJ);
    countJob(c, { ...job(0), tsDoneSuccess: 1 }, LJ);
    countJob(c, { ...job(0), tsDoneFailed: 1 }, LJ);
    expect(c).toEqual({ jobs: 4, ontime: 1, delays: 0, success: 1, issues: 1 });
  });
});

describe('statisticsRow', () => {
  it('computes every key from the member data of the span', () => {
    const span = daysSpan(D, D, LJ);
    const clocked = clockedIntervals(
      false,
      [
        { ts: at(8, 0), tracking: true },
        { ts: at(12, 0), tracking: false },
        { ts: at(13, 0), tracking: true },
        { ts: at(17, 0), tracking: false },
      ],
      span,
      1e15,
    );
    const visits = [visit('job', at(9, 0), at(10, 0)), visit('job', at(10, 30), at(11, 0)), visit('place', at(14, 0), at(16, 0))];
    const tracks: TrackSpan[] = [
      { start: at(8, 30), end: at(9, 0), distance: 18_000, speedMax: 20 },
      { start: at(13, 0), end: at(13, 30), distance: 9_000, speedMax: 12.5 },
      { start: at(7, 0, 20260614), end: at(8, 0, 20260614), distance: 50_000, speedMax: 40 }, // before the span: not counted
    ];
    const jobs = { jobs: 3, ontime: 1, delays: 1, success: 2, issues: 1 };
    const row = statisticsRow('Ana', span, LJ, clocked, visits, tracks, jobs);
    expect(row.values).toEqual({
      member: 'Ana',
      distance: 27_000,
      speed: 27_000 / 3600,
      maxspeed: 20,
      tracks: 2,
      jobs: 3,
      ontime: 1,
      delays: 1,
      success: 2,
      issues: 1,
      engagement: 18.8, // 1.5 h of 8 h
      totalJobOnsite: 5400,
      avgJobOnsite: 2700,
      totalPlaceOnsiteTime: 7200,
      avgPlaceOnsiteTime: 7200,
      totalPauseTime: 3600,
      avgPauseTime: 3600,
      totalTravelTime: 3600,
      avgTravelTime: 1800,
      totalTimeBetweenJobs: 1800,
      avgTimeBetweenJobs: 1800,
    });
  });

  it('nothing recorded: zero totals, empty averages and engagement', () => {
    const span = daysSpan(D, D, LJ);
    const row = statisticsRow('Bo', span, LJ, { intervals: [], openAtEnd: false }, [], [], { jobs: 0, ontime: 0, delays: 0, success: 0, issues: 0 });
    expect(row.values).toMatchObject({ distance: 0, speed: null, maxspeed: null, tracks: 0, engagement: null, avgJobOnsite: null, totalPauseTime: 0, avgPauseTime: null });
  });
});
