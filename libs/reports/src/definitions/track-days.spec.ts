import { distanceM } from '@app/core/pure';
import type { Fix } from '@app/locations/pure';
import { splitRules, splitTracks } from '@app/locations/pure';
// eslint-disable-next-line no-restricted-imports -- the real GPX traces' reader is a test helper shared with the e2e suites
import { GPX_TRACES, readGpxFixes } from '../../../../test/support/gpx';
import type { ReportMember } from '../report-definition';
import { fakeFixDb } from './spec-helpers';
import { coordinatesText, detectStops, envStopMinutes, fixDays, gapSegments, memberDays, trackRules } from './track-days';

const RULES = splitRules(5);
const MIN = 60_000;

const fix = (ts: number, lat: number, lng: number, acc: number | null = null): Fix => ({
  ts,
  lat,
  lng,
  acc,
  dir: null,
  spd: null,
  elv: null,
  bat: null,
});

describe('memberDays', () => {
  it('the range days as the member zone’s midnights, across a DST change (Europe/Ljubljana, 2026-10-25 has 25 h)', () => {
    const days = memberDays(20261024, 20261026, 'Europe/Ljubljana');
    expect(days.map((d) => d.day)).toEqual([20261024, 20261025, 20261026]);
    expect(days[0].startMs).toBe(Date.UTC(2026, 9, 23, 22));
    expect(days[1].startMs).toBe(Date.UTC(2026, 9, 24, 22));
    expect(days[1].endMs - days[1].startMs).toBe(25 * 3600_000);
    expect(days[2].endMs).toBe(Date.UTC(2026, 9, 26, 23));
    days.slice(1).forEach((d, i) => expect(d.startMs).toBe(days[i].endMs));
  });

  it('across a month end, one day for from = until', () => {
    expect(memberDays(20261130, 20261201, 'UTC').map((d) => d.day)).toEqual([20261130, 20261201]);
    expect(memberDays(20261130, 20261130, 'America/New_York')).toEqual([
      { day: 20261130, startMs: Date.UTC(2026, 10, 30, 5), endMs: Date.UTC(2026, 11, 1, 5) },
    ]);
  });
});

describe('fixDays', () => {
  it('hands the fixes over a member-day at a time, in the member’s zone; days without fixes skipped', async () => {
    const zone = 'Asia/Tokyo'; // UTC+9
    const member: ReportMember = { id: 'M1', name: 'Ana', username: 'ana', timezone: zone };
    const days = memberDays(20261101, 20261103, zone);
    const fixes = [
      fix(Date.UTC(2026, 9, 31, 14, 59), 1, 1), // 23:59 on the 31st in Tokyo: before the range
      fix(Date.UTC(2026, 9, 31, 15, 0), 1, 1), // 00:00 on the 1st
      fix(Date.UTC(2026, 10, 1, 14, 59, 59), 1, 2), // 23:59:59 on the 1st
      fix(Date.UTC(2026, 10, 2, 15, 30), 1, 3), // the 3rd (none on the 2nd)
      fix(Date.UTC(2026, 10, 3, 15, 0), 1, 4), // the 4th: after the range
    ];
    const got = [];
    for await (const d of fixDays(fakeFixDb({ M1: fixes }), 'C', member, days)) got.push([d.day, d.fixes.map((f) => f.ts)]);
    expect(got).toEqual([
      [20261101, [fixes[1].ts, fixes[2].ts]],
      [20261103, [fixes[3].ts]],
    ]);
  });
});

describe('gapSegments', () => {
  it('cuts at gaps of 10 min or more, not below', () => {
    const f = [0, MIN, MIN + 10 * MIN - 1, 2 * MIN + 20 * MIN - 1, 3 * MIN + 40 * MIN].map((ts) => fix(ts, 0, 0));
    expect(gapSegments(f, RULES.gapMs).map((s) => s.map((x) => x.ts))).toEqual([[0, MIN, 11 * MIN - 1], [22 * MIN - 1], [43 * MIN]]);
    expect(gapSegments([], RULES.gapMs)).toEqual([]);
  });
});

