import { parseSchedule, retryAfterMs, retryDelayMs } from './retry';

const DEFAULT = '5,300,1800,7200,18000,36000,36000,36000'; // CONTRACTS.md "Delivery"
const HOUR = 3600 * 1000;

describe('parseSchedule', () => {
  it('reads comma-separated seconds as ms', () => {
    expect(parseSchedule(DEFAULT)).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000, 36000].map((s) => s * 1000));
    expect(parseSchedule('1,1')).toEqual([1000, 1000]);
    expect(parseSchedule('7')).toEqual([7000]);
  });
});

describe('retryDelayMs', () => {
  const schedule = parseSchedule(DEFAULT);

  it('takes the schedule point of the failure count (1 = the first attempt failed), unjittered at random 0.5', () => {
    expect(retryDelayMs(1, schedule, 0.5)).toBe(5000);
    expect(retryDelayMs(2, schedule, 0.5)).toBe(300_000);
    expect(retryDelayMs(8, schedule, 0.5)).toBe(36_000_000);
  });

  it('jitters by ±20 %: 0.8× at random 0, 1.2× at the (exclusive) limit 1, linear between', () => {
    expect(retryDelayMs(1, schedule, 0)).toBe(4000);
    expect(retryDelayMs(1, schedule, 1)).toBe(6000);
    expect(retryDelayMs(3, schedule, 0)).toBe(1_440_000);
    expect(retryDelayMs(3, schedule, 1)).toBe(2_160_000);
    expect(retryDelayMs(3, schedule, 0.25)).toBe(1_620_000);
    expect(retryDelayMs(3, schedule, 0.75)).toBe(1_980_000);
  });

  it('stays within [0.8, 1.2] × the point for Math.random(), and actually varies', () => {
    for (let failures = 1; failures <= schedule.length; failures++) {
      const base = schedule[failures - 1];
      const seen = new Set<number>();
      for (let i = 0; i < 500; i++) {
        const delay = retryDelayMs(failures, schedule)!;
        expect(delay).toBeGreaterThanOrEqual(base * 0.8);
        expect(delay).toBeLessThanOrEqual(base * 1.2);
        expect(Number.isInteger(delay)).toBe(true);
        seen.add(delay);
      }
      expect(seen.size).toBeGreaterThan(1);
    }
  });

  it('is null (abandon) once the schedule is exhausted', () => {
    expect(retryDelayMs(schedule.length, schedule, 0.5)).not.toBeNull();
    expect(retryDelayMs(schedule.length + 1, schedule, 0.5)).toBeNull();
    expect(retryDelayMs(100, schedule, 0.5)).toBeNull();
  });

  it('with WEBHOOK_RETRY_SCHEDULE=1,1 allows exactly three attempts (two retries)', () => {
    const short = parseSchedule('1,1');
    expect(retryDelayMs(1, short, 0.5)).toBe(1000);
    expect(retryDelayMs(2, short, 0.5)).toBe(1000);
    expect(retryDelayMs(3, short, 0.5)).toBeNull();
  });

  it('is null for an empty schedule', () => {
    expect(retryDelayMs(1, [], 0.5)).toBeNull();
  });
});

describe('retryAfterMs', () => {
  // a whole second, so HTTP dates (second precision) give exact differences
  const now = Date.UTC(2026, 2, 10, 12, 0, 0);

  it('is null when absent or empty', () => {
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('', now)).toBeNull();
    expect(retryAfterMs([], now)).toBeNull();
  });

  it('reads delay-seconds', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('1', now)).toBe(1000);
    expect(retryAfterMs(' 30 ', now)).toBe(30_000);
    expect(retryAfterMs('3600', now)).toBe(HOUR);
  });

  it('takes the first of several header values', () => {
    expect(retryAfterMs(['7', '99'], now)).toBe(7000);
  });

  it('reads an HTTP date (IMF-fixdate and the obsolete RFC 850 / asctime forms) relative to now', () => {
    expect(retryAfterMs(new Date(now + 90_000).toUTCString(), now)).toBe(90_000);
    expect(retryAfterMs('Tue, 10 Mar 2026 12:05:00 GMT', now)).toBe(300_000);
    expect(retryAfterMs('Tuesday, 10-Mar-26 12:05:00 GMT', now)).toBe(300_000);
    expect(retryAfterMs('Tue Mar 10 12:05:00 2026 GMT', now)).toBe(300_000);
  });

  it('clamps to at least 1 s: 0 seconds, a date now or in the past', () => {
    expect(retryAfterMs('0', now)).toBe(1000);
    expect(retryAfterMs(new Date(now).toUTCString(), now)).toBe(1000);
    expect(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(1000);
    expect(retryAfterMs(new Date(now + 400).toUTCString(), now)).toBe(1000);
  });

  it('clamps to at most 24 h: huge seconds, a far date', () => {
    expect(retryAfterMs('86400', now)).toBe(24 * HOUR);
    expect(retryAfterMs('86401', now)).toBe(24 * HOUR);
    expect(retryAfterMs('999999999999999999999', now)).toBe(24 * HOUR);
    expect(retryAfterMs(new Date(now + 48 * HOUR).toUTCString(), now)).toBe(24 * HOUR);
    expect(retryAfterMs('Fri, 31 Dec 9999 23:59:59 GMT', now)).toBe(24 * HOUR);
  });

  it('is null for an unreadable value (the schedule applies instead)', () => {
    for (const v of ['soon', 'later please', 'NaN', 'Mon, 32 Foo 2026 99:99:99 GMT']) expect(retryAfterMs(v, now)).toBeNull();
  });
});

describe('retryAfterMs with values that are neither seconds nor dates', () => {
  it.each(['-5', '1.5', 'soon'])('%s is unreadable (null: the schedule applies)', (v) => {
    expect(retryAfterMs(v, Date.now())).toBeNull();
  });
});
