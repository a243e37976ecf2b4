import fc from 'fast-check';
import { addDays, bigintMs, dayInZone, daysBetween, isIanaZone, isRealDay, isRealHhmm, numeric, wallClock, zonedDayTimeToMs } from './time';

describe('dayInZone', () => {
  it('matches the docstring example', () => {
    expect(dayInZone(Date.UTC(2026, 0, 1, 12), 'Pacific/Kiritimati')).toBe(20260102);
  });

  it('gives three different days for one instant across the date line (and a year boundary)', () => {
    // 2026-01-01T10:30Z is 00:30 on Jan 2 in Kiritimati (UTC+14) and 23:30 on Dec 31 in Pago Pago (UTC-11)
    const ms = Date.UTC(2026, 0, 1, 10, 30);
    expect(dayInZone(ms, 'Pacific/Kiritimati')).toBe(20260102);
    expect(dayInZone(ms, 'UTC')).toBe(20260101);
    expect(dayInZone(ms, 'Pacific/Pago_Pago')).toBe(20251231);
  });

  it('turns the day at local midnight, not UTC midnight', () => {
    // Kiritimati midnight of 2026-03-10 is 2026-03-09T10:00Z
    expect(dayInZone(Date.UTC(2026, 2, 9, 9, 59, 59, 999), 'Pacific/Kiritimati')).toBe(20260309);
    expect(dayInZone(Date.UTC(2026, 2, 9, 10, 0, 0, 0), 'Pacific/Kiritimati')).toBe(20260310);
    // Pago Pago midnight of 2026-03-10 is 2026-03-10T11:00Z
    expect(dayInZone(Date.UTC(2026, 2, 10, 10, 59, 59, 999), 'Pacific/Pago_Pago')).toBe(20260309);
    expect(dayInZone(Date.UTC(2026, 2, 10, 11, 0, 0, 0), 'Pacific/Pago_Pago')).toBe(20260310);
  });

  it('handles half-hour offsets', () => {
    // Asia/Kolkata is UTC+5:30: 18:29Z is 23:59 local, 18:30Z is the next local day
    expect(dayInZone(Date.UTC(2026, 5, 15, 18, 29), 'Asia/Kolkata')).toBe(20260615);
    expect(dayInZone(Date.UTC(2026, 5, 15, 18, 30), 'Asia/Kolkata')).toBe(20260616);
  });

  describe('Europe/Ljubljana across DST (2026: CEST from Mar 29 01:00Z to Oct 25 01:00Z)', () => {
    const zone = 'Europe/Ljubljana';

    it('uses +1 for the midnight before spring-forward', () => {
      // local midnight of Sun 2026-03-29 (still CET, +1) = 2026-03-28T23:00Z
      expect(dayInZone(Date.UTC(2026, 2, 28, 22, 59, 59, 999), zone)).toBe(20260328);
      expect(dayInZone(Date.UTC(2026, 2, 28, 23, 0), zone)).toBe(20260329);
    });

    it('uses +2 for the midnight after spring-forward', () => {
      // local midnight of Mon 2026-03-30 (CEST, +2) = 2026-03-29T22:00Z
      expect(dayInZone(Date.UTC(2026, 2, 29, 21, 59, 59, 999), zone)).toBe(20260329);
      expect(dayInZone(Date.UTC(2026, 2, 29, 22, 0), zone)).toBe(20260330);
      // around the switch itself (01:00Z = 02:00 CET → 03:00 CEST) the day stays the same
      expect(dayInZone(Date.UTC(2026, 2, 29, 0, 59), zone)).toBe(20260329);
      expect(dayInZone(Date.UTC(2026, 2, 29, 1, 0), zone)).toBe(20260329);
    });

    it('uses +2 for the midnight before fall-back and +1 after it', () => {
      // local midnight of Sun 2026-10-25 (CEST, +2) = 2026-10-24T22:00Z
      expect(dayInZone(Date.UTC(2026, 9, 24, 21, 59, 59, 999), zone)).toBe(20261024);
      expect(dayInZone(Date.UTC(2026, 9, 24, 22, 0), zone)).toBe(20261025);
      // local midnight of Mon 2026-10-26 (CET, +1) = 2026-10-25T23:00Z; at 22:30Z it is still the 25th
      expect(dayInZone(Date.UTC(2026, 9, 25, 22, 30), zone)).toBe(20261025);
      expect(dayInZone(Date.UTC(2026, 9, 25, 22, 59, 59, 999), zone)).toBe(20261025);
      expect(dayInZone(Date.UTC(2026, 9, 25, 23, 0), zone)).toBe(20261026);
    });
  });

  it('agrees with the ISO date in UTC for many instants, and always returns a real day', () => {
    const start = Date.UTC(1970, 0, 1);
    const end = Date.UTC(2100, 0, 1);
    for (let i = 0; i < 500; i++) {
      const ms = start + Math.floor(((end - start) * i) / 500) + i * 3_600_123;
      const iso = new Date(ms).toISOString().slice(0, 10).replace(/-/g, '');
      const day = dayInZone(ms, 'UTC');
      expect(day).toBe(Number(iso));
      expect(isRealDay(day)).toBe(true);
    }
  });

  it('throws on an unknown zone', () => {
    expect(() => dayInZone(Date.UTC(2026, 0, 1), 'Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('isRealDay', () => {
  it.each([20240229, 20000229, 20260101, 20261231, 20260430, 20260228, 19000101, 99991231])('%p is a real day', (day) => {
    expect(isRealDay(day)).toBe(true);
  });

  it.each([
    [20230229, 'Feb 29 in a common year'],
    [19000229, '1900 is not a leap year (century rule)'],
    [21000229, '2100 is not a leap year'],
    [20240230, 'Feb 30'],
    [20260431, 'Apr 31'],
    [20260632, 'day 32'],
    [20261301, 'month 13'],
    [20260001, 'month 0'],
    [20260100, 'day 0'],
    [0, 'zero'],
    [18991231, 'before 1900'],
    [100000101, 'after 9999'],
    [-20240229, 'negative'],
    [2024229, 'seven digits'],
  ])('%p is not a real day (%s)', (day) => {
    expect(isRealDay(day)).toBe(false);
  });

  it.each([20240229.5, 20240229.000001, NaN, Infinity, -Infinity, '20240229', null, undefined, BigInt(20240229), [20240229], {}])(
    'refuses the non-integer %p',
    (day) => {
      expect(isRealDay(day)).toBe(false);
    },
  );
});

describe('isRealHhmm', () => {
  it.each([0, 1, 59, 100, 707, 1200, 2300, 2359])('%p is a time of day', (hhmm) => {
    expect(isRealHhmm(hhmm)).toBe(true);
    expect(isRealHhmm(hhmm, true)).toBe(true);
  });

  it.each([60, 99, 1260, 2360, 2400, 2401, 2459, 2500, 9999, 10000, -1, -100])('%p is not a time of day', (hhmm) => {
    expect(isRealHhmm(hhmm)).toBe(false);
  });

  it('admits 2400 only with allow2400, and nothing else beyond 2359', () => {
    expect(isRealHhmm(2400)).toBe(false);
    expect(isRealHhmm(2400, false)).toBe(false);
    expect(isRealHhmm(2400, true)).toBe(true);
    for (const v of [2360, 2401, 2459, 2500, 1260]) expect(isRealHhmm(v, true)).toBe(false);
  });

  it.each([7.5, 1200.01, NaN, Infinity, '0707', '1200', null, undefined, true, BigInt(1200)])('refuses the non-integer %p', (hhmm) => {
    expect(isRealHhmm(hhmm)).toBe(false);
    expect(isRealHhmm(hhmm, true)).toBe(false);
  });
});

describe('isIanaZone', () => {
  it.each(['UTC', 'Europe/Ljubljana', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata'])(
    '%p is a zone',
    (zone) => {
      expect(isIanaZone(zone)).toBe(true);
    },
  );

  it.each(['', 'Mars/Olympus_Mons', 'Europe/Ljubljan', 'Europe', '+01:00', 'UTC+1', 'x'.repeat(65), 'Europe/Ljubljana '])(
    '%p is not a zone',
    (zone) => {
      expect(isIanaZone(zone)).toBe(false);
    },
  );

  it.each([null, undefined, 0, 1, {}, ['UTC'], true])('refuses the non-string %p', (zone) => {
    expect(isIanaZone(zone)).toBe(false);
  });
});

describe('bigintMs', () => {
  it('reads pg bigint strings as numbers, exactly up to 2^53 - 1', () => {
    expect(bigintMs.from('1767225600000')).toBe(1767225600000);
    expect(bigintMs.from('0')).toBe(0);
    expect(bigintMs.from('-5')).toBe(-5);
    expect(bigintMs.from(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('passes null and undefined through on read', () => {
    expect(bigintMs.from(null)).toBeNull();
    expect(bigintMs.from(undefined)).toBeUndefined();
  });

  it('writes values unchanged', () => {
    expect(bigintMs.to(1767225600000)).toBe(1767225600000);
    expect(bigintMs.to(null)).toBeNull();
    expect(bigintMs.to(undefined)).toBeUndefined();
  });

  it('is also the numeric transformer', () => {
    expect(numeric).toBe(bigintMs);
    expect(numeric.from('12.5')).toBe(12.5);
  });
});

/** Zones with DST, 30- and 45-minute offsets, +14 h, and none. */
const ZONES = [
  'Europe/Ljubljana',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'America/St_Johns',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'UTC',
];

/** The exact instants of some 2026 offset changes (the first ms of the new offset). */
const CHANGES_2026: Array<[string, number]> = [
  ['Europe/Ljubljana', Date.UTC(2026, 2, 29, 1)],
  ['Europe/Ljubljana', Date.UTC(2026, 9, 25, 1)],
  ['America/New_York', Date.UTC(2026, 2, 8, 7)],
  ['America/New_York', Date.UTC(2026, 10, 1, 6)],
  ['Australia/Lord_Howe', Date.UTC(2026, 3, 4, 15)],
];

const oracleFormats = new Map<string, Intl.DateTimeFormat>();
/** Oracle: the wall clock of `ms` in `zone` by Intl alone. */
function intl(ms: number, zone: string) {
  let f = oracleFormats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    oracleFormats.set(zone, f);
  }
  const parts = f.formatToParts(new Date(ms));
  const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return { year: n('year'), month: n('month'), day: n('day'), hour: n('hour') % 24, minute: n('minute'), second: n('second') };
}

/** Oracle: the offset (ms) of `zone` at `ms` (whole seconds) by Intl alone. */
function intlOffset(ms: number, zone: string): number {
  const w = intl(ms, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

describe('wallClock (per-day offset cache)', () => {
  it('agrees with Intl at every instant, DST change days included (30-min and 45-min zones too)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }), (zone, ms) => {
        expect(wallClock(ms, zone)).toEqual(intl(ms, zone));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads UTC like Date does, any instant of ±200 years (the calendar arithmetic)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1770, 0, 1), max: Date.UTC(2230, 0, 1) }), (ms) => {
        const d = new Date(ms);
        const utc = {
          year: d.getUTCFullYear(),
          month: d.getUTCMonth() + 1,
          day: d.getUTCDate(),
          hour: d.getUTCHours(),
          minute: d.getUTCMinutes(),
          second: d.getUTCSeconds(),
        };
        expect(wallClock(ms, 'UTC')).toEqual(utc);
      }),
      { numRuns: 20_000 },
    );
    for (const ms of [
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(1900, 2, 1),
      Date.UTC(2100, 1, 28, 12),
      -1,
      0,
      Date.UTC(1969, 11, 31, 23, 59, 59),
    ]) {
      expect(wallClock(ms, 'UTC')).toEqual(intl(ms, 'UTC'));
    }
  });

  it('agrees with Intl minute by minute across the 2026 changes in Ljubljana, New York and Lord Howe', () => {
    for (const [zone, at] of CHANGES_2026) {
      for (let ms = at - 3 * 3_600_000; ms <= at + 3 * 3_600_000; ms += 60_000 + 7) expect(wallClock(ms, zone)).toEqual(intl(ms, zone));
    }
  });

  it('agrees with Intl every half second around the exact instants of the 2026 changes', () => {
    for (const [zone, at] of CHANGES_2026) {
      expect(intlOffset(at - 1000, zone)).not.toBe(intlOffset(at, zone)); // the change is at `at`
      for (let ms = at - 3000; ms <= at + 3000; ms += 500) expect([ms, wallClock(ms, zone)]).toEqual([ms, intl(ms, zone)]);
    }
  });
});

describe('zonedDayTimeToMs (day offsets, Intl near changes)', () => {
  /** oracle: the earliest instant within ±1 day whose offset makes its wall clock read `guess`; in a gap, guess − the offset before */
  const oracle = (day: number, minutes: number, zone: string) => {
    const guess = Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100, 0, minutes);
    const before = intlOffset(guess - 86_400_000, zone);
    const after = intlOffset(guess + 86_400_000, zone);
    const matches = [guess - before, guess - after].filter((ms) => ms + intlOffset(ms, zone) === guess);
    return matches.length ? Math.min(...matches) : guess - before;
  };

  it('agrees with the Intl oracle on any day and minute, DST change days included', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: 0, max: 3650 }), fc.integer({ min: 0, max: 1440 }), (zone, n, minutes) => {
        const day = addDays(20200101, n);
        expect(zonedDayTimeToMs(day, minutes, zone)).toBe(oracle(day, minutes, zone));
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with the oracle every 15 minutes of the days around the 2026 changes (gap and overlap)', () => {
    const days: Array<[string, number]> = [
      ['Europe/Ljubljana', 20260329],
      ['Europe/Ljubljana', 20261025],
      ['America/New_York', 20260308],
      ['America/New_York', 20261101],
      ['Australia/Lord_Howe', 20260405],
      ['Pacific/Chatham', 20260405],
    ];
    for (const [zone, change] of days)
      for (const day of [addDays(change, -1), change, addDays(change, 1)])
        for (let minutes = 0; minutes <= 1440; minutes += 15)
          expect([day, minutes, zonedDayTimeToMs(day, minutes, zone)]).toEqual([day, minutes, oracle(day, minutes, zone)]);
  });

  it('reads back as the asked wall clock off the changes', () => {
    const ms = zonedDayTimeToMs(20260715, 9 * 60 + 30, 'Europe/Ljubljana');
    expect(ms).toBe(Date.UTC(2026, 6, 15, 7, 30));
    expect(wallClock(ms, 'Europe/Ljubljana')).toEqual({ year: 2026, month: 7, day: 15, hour: 9, minute: 30, second: 0 });
  });
});

describe('addDays and daysBetween (calendar days, no zone)', () => {
  it('cross months, years and leap days both ways', () => {
    expect(addDays(20261231, 1)).toBe(20270101);
    expect(addDays(20280228, 1)).toBe(20280229);
    expect(addDays(20260301, -1)).toBe(20260228);
    expect(daysBetween(20261001, 20261031)).toBe(30);
    expect(daysBetween(20240101, 20250101)).toBe(366);
    expect(daysBetween(20261105, 20261101)).toBe(-4);
  });

  it('are inverse: daysBetween(d, addDays(d, n)) = n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: -5_000, max: 5_000 }), (offset, n) => {
        const d = addDays(19500101, offset);
        expect(isRealDay(addDays(d, n))).toBe(true);
        expect(daysBetween(d, addDays(d, n))).toBe(n);
      }),
    );
  });
});
