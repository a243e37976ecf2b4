import { ValueTransformer } from 'typeorm';

/**
 * Maps PostgreSQL `bigint` (returned by `pg` as a string) to a JS number. Safe for ms timestamps
 * (below 2^53 until the year 287,396).
 */
export const bigintMs: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null || value === undefined ? value : Number(value)),
};

/** Maps `double precision`/`numeric` columns that pg may return as strings to numbers. */
export const numeric: ValueTransformer = bigintMs;

/** SQL for the database clock in ms since the epoch (the transaction's start time). */
export const SQL_NOW_MS = `(floor(extract(epoch from now()) * 1000))::bigint`;

/** True when `zone` is an IANA time-zone name this runtime knows (e.g. `Europe/Ljubljana`, `UTC`). */
export function isIanaZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The calendar day (YYYYMMDD) that instant `ms` falls on in time zone `zone` (IANA).
 * @example dayInZone(Date.UTC(2026, 0, 1, 12), 'Pacific/Kiritimati') === 20260102
 */
export function dayInZone(ms: number, zone: string): number {
  const p = wallClock(ms, zone);
  return p.year * 10000 + p.month * 100 + p.day;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A wall-clock reading in some zone: calendar fields, 24-hour clock. */
export interface WallClock {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  day: number;
  /** 0–23 */
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of instant `ms` in `zone` by Intl (formatters cached per zone: they are costly). */
function intlWallClock(ms: number, zone: string): WallClock {
  let f = formatters.get(zone);
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
    formatters.set(zone, f);
  }
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of f.formatToParts(new Date(ms))) {
    if (part.type in out) out[part.type as keyof typeof out] = Number(part.value);
  }
  out.hour %= 24; // some ICU versions write midnight as 24 under h23
  return out;
}

const DAY_MS = 86_400_000;

/**
 * A zone's offset through one UTC day: one number (ms) when it holds all day, else the change — the
 * offset `before`, the offset `after`, and `at`, the first instant (ms, whole second) with `after`.
 */
type DayOffset = number | { before: number; after: number; at: number };

/** zone → UTC day index → its {@link DayOffset} */
const dayOffsets = new Map<string, Map<number, DayOffset>>();

/**
 * The wall-clock reading of instant `ms` in `zone` (IANA). Fast: plain arithmetic on the zone's offset
 * at `ms` ({@link offsetAt}: Intl is asked twice per zone and UTC day, ~20 times on a day the offset
 * changes). Reports format ~10⁵ timestamps a file with it.
 * @throws RangeError for a zone Intl does not know
 */
export function wallClock(ms: number, zone: string): WallClock {
  return utcFields(ms + offsetAt(ms, zone));
}

/**
 * The UTC calendar fields of `ms` (whole seconds, floored), by integer arithmetic: H. Hinnant's
 * `civil_from_days` ("chrono-Compatible Low-Level Date Algorithms"), proleptic Gregorian, any sign —
 * the same fields as `Date`'s getUTC* (unit-tested against them), about twice as fast.
 */
function utcFields(ms: number): WallClock {
  const days = Math.floor(ms / DAY_MS);
  const secs = Math.floor((ms - days * DAY_MS) / 1000);
  const z = days + 719_468; // days since 0000-03-01
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097; // [0, 146096]
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365); // [0, 399]
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)); // [0, 365], from March 1
  const mp = Math.floor((5 * doy + 2) / 153); // [0, 11], March = 0
  const month = mp < 10 ? mp + 3 : mp - 9;
  return {
    year: yoe + era * 400 + (month <= 2 ? 1 : 0),
    month,
    day: doy - Math.floor((153 * mp + 2) / 5) + 1,
    hour: Math.floor(secs / 3600),
    minute: Math.floor(secs / 60) % 60,
    second: secs % 60,
  };
}

/**
 * The offset (ms, positive east of Greenwich) of `zone` at instant `ms`, from a per-zone cache of UTC
 * days: Intl is asked for each day's first and last second, and on a day whose two differ, a binary
 * search over its seconds finds the change (one change a day at most: true of the tz database).
 * Bounded: a zone's cache is cleared at 100,000 days.
 * @throws RangeError for a zone Intl does not know
 */
export function offsetAt(ms: number, zone: string): number {
  const dayIndex = Math.floor(ms / DAY_MS);
  let days = dayOffsets.get(zone);
  if (!days) dayOffsets.set(zone, (days = new Map()));
  let day = days.get(dayIndex);
  if (day === undefined) {
    if (days.size >= 100_000) days.clear();
    day = dayOffsetOf(dayIndex * DAY_MS, zone);
    days.set(dayIndex, day);
  }
  return typeof day === 'number' ? day : ms < day.at ? day.before : day.after;
}

/** The {@link DayOffset} of the UTC day starting at `start` (ms) by Intl. */
function dayOffsetOf(start: number, zone: string): DayOffset {
  const before = zoneOffset(start, zone);
  let hi = start + DAY_MS - 1000;
  const after = zoneOffset(hi, zone);
  if (before === after) return before;
  // the last second with `before` is in [lo, hi): halve on whole seconds
  let lo = start;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (zoneOffset(mid, zone) === before) lo = mid;
    else hi = mid;
  }
  return { before, after, at: hi };
}

/** Offset of `zone` from UTC at instant `ms`, in ms (positive east of Greenwich), by Intl. */
function zoneOffset(ms: number, zone: string): number {
  const w = intlWallClock(ms, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant (ms) when the wall clock in `zone` reads day `day` (YYYYMMDD) at `minutes` after
 * midnight (0–1440). In a DST gap the later offset applies; in an overlap, the first occurrence.
 * Fast: the offsets come from {@link offsetAt}'s cache.
 */
export function zonedDayTimeToMs(day: number, minutes: number, zone: string): number {
  const guess = Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100, 0, minutes);
  // the zone's offsets a day either side cover any change on this day
  const before = offsetAt(guess - DAY_MS, zone);
  const after = offsetAt(guess + DAY_MS, zone);
  if (before === after) return guess - before;
  const matches = [guess - before, guess - after].filter((ms) => ms + offsetAt(ms, zone) === guess);
  return matches.length ? Math.min(...matches) : guess - before;
}

/** True when `day` is an integer YYYYMMDD naming a real calendar date (years 1900–9999). */
export function isRealDay(day: unknown): day is number {
  if (typeof day !== 'number' || !Number.isInteger(day)) return false;
  const y = Math.floor(day / 10000);
  const m = Math.floor(day / 100) % 100;
  const d = day % 100;
  if (y < 1900 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The calendar day `n` days after YYYYMMDD `day` (`n` may be negative), as YYYYMMDD; no time zone involved. */
export function addDays(day: number, n: number): number {
  const d = new Date(Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, (day % 100) + n));
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** Whole calendar days from YYYYMMDD `a` to `b` (negative when `b` is earlier); no time zone involved. */
export function daysBetween(a: number, b: number): number {
  const utc = (d: number) => Date.UTC(Math.floor(d / 10000), (Math.floor(d / 100) % 100) - 1, d % 100);
  return Math.round((utc(b) - utc(a)) / 86_400_000);
}

/** True when `hhmm` is a real time of day written HHMM (0–2359); `allow2400` admits 2400 as an end. */
export function isRealHhmm(hhmm: unknown, allow2400 = false): hhmm is number {
  if (typeof hhmm !== 'number' || !Number.isInteger(hhmm) || hhmm < 0) return false;
  if (allow2400 && hhmm === 2400) return true;
  return Math.floor(hhmm / 100) <= 23 && hhmm % 100 <= 59;
}
