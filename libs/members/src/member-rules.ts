import { isRealDay } from '@app/core';
import { TeamConfig, WEEKDAYS } from './entities/company.entity';

/**
 * Pure checks of the structured member and company fields (CONTRACTS.md, "Members and company").
 * Each returns null when the value is valid, else the rule it breaks (a phrase for the error).
 */

const MINUTES_PER_DAY = 1440;

/** `{start, end}` in minutes: 0 ≤ start < end ≤ 1440, or 0/0 (off); no overnight shifts. */
export function dayHoursProblem(v: unknown): string | null {
  if (!isPlainObject(v)) return 'must be an object {start, end}';
  const keys = Object.keys(v);
  const extra = keys.filter((k) => k !== 'start' && k !== 'end');
  if (extra.length) return `has unknown key ${extra[0]}`;
  const { start, end } = v as { start: unknown; end: unknown };
  if (!Number.isInteger(start) || !Number.isInteger(end)) return 'start and end must be integers (minutes from midnight)';
  const s = start as number;
  const e = end as number;
  if (s === 0 && e === 0) return null;
  if (s < 0 || e > MINUTES_PER_DAY || s >= e) return 'must have 0 ≤ start < end ≤ 1440 (or start 0 and end 0 for off)';
  return null;
}

/**
 * All seven keys monday…sunday, each valid {@link dayHoursProblem}. `allowSource` admits the
 * `source` key getcompany answers in a team's hours (so a read value can be written back).
 */
export function workingHoursProblem(v: unknown, allowSource = false): string | null {
  if (!isPlainObject(v)) return 'must be an object with keys monday to sunday';
  for (const key of Object.keys(v)) {
    if (!(WEEKDAYS as readonly string[]).includes(key) && !(allowSource && key === 'source')) return `has unknown key ${key}`;
  }
  for (const day of WEEKDAYS) {
    if (!(day in v)) return `must have all seven days (missing ${day})`;
    const p = dayHoursProblem((v as Record<string, unknown>)[day]);
    if (p) return `${day} ${p}`;
  }
  return null;
}

/** `{ "YYYYMMDD": {start, end} }`, at most 366 entries, each key a real date. */
export function workingHoursOverridesProblem(v: unknown): string | null {
  if (!isPlainObject(v)) return 'must be an object keyed by YYYYMMDD';
  const entries = Object.entries(v);
  if (entries.length > 366) return 'must have at most 366 entries';
  for (const [key, hours] of entries) {
    if (!/^\d{8}$/.test(key) || !isRealDay(Number(key))) return `key ${key} must be a real date YYYYMMDD`;
    const p = dayHoursProblem(hours);
    if (p) return `${key} ${p}`;
  }
  return null;
}

/** teams_config: array of {id ≥ 1 unique, name 1–100 chars, working_hours?, route?}, ≤ 1000 teams. */
export function teamsConfigProblem(v: unknown): string | null {
  if (!Array.isArray(v)) return 'must be an array of teams';
  if (v.length > 1000) return 'must have at most 1000 teams';
  const seen = new Set<number>();
  for (let i = 0; i < v.length; i++) {
    const t = v[i] as Record<string, unknown>;
    if (!isPlainObject(t)) return `[${i}] must be an object {id, name}`;
    const extra = Object.keys(t).filter((k) => !['id', 'name', 'working_hours', 'route'].includes(k));
    if (extra.length) return `[${i}] has unknown key ${extra[0]}`;
    if (!Number.isInteger(t.id) || (t.id as number) < 1 || (t.id as number) > 2147483647) return `[${i}].id must be an integer ≥ 1`;
    if (seen.has(t.id as number)) return `[${i}].id ${t.id} is used twice`;
    seen.add(t.id as number);
    if (typeof t.name !== 'string' || t.name.trim().length === 0 || t.name.length > 100)
      return `[${i}].name must be a string of 1 to 100 characters`;
    if (t.working_hours !== undefined && t.working_hours !== null) {
      const p = workingHoursProblem(t.working_hours, true);
      if (p) return `[${i}].working_hours ${p}`;
    }
    if (t.route !== undefined && t.route !== null) {
      const p = routeProblem(t.route);
      if (p) return `[${i}].route ${p}`;
    }
  }
  return null;
}

function routeProblem(v: unknown): string | null {
  if (!isPlainObject(v)) return 'must be an object {lat, lng, time}';
  const r = v as Record<string, unknown>;
  const extra = Object.keys(r).filter((k) => !['lat', 'lng', 'time'].includes(k));
  if (extra.length) return `has unknown key ${extra[0]}`;
  if (r.lat !== undefined && !(typeof r.lat === 'number' && r.lat >= -90 && r.lat <= 90)) return 'lat must be a number in [-90, 90]';
  if (r.lng !== undefined && !(typeof r.lng === 'number' && r.lng >= -180 && r.lng <= 180)) return 'lng must be a number in [-180, 180]';
  if (r.time !== undefined && !(Number.isInteger(r.time) && (r.time as number) >= 0 && (r.time as number) < MINUTES_PER_DAY)) {
    return 'time must be minutes from midnight (0 to 1439)';
  }
  return null;
}

/** Normalises a team as stored: `working_hours.source` is never stored (it is derived). */
export function normalizeTeam(t: TeamConfig): TeamConfig {
  const out: TeamConfig = { id: t.id, name: t.name };
  if (t.working_hours) {
    const { source: _source, ...hours } = t.working_hours as TeamConfig['working_hours'] & { source?: string };
    out.working_hours = hours as TeamConfig['working_hours'];
  }
  if (t.route) out.route = t.route;
  return out;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
