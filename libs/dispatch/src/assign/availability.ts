/**
 * Whether a member works on a day — the availability rule of CONTRACTS.md "Dispatch" (autoassign's
 * candidates), as a pure function with every input injected: the caller reads the member, its first
 * team and the company, and computes the day's start in the company's time zone.
 *
 * Source of the rule: the spec's member fields (`working_hours`: keys `monday` to `sunday`, each
 * `{start, end}` in minutes from midnight, start 0 and end 0 = off; `working_hours_overrides`
 * date-specific; `ignore_working_hours_until_ts` a timestamp) and CONTRACTS.md, which pins the
 * overrides' shape `{ "YYYYMMDD": {start, end} }` and the order override → member → first team →
 * company.
 */

/** One day's hours: minutes from midnight (0..1440); start 0 and end 0 = off. */
export interface DayHoursInput {
  start: number;
  end: number;
}

/** A week of hours, keys `monday` … `sunday` (as `libs/members` stores `working_hours`). */
export type WeekHoursInput = Partial<Record<Weekday, DayHoursInput>>;

export const WEEKDAY_KEYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAY_KEYS)[number];

/** What {@link isWorkingOn} reads. Absent and null mean "not set". */
export interface AvailabilityInput {
  /** The member's `working_hours_overrides`, keyed by `YYYYMMDD`. */
  overrides?: Record<string, DayHoursInput> | null;
  /** The member's `working_hours`. */
  hours?: WeekHoursInput | null;
  /** The `working_hours` of the member's FIRST team in `teams_config` (null when it has none of its own). */
  teamHours?: WeekHoursInput | null;
  /** The company's default `working_hours`. */
  companyHours?: WeekHoursInput | null;
  /** The member's `ignore_working_hours_until_ts`, ms since the epoch; 0 / absent = not set. */
  ignoreUntilTs?: number | null;
  /** The start of `day` in the company's time zone, ms since the epoch (the caller knows the zone). */
  dayStartMs: number;
}

/** Where the deciding hours came from (`ignored` = `ignore_working_hours_until_ts`, `unset` = nothing anywhere). */
export type AvailabilitySource = 'ignored' | 'override' | 'member' | 'team' | 'company' | 'unset';

export interface Availability {
  working: boolean;
  source: AvailabilitySource;
  /** The day's hours that decided it (absent for `ignored` and `unset`). */
  hours?: DayHoursInput;
}

/**
 * The weekday of a calendar day `YYYYMMDD` (proleptic Gregorian; the date itself has no time zone).
 * Throws on a number that is not a real date.
 */
export function weekdayOf(day: number): Weekday {
  const y = Math.floor(day / 10000);
  const m = Math.floor(day / 100) % 100;
  const d = day % 100;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (!Number.isInteger(day) || t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) {
    throw new RangeError(`day ${day} is not a real date YYYYMMDD`);
  }
  // getUTCDay: 0 = Sunday
  return WEEKDAY_KEYS[(t.getUTCDay() + 6) % 7];
}

/** A day's hours mean work when `end > start` (0/0 is off; the members lib refuses other empty spans). */
function works(h: DayHoursInput): boolean {
  return h.end > h.start;
}

/**
 * The availability of a member on `day` (YYYYMMDD), rule by rule:
 * 1. `ignoreUntilTs` later than `dayStartMs` → available (`ignored`), whatever the hours say;
 * 2. `overrides[day]` when present decides (`override`);
 * 3. else the member's own `hours` for that weekday (`member`);
 * 4. else its first team's `teamHours` (`team`);
 * 5. else the company's `companyHours` (`company`);
 * 6. nothing set anywhere → available (`unset`).
 * A level counts as set when its week object is present (a week without that weekday's key —
 * which the members lib refuses — falls through to the next level). A day with start 0 and end 0 is off.
 */
export function availabilityOn(input: AvailabilityInput, day: number): Availability {
  const weekday = weekdayOf(day);
  if (input.ignoreUntilTs && input.ignoreUntilTs > input.dayStartMs) return { working: true, source: 'ignored' };
  const override = input.overrides?.[String(day)];
  if (override) return { working: works(override), source: 'override', hours: override };
  const levels: Array<[AvailabilitySource, WeekHoursInput | null | undefined]> = [
    ['member', input.hours],
    ['team', input.teamHours],
    ['company', input.companyHours],
  ];
  for (const [source, week] of levels) {
    const h = week?.[weekday];
    if (h) return { working: works(h), source, hours: h };
  }
  return { working: true, source: 'unset' };
}

/** True when the member works on `day` (YYYYMMDD): {@link availabilityOn}`(input, day).working`. */
export function isWorkingOn(input: AvailabilityInput, day: number): boolean {
  return availabilityOn(input, day).working;
}
