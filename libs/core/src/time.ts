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
/** zone → UTC day index → the zone's offset (ms) all that day, or null when it changes within the day */
const dayOffsets = new Map<string, Map<number, number | null>>();

/**
 * The wall-clock reading of instant `ms` in `zone` (IANA). Fast: Intl is asked twice per zone and UTC
 * day (the offsets at the day's first and last ms), and when they agree — every day but a DST change's
 * — the reading is plain arithmetic on that offset; on a change day each instant asks Intl. The cache
 * is bounded (cleared at 100,000 days per zone). Reports format ~10⁵ timestamps a file with it.
 * @throws RangeError for a zone Intl does not know
 */
export function wallClock(ms: number, zone: string): WallClock {
  let days = dayOffsets.get(zone);
  if (!days) dayOffsets.set(zone, (days = new Map()));
  const dayIndex = Math.floor(ms / DAY_MS);
  let offset = days.get(dayIndex);
  if (offset === undefined) {
    if (days.size >= 100_000) days.clear();
    const first = zoneOffset(dayIndex * DAY_MS, zone);
    offset = first === zoneOffset(dayIndex * DAY_MS + DAY_MS - 1000, zone) ? first : null;
    days.set(dayIndex, offset);
  }
  if (offset === null) return intlWallClock(ms, zone);
  const d = new Date(ms + offset);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
}

/** Offset of `zone` from UTC at instant `ms`, in ms (positive east of Greenwich). */
function zoneOffset(ms: number, zone: string): number {
  const w = intlWallClock(ms, zone);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant (ms) when the wall clock in `zone` reads day `day` (YYYYMMDD) at `minutes` after
 * midnight (0–1440). In a DST gap the later offset applies; in an overlap, the first occurrence.
 */
export function zonedDayTimeToMs(day: number, minutes: number, zone: string): number {
  let cache = zonedCache.get(zone);
  if (!cache) zonedCache.set(zone, (cache = new Map()));
  const key = day * 1441 + minutes;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  if (cache.size >= 50_000) cache.clear(); // bounded: a day's jobs share few (day, time) keys per zone
  const ms = computeZonedDayTime(day, minutes, zone);
  cache.set(key, ms);
  return ms;
}

/** zone → (day × 1441 + minutes) → ms: numeric keys, no string built per call */
const zonedCache = new Map<string, Map<number, number>>();

function computeZonedDayTime(day: number, minutes: number, zone: string): number {
  const guess = Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100, 0, minutes);
  // the zone's offsets a day either side cover any transition on this day
  const before = zoneOffset(guess - 86_400_000, zone);
  const after = zoneOffset(guess + 86_400_000, zone);
  const matches = [guess - before, guess - after].filter((ms) => ms + zoneOffset(ms, zone) === guess);
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
