/**
 * The fix-based reports' read model (`gpx`, `stopsreport`, `timeline`; docs/reports-tracks.md): a
 * member's `location_fixes` of a window and its tracking-off `clock_events` (the locations lib's
 * tables). Plain SQL through {@link ReportDb} (a report thread).
 */
import type { ReportDb } from '../report-definition';

/** A fix as {@link readFixRows} reads it (`ts` bigint as text). */
export interface FixRow {
  ts: string;
  lat: number;
  lng: number;
  acc: number | null;
  dir: number | null;
  spd: number | null;
  elv: number | null;
  bat: number | null;
}

const FIXES_SQL = `
  SELECT ts, lat, lng, acc, dir, spd, elv, bat FROM location_fixes
   WHERE company_id = $1 AND member_id = $2 AND ts >= $3 AND ts < $4
   ORDER BY ts`;

/** A member's fixes in [fromMs, untilMs), oldest first, streamed through a cursor 5,000 at a time. */
export function readFixRows(db: ReportDb, companyId: string, memberId: string, fromMs: number, untilMs: number): AsyncIterable<FixRow> {
  return db.cursor<FixRow>(FIXES_SQL, [companyId, memberId, fromMs, untilMs], 5000);
}

/** ms of a member's tracking-off (clock out) events in [fromMs, untilMs), ascending. */
export async function trackingOffTimes(
  db: ReportDb,
  companyId: string,
  memberId: string,
  fromMs: number,
  untilMs: number,
): Promise<number[]> {
  const rows = await db.query<{ ts: string }>(
    `SELECT ts FROM clock_events WHERE company_id = $1 AND member_id = $2 AND NOT tracking AND ts >= $3 AND ts < $4 ORDER BY ts`,
    [companyId, memberId, fromMs, untilMs],
  );
  return rows.map((r) => Number(r.ts));
}
