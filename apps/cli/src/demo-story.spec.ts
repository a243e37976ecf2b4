import { distanceM } from '@app/core';
import { DEMO_SITES } from './demo';
import { demoTrace } from './demo-live';
import { buildStory, DWELL_FIX_MS, MIN_STORY_SCALE, placeStory, StoryStep } from './demo-story';

const STOPS = [
  { name: 'yard', at: DEMO_SITES.yard, dwellMs: 5 * 60_000 },
  { name: 'Boiler service', at: DEMO_SITES.boilerService, dwellMs: 25 * 60_000 },
  { name: 'Leaking radiator', at: DEMO_SITES.leakingRadiator, dwellMs: 15 * 60_000 },
  { name: 'yard', at: DEMO_SITES.yard, dwellMs: 10 * 60_000 },
];

type Fix = Extract<StoryStep, { kind: 'fix' }>;

describe('the demo worker’s day (buildStory)', () => {
  const trace = demoTrace();
  const { steps, durationMs } = buildStory(trace, STOPS);
  const fixes = steps.filter((s): s is Fix => s.kind === 'fix');

  it('clocks in first and out last, with every step in time order', () => {
    expect(steps[0]).toEqual({ kind: 'clock', at: 0, on: true });
    expect(steps[steps.length - 1]).toEqual({ kind: 'clock', at: durationMs, on: false });
    for (let i = 1; i < steps.length; i++) expect(steps[i].at).toBeGreaterThanOrEqual(steps[i - 1].at);
    for (let i = 1; i < fixes.length; i++) expect(fixes[i].at).toBeGreaterThan(fixes[i - 1].at);
  });

  it('keeps every recorded fix and parks at each stop, in order, for its dwell, within 30 m of it', () => {
    // the recording (8 min 34 s) plus the four stays (55 min) and their fixes' spacing
    expect(durationMs).toBeGreaterThan(63 * 60_000);
    expect(durationMs).toBeLessThan(66 * 60_000);
    const arrivals = steps.filter((s) => s.kind === 'arrive').map((s) => (s as { stop: string }).stop);
    expect(arrivals).toEqual(['yard', 'Boiler service', 'Leaking radiator', 'yard']);
    const marks = steps.filter((s) => s.kind === 'arrive' || s.kind === 'leave');
    STOPS.forEach((stop, i) => {
      const [arrive, leave] = [marks[2 * i], marks[2 * i + 1]];
      expect([arrive, leave]).toMatchObject([
        { kind: 'arrive', stop: stop.name },
        { kind: 'leave', stop: stop.name },
      ]);
      expect(leave.at - arrive.at).toBeGreaterThanOrEqual(stop.dwellMs - 2 * DWELL_FIX_MS);
      const parked = fixes.filter((f) => f.at >= arrive.at && f.at <= leave.at);
      expect(parked.length).toBeGreaterThanOrEqual(stop.dwellMs / DWELL_FIX_MS - 1);
      for (const f of parked) expect(distanceM(f, stop.at)).toBeLessThan(30);
    });
    for (const p of trace) expect(fixes.some((f) => f.lat === p.lat && f.lng === p.lng)).toBe(true);
  });
});

describe('placeStory', () => {
  const end = Date.UTC(2026, 10, 27, 15, 0);

  it('keeps the story’s pace when it fits after midnight, ending at the end', () => {
    const at = placeStory(3_600_000, end, 10 * 3_600_000);
    expect(at(3_600_000)).toBe(end);
    expect(at(0)).toBe(end - 3_600_000);
  });

  it('squeezes a story that would start before midnight into the time since it, a minute to spare', () => {
    const at = placeStory(3_600_000, end, 31 * 60_000);
    expect(at(3_600_000)).toBe(end);
    expect(at(0)).toBe(end - 30 * 60_000);
  });

  it('never squeezes below its floor (the start then falls on the day before)', () => {
    const at = placeStory(3_600_000, end, 5 * 60_000);
    expect(at(0)).toBe(end - 3_600_000 * MIN_STORY_SCALE);
  });
});
