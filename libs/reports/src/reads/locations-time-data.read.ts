/**
 * The time reports' read model (`timesheet`, `timeallocation`, `statistics`, `memberonsite`;
 * docs/reports-time.md): one member's `clock_events`, visits (`checkins` rows, and `jobs` checked in
 * by hand without one, with their `places`) and `tracks` of a span — the locations lib's tables
 * mostly — and the row counts, which read the member's zone from `members` (else `companies`). Plain
 * SQL through {@link ReportDb} (a report thread: no Nest, no TypeORM).
 */
import { SQL_NOW_MS } from '@app/core/pure';
import type { ReportDb } from '../report-definition';

/** Whether the member was clocked in just before `beforeMs` (its last clock event's `tracking`); null with no event before. */
export async function readClockStateBefore(db: ReportDb, companyId: string, memberId: string, beforeMs: number): Promise<boolean | null> {
  const [before] = await db.query<{ tracking: boolean }>(
    `SELECT tracking FROM clock_events WHERE company_id = $1 AND member_id = $2 AND ts < $3 ORDER BY ts DESC LIMIT 1`,
    [companyId, memberId, beforeMs],
  );
  return before ? before.tracking : null;
}

/** The member's clock events in [fromMs, untilMs), oldest first (`ts` bigint as text), streamed. */
export function readClockEvents(
  db: ReportDb,
  companyId: string,
  memberId: string,
  fromMs: number,
  untilMs: number,
): AsyncIterable<{ ts: string; tracking: boolean }> {
  return db.cursor<{ ts: string; tracking: boolean }>(
    `SELECT ts, tracking FROM clock_events WHERE company_id = $1 AND member_id = $2 AND ts >= $3 AND ts < $4 ORDER BY ts`,
    [companyId, memberId, fromMs, untilMs],
  );
}

/** A visit as {@link readVisitRows} reads it (bigint columns as text). */
export interface VisitRow {
  kind: 'job' | 'place';
  in_ts: string;
  out_ts: string | null;
  job_id: string | null;
  place_id: string | null;
  job_title: string | null;
  place_name: string | null;
  address: string | null;
}

const VISITS_SQL = `
  SELECT v.* FROM (
    SELECT CASE WHEN c.job_id IS NULL THEN 'place' ELSE 'job' END AS kind, c.in_ts, c.out_ts, c.job_id,
           COALESCE(c.place_id, NULLIF(j.place_uid, '')) AS place_id, j.destination_name AS job_title,
           COALESCE(p.name, jp.name) AS place_name,
           COALESCE(NULLIF(j.destination_text, ''), p.address, jp.address) AS address
      FROM checkins c
      LEFT JOIN jobs j ON j.company_id = c.company_id AND j.id = c.job_id
      LEFT JOIN places p ON p.company_id = c.company_id AND p.id = c.place_id
      LEFT JOIN places jp ON jp.company_id = j.company_id AND jp.id = NULLIF(j.place_uid, '')
     WHERE c.company_id = $1 AND c.member_id = $2 AND c.in_ts < $4 AND (COALESCE(c.out_ts, $5) > $3 OR c.in_ts >= $3)
    UNION ALL
    SELECT 'job', j.ts_check_in, CASE WHEN j.ts_check_out > j.ts_check_in THEN j.ts_check_out END, j.id,
           NULLIF(j.place_uid, ''), j.destination_name, jp.name, COALESCE(NULLIF(j.destination_text, ''), jp.address)
      FROM jobs j
      LEFT JOIN places jp ON jp.company_id = j.company_id AND jp.id = NULLIF(j.place_uid, '')
     WHERE j.company_id = $1 AND j.worker_id = $2 AND NOT j.is_template AND NOT j.archived
       AND j.ts_check_in > 0 AND j.ts_check_in < $4
       AND ((CASE WHEN j.ts_check_out > j.ts_check_in THEN j.ts_check_out ELSE $5 END) > $3 OR j.ts_check_in >= $3)
       AND NOT EXISTS (SELECT 1 FROM checkins c WHERE c.company_id = j.company_id AND c.job_id = j.id)
  ) v ORDER BY v.in_ts, v.kind, v.job_id, v.place_id`;

/**
 * A member's visits overlapping [startMs, endMs) — an open one counted open until `nowMs` — or inside
 * it (a visit of 0 ms), in in-time order (the definition applies the on-site rule's exact test): its `checkins` rows (job or place) plus its jobs checked in by hand (`ts_check_in` set) that
 * have no check-in row (templates and archived jobs left out), streamed.
 */
export function readVisitRows(
  db: ReportDb,
  companyId: string,
  memberId: string,
  startMs: number,
  endMs: number,
  nowMs: number,
): AsyncIterable<VisitRow> {
  return db.cursor<VisitRow>(VISITS_SQL, [companyId, memberId, startMs, endMs, nowMs]);
}

/** A member's tracks overlapping [startMs, endMs) (start < end of span, end ≥ its start), in start order (bigint columns as text), streamed. */
export function readTrackRows(
  db: ReportDb,
  companyId: string,
  memberId: string,
  startMs: number,
  endMs: number,
): AsyncIterable<{ start_ts: string; end_ts: string; distance: number; speed_max: number }> {
  return db.cursor<{ start_ts: string; end_ts: string; distance: number; speed_max: number }>(
    `SELECT start_ts, end_ts, distance, speed_max FROM tracks
      WHERE company_id = $1 AND member_id = $2 AND start_ts < $4 AND end_ts >= $3 ORDER BY start_ts, id`,
    [companyId, memberId, startMs, endMs],
  );
}

