/**
 * Retry timing for webhook deliveries (CONTRACTS.md, "Delivery").
 */

/** Parses `WEBHOOK_RETRY_SCHEDULE` ("5,300,1800") into ms. */
export function parseSchedule(schedule: string): number[] {
  return schedule.split(',').map((s) => Number(s) * 1000);
}

/**
 * Delay before the next attempt after `failures` failed attempts (1 = the first attempt failed),
 * with ±20 % jitter from `random` (0..1); null when the schedule is exhausted (abandon).
 */
export function retryDelayMs(failures: number, scheduleMs: number[], random: number = Math.random()): number | null {
  const base = scheduleMs[failures - 1];
  if (base === undefined) return null;
  return Math.round(base * (0.8 + 0.4 * random));
}

/**
 * `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP date) in ms from `now`, clamped to
 * [1 s, 24 h]; null when absent or unreadable.
 */
export function retryAfterMs(header: string | string[] | undefined, now: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    // an HTTP date names a weekday or month; V8's lenient Date.parse would read "-5" or "1.5" as dates
    if (!/[A-Za-z]{3}/.test(trimmed)) return null;
    const date = Date.parse(trimmed);
    if (Number.isNaN(date)) return null;
    ms = date - now;
  }
  return Math.min(Math.max(ms, 1000), 24 * 3600 * 1000);
}
