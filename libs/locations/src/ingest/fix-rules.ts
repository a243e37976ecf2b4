import { Fix } from '../fix';

/** ms of 2000-01-01T00:00:00Z: a fix's `ts` must be after it (CONTRACTS.md "Locations, devices, tracks"). */
export const MIN_FIX_TS = Date.UTC(2000, 0, 1);
/** ms a fix's `ts` may be ahead of the server's clock (phones' clocks drift). */
export const MAX_FIX_AHEAD_MS = 5 * 60_000;
/** The most fixes one `pushlocations` call takes; more → -1 for the call. */
export const MAX_FIXES_PER_CALL = 1000;
/** m: the largest `acc` and |`elv`| accepted (they are stored as 4-byte integers; no real fix comes near). */
export const MAX_METRES = 1_000_000;
/** m/s: the largest `spd` accepted (well above any aircraft a phone rides in). */
export const MAX_SPEED = 1_000;

/** Where the time window of a fix comes from: the server's clock and the history's retention. */
export interface FixWindow {
  /** ms, the server's clock */
  now: number;
  /** ms: fixes older than `now - retentionMs` are refused (LOCATION_RETENTION_DAYS: they would be pruned at once) */
  retentionMs: number;
}

/** A fix refused inside a good call: its index in `locations` and why (`"lat: must be between -90 and 90"`). */
export interface RejectedFix {
  index: number;
  error: string;
}

/** The rule a fix breaks: the field (as `pushlocations` names it) and the rule (`lat`, `must be between -90 and 90`). */
export interface FixProblem {
  field: string;
  rule: string;
}

/** The outcome of {@link validateFixes}: the good fixes (in the order sent) and the refused ones. */
export interface FixValidation {
  fixes: Fix[];
  rejected: RejectedFix[];
}

const FIX_KEYS = new Set(['ts', 'lat', 'lng', 'acc', 'dir', 'spd', 'elv', 'bat']);

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The rule `ts` (ms) breaks under `window`, or null when it is good: an integer after 2000-01-01, at
 * most {@link MAX_FIX_AHEAD_MS} ahead of `now` and not older than the retention. Also used for
 * `tracking_ts` (without the retention bound: pass `retentionMs: Infinity`).
 */
export function tsProblem(ts: unknown, window: FixWindow): string | null {
  if (!Number.isSafeInteger(ts)) return 'must be an integer (ms since the epoch)';
  return tsWindowProblem(ts as number, window);
}

/**
 * The time-window rule an integer `ts` (ms) breaks under `window`, or null: after 2000-01-01, at
 * most {@link MAX_FIX_AHEAD_MS} ahead of `now`, not older than the retention ({@link tsProblem}
 * without its integer check, for a value already checked as an integer: `pushlocations`'
 * `tracking_ts`, with `retentionMs: Infinity`).
 */
export function tsWindowProblem(t: number, window: FixWindow): string | null {
  if (t <= MIN_FIX_TS) return 'must be after 2000-01-01 (ms since the epoch)';
  if (t > window.now + MAX_FIX_AHEAD_MS) return 'must not be more than 5 minutes ahead of the server clock';
  if (t < window.now - window.retentionMs) return 'is older than the location history retention (it would be pruned at once)';
  return null;
}

/** `v` when absent (undefined or null) → null; a finite number within [min, max] → itself; else the rule broken. */
function optionalInRange(v: unknown, min: number, max: number, rule: string): number | null | { problem: string } {
  if (v === undefined || v === null) return null;
  if (!isNumber(v) || v < min || v > max) return { problem: rule };
  return v;
}

/**
 * One fix as a device sent it → a {@link Fix}, or the first rule it breaks ({@link FixProblem}).
 * Rules (CONTRACTS.md): `ts` see {@link tsProblem}; `lat` [-90, 90] and `lng` [-180, 180] required;
 * optional (absent or null → null): `acc` ≥ 0 m, `dir` [0, 360]°, `spd` ≥ 0 m/s, `elv` m, `bat`
 * [0, 100] %; `acc`, `dir`, `elv`, `bat` rounded to integers. Keys other than these are refused.
 */
export function validateFix(raw: unknown, window: FixWindow): Fix | FixProblem {
  const problem = (field: string, rule: string): FixProblem => ({ field, rule });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return problem('fix', 'must be an object {ts, lat, lng, acc, dir, spd, elv, bat}');
  const f = raw as Record<string, unknown>;
  for (const key of Object.keys(f))
    if (!FIX_KEYS.has(key)) return problem(key, 'is not a field of a fix (ts, lat, lng, acc, dir, spd, elv, bat)');
  const ts = tsProblem(f.ts, window);
  if (ts) return problem('ts', ts);
  if (!isNumber(f.lat) || f.lat < -90 || f.lat > 90) return problem('lat', 'must be between -90 and 90');
  if (!isNumber(f.lng) || f.lng < -180 || f.lng > 180) return problem('lng', 'must be between -180 and 180');
  const acc = optionalInRange(f.acc, 0, MAX_METRES, `must be a number ≥ 0 and ≤ ${MAX_METRES} (m)`);
  if (typeof acc === 'object' && acc !== null) return problem('acc', acc.problem);
  const dir = optionalInRange(f.dir, 0, 360, 'must be between 0 and 360 (degrees)');
  if (typeof dir === 'object' && dir !== null) return problem('dir', dir.problem);
  const spd = optionalInRange(f.spd, 0, MAX_SPEED, `must be a number ≥ 0 and ≤ ${MAX_SPEED} (m/s)`);
  if (typeof spd === 'object' && spd !== null) return problem('spd', spd.problem);
  const elv = optionalInRange(f.elv, -MAX_METRES, MAX_METRES, `must be a number between -${MAX_METRES} and ${MAX_METRES} (m)`);
  if (typeof elv === 'object' && elv !== null) return problem('elv', elv.problem);
  const bat = optionalInRange(f.bat, 0, 100, 'must be between 0 and 100 (percent)');
  if (typeof bat === 'object' && bat !== null) return problem('bat', bat.problem);
  const round = (v: number | null) => (v === null ? null : Math.round(v));
  return { ts: f.ts as number, lat: f.lat, lng: f.lng, acc: round(acc), dir: round(dir), spd, elv: round(elv), bat: round(bat) };
}

/**
 * The per-fix rules over a whole `locations` array: good fixes are kept in the order sent, bad ones
 * reported by index and skipped (a bad fix never fails the call).
 */
export function validateFixes(raw: readonly unknown[], window: FixWindow): FixValidation {
  const fixes: Fix[] = [];
  const rejected: RejectedFix[] = [];
  raw.forEach((entry, index) => {
    const out = validateFix(entry, window);
    if (isFixProblem(out)) rejected.push({ index, error: `${out.field}: ${out.rule}` });
    else fixes.push(out);
  });
  return { fixes, rejected };
}

/** Whether {@link validateFix}'s answer is a refusal. */
export function isFixProblem(out: Fix | FixProblem): out is FixProblem {
  return 'rule' in out;
}
