import { addDays } from '@app/core/pure';
import { zonedDayTimeToMs } from '@app/core/pure';
import {
  allocateIntervals,
  allocationOf,
  byDay,
  clip,
  clockedIntervals,
  daysSpan,
  intersect,
  sameDayGaps,
  splitByDay,
  subtract,
  timesheetDays,
  totalMs,
  union,
} from './time-accounting';

const H = 3_600_000;
const M = 60_000;
const LJ = 'Europe/Ljubljana';
const NY = 'America/New_York';
/** ms of `hh:mm` on `day` in `zone` (hh may be 24+ for the next day's wall clock via minutes). */
const at = (day: number, hh: number, mm: number, zone: string) => zonedDayTimeToMs(day, hh * 60 + mm, zone);
const iv = (start: number, end: number) => ({ start, end });

describe('interval algebra', () => {
  it('union joins overlapping and touching intervals, drops empty ones, sorts', () => {
    expect(union([iv(50, 60), iv(0, 10), iv(10, 20), iv(15, 30), iv(40, 40), iv(45, 44)])).toEqual([iv(0, 30), iv(50, 60)]);
    expect(union([])).toEqual([]);
  });

  it('subtract cuts holes, edges and whole intervals', () => {
    expect(subtract([iv(0, 100)], [iv(10, 20), iv(30, 40)])).toEqual([iv(0, 10), iv(20, 30), iv(40, 100)]);
    expect(subtract([iv(0, 100)], [iv(-5, 10), iv(90, 200)])).toEqual([iv(10, 90)]);
    expect(subtract([iv(0, 10), iv(20, 30)], [iv(0, 30)])).toEqual([]);
    expect(subtract([iv(0, 10)], [])).toEqual([iv(0, 10)]);
    // unsorted, overlapping cuts
    expect(subtract([iv(0, 100), iv(200, 300)], [iv(250, 260), iv(50, 70), iv(60, 80)])).toEqual([iv(0, 50), iv(80, 100), iv(200, 250), iv(260, 300)]);
  });

  it('intersect keeps the common parts', () => {
    expect(intersect([iv(0, 10), iv(20, 30)], [iv(5, 25)])).toEqual([iv(5, 10), iv(20, 25)]);
    expect(intersect([iv(0, 10)], [iv(10, 20)])).toEqual([]);
  });

  it('clip and totalMs', () => {
    expect(clip([iv(0, 10), iv(5, 50), iv(60, 70)], iv(8, 55))).toEqual([iv(8, 10), iv(8, 50)]);
    expect(totalMs([iv(0, 10), iv(5, 15), iv(20, 10)])).toBe(20);
  });
});

describe('clockedIntervals', () => {
  const span = iv(1000, 10_000);

  it('pairs ins and outs; repeated states change nothing; events outside the span are ignored', () => {
    const events = [
      { ts: 500, tracking: false },
      { ts: 2000, tracking: true },
      { ts: 2500, tracking: true },
      { ts: 3000, tracking: false },
      { ts: 3500, tracking: false },
      { ts: 4000, tracking: true },
      { ts: 5000, tracking: false },
      { ts: 20_000, tracking: true },
    ];
    expect(clockedIntervals(false, events, span, 1e12)).toEqual({ intervals: [iv(2000, 3000), iv(4000, 5000)], openAtEnd: false });
  });

  it('a clock-in before the span counts from its start', () => {
    expect(clockedIntervals(true, [{ ts: 3000, tracking: false }], span, 1e12)).toEqual({ intervals: [iv(1000, 3000)], openAtEnd: false });
  });

  it('an open clock-in counts to the span end, or to now when that is earlier', () => {
    const events = [{ ts: 8000, tracking: true }];
    expect(clockedIntervals(false, events, span, 1e12)).toEqual({ intervals: [iv(8000, 10_000)], openAtEnd: true });
    expect(clockedIntervals(false, events, span, 9000)).toEqual({ intervals: [iv(8000, 9000)], openAtEnd: true });
    expect(clockedIntervals(true, [], span, 1e12)).toEqual({ intervals: [iv(1000, 10_000)], openAtEnd: true });
  });
});

describe('days in a zone', () => {
  it('addDays crosses months and years', () => {
    expect(addDays(20261231, 1)).toBe(20270101);
    expect(addDays(20280228, 1)).toBe(20280229);
    expect(addDays(20270228, 1)).toBe(20270301);
  });

  it('daysSpan reads the dates in the given zone', () => {
    expect(daysSpan(20260601, 20260602, LJ)).toEqual(iv(Date.UTC(2026, 4, 31, 22), Date.UTC(2026, 5, 2, 22)));
    expect(daysSpan(20260601, 20260601, NY)).toEqual(iv(Date.UTC(2026, 5, 1, 4), Date.UTC(2026, 5, 2, 4)));
  });

  it('a shift crossing midnight is split at the zone midnight', () => {
    const shift = iv(at(20260610, 22, 0, LJ), at(20260611, 6, 0, LJ));
    expect(splitByDay(shift, LJ)).toEqual([
      { day: 20260610, start: shift.start, end: at(20260611, 0, 0, LJ) },
      { day: 20260611, start: at(20260611, 0, 0, LJ), end: shift.end },
    ]);
    // the same instants in New York (6 h behind) fall on one day: 16:00–24:00
    expect(splitByDay(shift, NY)).toEqual([{ day: 20260610, start: shift.start, end: shift.end }]);
  });

  it('a spring-forward day is 23 h long, a fall-back day 25 h (Ljubljana, 2026-03-29 and 2026-10-25)', () => {
    const spring = splitByDay(iv(at(20260328, 12, 0, LJ), at(20260330, 12, 0, LJ)), LJ);
    expect(spring.map((p) => [p.day, (p.end - p.start) / H])).toEqual([
      [20260328, 12],
      [20260329, 23],
      [20260330, 12],
    ]);
    const fall = splitByDay(iv(at(20261024, 12, 0, LJ), at(20261026, 12, 0, LJ)), LJ);
    expect(fall.map((p) => [p.day, (p.end - p.start) / H])).toEqual([
      [20261024, 12],
      [20261025, 25],
      [20261026, 12],
    ]);
  });

  it('byDay groups pieces of several intervals per day, days ascending', () => {
    const days = byDay([iv(at(20260611, 8, 0, NY), at(20260611, 9, 0, NY)), iv(at(20260610, 23, 0, NY), at(20260611, 1, 0, NY))], NY);
    expect([...days.keys()]).toEqual([20260610, 20260611]);
    expect(days.get(20260611)!.map((p) => (p.end - p.start) / H)).toEqual([1, 1]);
  });
});

