/**
 * Days and times in the company's time zone (CONTRACTS.md: every "today" is the company's), with the
 * browser's Intl only. Days are YYYYMMDD integers; instants are ms.
 */

const partsCache = new Map<string, Intl.DateTimeFormat>();
function formatter(tz: string): Intl.DateTimeFormat {
  let f = partsCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsCache.set(tz, f);
  }
  return f;
}

/** The wall clock at `ms` in `tz`. */
export function wallClock(
  ms: number,
  tz: string,
): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const p = Object.fromEntries(
    formatter(tz)
      .formatToParts(ms)
      .map((x) => [x.type, x.value]),
  );
  return { year: +p.year, month: +p.month, day: +p.day, hour: +p.hour % 24, minute: +p.minute, second: +p.second };
}

/** The day (YYYYMMDD) at `ms` in `tz`. */
export function dayAt(ms: number, tz: string): number {
  const c = wallClock(ms, tz);
  return c.year * 10000 + c.month * 100 + c.day;
}

/** `tz`'s offset from UTC at `ms`, ms (east positive). */
function offsetAt(ms: number, tz: string): number {
  const c = wallClock(ms, tz);
  return Date.UTC(c.year, c.month - 1, c.day, c.hour, c.minute, c.second) - Math.floor(ms / 1000) * 1000;
}

/** The instant `day` starts in `tz` (its local midnight), ms. */
export function dayStart(day: number, tz: string): number {
  const utc = Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, day % 100);
  // two passes: the offset at the guess, then at the corrected instant (DST changes at midnight)
  let t = utc - offsetAt(utc, tz);
  t = utc - offsetAt(t, tz);
  return t;
}

/** `[from, until)` of `day` in `tz`, ms. */
export function dayBounds(day: number, tz: string): { from: number; until: number } {
  const next = nextDay(day, 1);
  return { from: dayStart(day, tz), until: dayStart(next, tz) };
}

/** `day` plus `n` days. */
export function nextDay(day: number, n: number): number {
  const d = new Date(Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, (day % 100) + n));
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** YYYYMMDD ↔ the `YYYY-MM-DD` of an `<input type=date>`. */
export function dayToIso(day: number): string {
  const s = String(day);
  return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
}
export function isoToDay(iso: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? Number(m[1] + m[2] + m[3]) : null;
}

/** "14:05" at `ms` in `tz`; "" for 0. */
export function clockText(ms: number, tz: string): string {
  if (!ms) return '';
  const c = wallClock(ms, tz);
  return `${String(c.hour).padStart(2, '0')}:${String(c.minute).padStart(2, '0')}`;
}