describe('trackRules', () => {
  it('without a threshold in the context: TRACK_STOP_MINUTES from the environment, else 5', () => {
    expect(trackRules({}, {}).stopMs).toBe(5 * MIN);
    expect(trackRules({}, { TRACK_STOP_MINUTES: '12' }).stopMs).toBe(12 * MIN);
    expect(trackRules({}, { TRACK_STOP_MINUTES: 'x' }).stopMs).toBe(5 * MIN);
    expect(envStopMinutes({ TRACK_STOP_MINUTES: '7' })).toBe(7);
    expect(trackRules({}, {}).gapMs).toBe(10 * MIN);
  });

  it('the context’s threshold (request, else company) wins over the environment', () => {
    expect(trackRules({ stopMinutes: 20 }, { TRACK_STOP_MINUTES: '12' }).stopMs).toBe(20 * MIN);
    expect(trackRules({ stopMinutes: 1 }, {}).stopMs).toBe(MIN);
  });
});

describe('detectStops', () => {
  it.each(GPX_TRACES)('on the real trace %s: the stops are exactly where the tracks’ split rule ends a track at a stop', (file) => {
    const fixes = [...readGpxFixes(file)].sort((a, b) => a.ts - b.ts).filter((f, i, all) => i === 0 || f.ts !== all[i - 1].ts);
    const stops = detectStops(fixes, [], RULES);
    const segments = splitTracks(fixes, [], RULES);
    // the arrivals of stops with a track before them are the ends of the tracks the rule ended at a stop
    const trackEnds = segments.filter((s) => s.endedBy === 'stop').map((s) => s.fixes[s.fixes.length - 1].ts);
    expect(trackEnds.every((ts) => stops.some((s) => s.fromTs === ts))).toBe(true);
    // the departures of stops with a track after them are starts of tracks
    const departureStarts = segments.filter((s) => s.startsAtDeparture).map((s) => s.fixes[0].ts);
    expect(departureStarts.every((ts) => stops.some((s) => s.toTs === ts))).toBe(true);
    for (const s of stops) {
      expect(s.toTs - s.fromTs).toBeGreaterThanOrEqual(RULES.stopMs);
      const stay = fixes.filter((f) => f.ts >= s.fromTs && f.ts <= s.toTs);
      expect(stay).toHaveLength(s.fixes);
      // the mean position is inside the 100 m circle of the stay's first fix, so within 200 m of every fix
      for (const f of stay) expect(distanceM(f, s)).toBeLessThanOrEqual(2 * RULES.stopRadiusM);
    }
  });

  it('cerknicko-jezero dwells: at least one stop of ≥ 5 min', () => {
    expect(detectStops(readGpxFixes('cerknicko-jezero.gpx'), [], RULES).length).toBeGreaterThan(0);
  });

  it('a stay cut by a gap or a tracking-off is no stop; an inaccurate fix neither anchors nor breaks it', () => {
    const still = (from: number, to: number, step: number) => {
      const out: Fix[] = [];
      for (let t = from; t <= to; t += step) out.push(fix(t, 46, 14 + (t % 3) * 1e-6));
      return out;
    };
    const day = [...still(0, 6 * MIN, 30_000)];
    expect(detectStops(day, [], RULES)).toEqual([{ fromTs: 0, toTs: 6 * MIN, lat: 46, lng: expect.closeTo(14, 5), fixes: 13 }]);
    // a tracking-off at 3 min cuts the stay in two runs of 3 min: no stop
    expect(detectStops(day, [3 * MIN], RULES)).toEqual([]);
    // a gap of 10 min in the middle: no stop
    const gapped = [...still(0, 3 * MIN, 30_000), ...still(13 * MIN, 16 * MIN, 30_000)];
    expect(detectStops(gapped, [], RULES)).toEqual([]);
    // an inaccurate fix 5 km away inside the stay: still one stop, its position not pulled away
    const noisy = [...day.slice(0, 5), fix(2.6 * MIN, 46.05, 14, 500), ...day.slice(6)];
    const [stop] = detectStops(noisy, [], RULES);
    expect(stop).toMatchObject({ fromTs: 0, toTs: 6 * MIN, fixes: 13 });
    expect(distanceM(stop, { lat: 46, lng: 14 })).toBeLessThan(1);
  });
});

describe('coordinatesText', () => {
  it('5 decimals', () => expect(coordinatesText(45.276321, -13.7)).toBe('45.27632, -13.70000'));
});