describe('timesheetDays', () => {
  it('08:00–12:00 and 13:00–17:00 local: 8 h worked, 1 h pause, 2 sessions', () => {
    const d = 20260615;
    const clocked = clockedIntervals(
      false,
      [
        { ts: at(d, 8, 0, NY), tracking: true },
        { ts: at(d, 12, 0, NY), tracking: false },
        { ts: at(d, 13, 0, NY), tracking: true },
        { ts: at(d, 17, 0, NY), tracking: false },
      ],
      daysSpan(d, d, NY),
      1e15,
    );
    expect(timesheetDays(clocked, NY)).toEqual([
      { day: d, firstIn: at(d, 8, 0, NY), lastOut: at(d, 17, 0, NY), sessions: 2, worked: 8 * 3600, pause: 3600, open: false },
    ]);
  });

  it('a night shift is split by the member zone day; an open clock-in at the range end is flagged', () => {
    const span = daysSpan(20260610, 20260611, LJ);
    const clocked = clockedIntervals(
      false,
      [
        { ts: at(20260610, 22, 0, LJ), tracking: true },
        { ts: at(20260611, 6, 30, LJ), tracking: false },
        { ts: at(20260611, 20, 0, LJ), tracking: true },
      ],
      span,
      1e15,
    );
    expect(timesheetDays(clocked, LJ)).toEqual([
      { day: 20260610, firstIn: at(20260610, 22, 0, LJ), lastOut: at(20260611, 0, 0, LJ), sessions: 1, worked: 2 * 3600, pause: 0, open: false },
      {
        day: 20260611,
        firstIn: at(20260611, 0, 0, LJ),
        lastOut: null,
        sessions: 2,
        worked: 6.5 * 3600 + 4 * 3600,
        pause: (13.5 * H) / 1000,
        open: true,
      },
    ]);
  });

  it('a shift over the fall-back night counts the extra hour (01:00–05:00 local on 2026-11-01 in New York is 5 h)', () => {
    const d = 20261101;
    const clocked = clockedIntervals(false, [{ ts: at(d, 1, 0, NY), tracking: true }, { ts: at(d, 5, 0, NY), tracking: false }], daysSpan(d, d, NY), 1e15);
    expect(timesheetDays(clocked, NY)[0].worked).toBe(5 * 3600);
  });
});

describe('allocateIntervals (job > place > travel > idle)', () => {
  it('splits a day without overlaps and with the documented precedence', () => {
    const clocked = [iv(0, 100)];
    const jobs = [iv(10, 30)];
    const places = [iv(20, 50)]; // 20..30 is a job
    const tracks = [iv(0, 15), iv(45, 70)]; // 10..15 job, 45..50 place
    const parts = allocateIntervals(clocked, jobs, places, tracks);
    expect(parts).toEqual({
      clocked: [iv(0, 100)],
      job: [iv(10, 30)],
      place: [iv(30, 50)],
      travel: [iv(0, 10), iv(50, 70)],
      idle: [iv(70, 100)],
    });
    expect(allocationOf(parts)).toEqual({ clocked: 0.1, job: 0.02, place: 0.02, travel: 0.03, idle: 0.03 });
  });

  it('time on a job or travelling while clocked out still counts; idle is only clocked-in time', () => {
    const parts = allocateIntervals([iv(0, 10)], [iv(20, 30)], [], [iv(5, 15)]);
    expect(allocationOf(parts)).toEqual({ clocked: 0.01, job: 0.01, place: 0, travel: 0.01, idle: 0.005 });
  });
});

describe('sameDayGaps', () => {
  it('gaps between intervals of one day; none over midnight; overlaps leave none', () => {
    const d = 20260615;
    const gaps = sameDayGaps(
      [
        iv(at(d, 13, 0, LJ), at(d, 17, 0, LJ)),
        iv(at(d, 8, 0, LJ), at(d, 12, 0, LJ)),
        iv(at(d, 16, 0, LJ), at(d, 18, 0, LJ)), // overlaps the one before: no gap
        iv(at(addDays(d, 1), 8, 0, LJ), at(addDays(d, 1), 9, 0, LJ)), // next day: the night is no gap
      ],
      LJ,
    );
    expect(gaps).toEqual([iv(at(d, 12, 0, LJ), at(d, 13, 0, LJ))]);
    expect(totalMs(gaps)).toBe(H);
  });

  it('a gap after midnight counts on the day it lies in', () => {
    const d = 20260615;
    const gaps = sameDayGaps([iv(at(d, 22, 0, NY), at(addDays(d, 1), 2, 0, NY)), iv(at(addDays(d, 1), 2, 30, NY), at(addDays(d, 1), 6, 0, NY))], NY);
    expect(totalMs(gaps)).toBe(30 * M);
  });
});