/**
 * SQL for each named member's span as ms (`start_ms`, `end_ms`), the range's dates in the member's
 * zone (else the company's): `$1` company id, `$2` member ids (text[]), `$3`/`$4` from/until YYYYMMDD.
 * Used by the `count`s (memberonsite, timesheet), which run before queueing on the api's connection.
 */
export const MEMBER_SPANS_SQL = `
  SELECT m.id, COALESCE(NULLIF(m.timezone, ''), co.timezone, 'UTC') AS tz,
         (extract(epoch from (to_date($3::text, 'YYYYMMDD')::timestamp AT TIME ZONE COALESCE(NULLIF(m.timezone, ''), co.timezone, 'UTC'))) * 1000)::bigint AS start_ms,
         (extract(epoch from ((to_date($4::text, 'YYYYMMDD') + 1)::timestamp AT TIME ZONE COALESCE(NULLIF(m.timezone, ''), co.timezone, 'UTC'))) * 1000)::bigint AS end_ms
    FROM members m JOIN companies co ON co.id = m.company_id
   WHERE m.company_id = $1 AND m.id = ANY($2::text[])`;

/**
 * The on-site rule's "belongs to the span" (`../definitions/onsite.ts` `visitInSpan`) in SQL, for a visit
 * `in_ts`/`out` (out null while open) and a span `s.start_ms`/`s.end_ms`: it began before the span's
 * end and ended after its start (an open one at min(span end, now)), or lies in it with 0 ms.
 */
const inSpanSql = (inTs: string, out: string) => {
  const end = `COALESCE(${out}, LEAST(s.end_ms, ${SQL_NOW_MS}))`;
  return `${inTs} < s.end_ms AND (${end} > s.start_ms OR (${inTs} >= s.start_ms AND ${end} >= ${inTs}))`;
};

/** Exact: the visits belonging to each member's span (check-in rows and hand-checked jobs without one) plus a total row per member. */
const MEMBERONSITE_COUNT_SQL = `
  WITH s AS (${MEMBER_SPANS_SQL})
  SELECT ((SELECT count(*) FROM s)
        + (SELECT count(*) FROM checkins c JOIN s ON s.id = c.member_id WHERE c.company_id = $1 AND ${inSpanSql('c.in_ts', 'c.out_ts')})
        + (SELECT count(*) FROM jobs j JOIN s ON s.id = j.worker_id
            WHERE j.company_id = $1 AND NOT j.is_template AND NOT j.archived AND j.ts_check_in > 0
              AND ${inSpanSql('j.ts_check_in', 'CASE WHEN j.ts_check_out > j.ts_check_in THEN j.ts_check_out END')}
              AND NOT EXISTS (SELECT 1 FROM checkins c WHERE c.company_id = j.company_id AND c.job_id = j.id)))::int AS n`;

/**
 * Upper bound of the rows: per member its total row plus the member-zone days its clocked-in time
 * touches (events from 31 days before the range: a clock-in left open longer than that is not
 * foreseen here, and the render then stops at the pdf limit instead).
 */
const TIMESHEET_COUNT_SQL = `
  WITH s AS (${MEMBER_SPANS_SQL}),
  ev AS (
    SELECT e.member_id, e.ts, e.tracking, lead(e.ts) OVER (PARTITION BY e.member_id ORDER BY e.ts) AS next_ts
      FROM clock_events e JOIN s ON s.id = e.member_id
     WHERE e.company_id = $1 AND e.ts >= s.start_ms - 31 * 86400000::bigint AND e.ts < s.end_ms
  )
  SELECT (SELECT count(*) FROM s)::int + (
    SELECT count(*) FROM (
      SELECT DISTINCT ev.member_id, d
        FROM ev JOIN s ON s.id = ev.member_id,
             generate_series((to_timestamp(GREATEST(ev.ts, s.start_ms) / 1000.0) AT TIME ZONE s.tz)::date,
                             (to_timestamp((LEAST(COALESCE(ev.next_ts, s.end_ms), s.end_ms) - 1) / 1000.0) AT TIME ZONE s.tz)::date,
                             interval '1 day') d
       WHERE ev.tracking AND COALESCE(ev.next_ts, s.end_ms) > s.start_ms) x)::int AS n`;

/** The members' rows of a range's dates (YYYYMMDD): what the time counts take. */
export interface MemberDaysQuery {
  companyId: string;
  memberIds: string[];
  from: number;
  until: number;
}

/** `memberonsite`'s exact row count; null when the count answered nothing. */
export async function countMemberVisits(db: ReportDb, q: MemberDaysQuery): Promise<number | null> {
  const [r] = await db.query<{ n: number }>(MEMBERONSITE_COUNT_SQL, [q.companyId, q.memberIds, q.from, q.until]);
  return r?.n ?? null;
}

/** `timesheet`'s upper bound of rows; null when the count answered nothing. */
export async function countTimesheetRows(db: ReportDb, q: MemberDaysQuery): Promise<number | null> {
  const [r] = await db.query<{ n: number }>(TIMESHEET_COUNT_SQL, [q.companyId, q.memberIds, q.from, q.until]);
  return r?.n ?? null;
}
