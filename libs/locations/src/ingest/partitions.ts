/**
 * Calendar months of the `location_fixes` partitions (UTC; one partition per month, named
 * `location_fixes_pYYYYMM`, holding [first ms of the month, first ms of the next)).
 */

/** ms of the first instant of the UTC month holding `ts` (ms). */
export function monthStart(ts: number): number {
  const d = new Date(ts);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** ms of the first instant of the UTC month `n` months after the one holding `ts` (n may be negative). */
export function addMonths(ts: number, n: number): number {
  const d = new Date(ts);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
}

/** The partition name of the month holding `ts`: `location_fixes_p202611`. */
export function partitionName(ts: number): string {
  const d = new Date(ts);
  return `location_fixes_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * Whether the month whose partition is `name` lies wholly before `cutoff` (ms): its end (the next
 * month's start) is ≤ cutoff, so every fix it can hold is older than the retention. `null` for a
 * name that is not a month partition.
 */
export function partitionEndsBefore(name: string, cutoff: number): boolean | null {
  const m = /^location_fixes_p(\d{4})(\d{2})$/.exec(name);
  if (!m) return null;
  const end = Date.UTC(Number(m[1]), Number(m[2]), 1); // month index m[2] (1-based) = the next month, 0-based
  return end <= cutoff;
}
