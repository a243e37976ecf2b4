/**
 * What the time reports read, one member at a time: clock events, visits (check-ins, and jobs checked
 * in by hand) and tracks of a span, as intervals for {@link ./time-accounting}. Plain SQL through
 * {@link ReportDb} (a report thread: no Nest, no TypeORM). Reads `clock_events`, `checkins`, `tracks`
 * (the locations lib's tables), `jobs` and `places` — documented read model, docs/reports-time.md.
 * A member's rows of a span are bounded (a few per day), so they are collected per member.
 */
import type { ReportContext, ReportDb, ReportMember } from '../report-definition';
import { ClockedTime, clockedIntervals, daysSpan, Interval } from './time-accounting';

/**
 * The span a member's days cover: the range's dates read in the member's own time zone, [from 00:00,
 * day after until 00:00) there. So a member's days are whole days of its zone, labelled with the
 * requested dates, whichever zone the company is in.
 * @throws Error for an undated context (the time types are all dated)
 */
export function memberSpan(ctx: ReportContext, member: ReportMember): Interval {
  if (!ctx.range) throw new Error('a time report needs a range');
  return daysSpan(ctx.range.from, ctx.range.until, member.timezone);
}

/** The clocked-in time of `memberId` within `span` (an open clock-in counted to min(span end, `nowMs`)). */
export async function readClocked(db: ReportDb, companyId: string, memberId: string, span: Interval, nowMs: number): Promise<ClockedTime> {
  const [before] = await db.query<{ tracking: boolean }>(
    `SELECT tracking FROM clock_events WHERE company_id = $1 AND member_id = $2 AND ts < $3 ORDER BY ts DESC LIMIT 1`,
    [companyId, memberId, span.start],
  );
  const events: { ts: number; tracking: boolean }[] = [];
  for await (const e of db.cursor<{ ts: string; tracking: boolean }>(
    `SELECT ts, tracking FROM clock_events WHERE company_id = $1 AND member_id = $2 AND ts >= $3 AND ts < $4 ORDER BY ts`,
    [companyId, memberId, span.start, span.end],
  )) {
    events.push({ ts: Number(e.ts), tracking: e.tracking });
  }
  return clockedIntervals(before?.tracking ?? false, events, span, nowMs);
}

/** One visit: a check-in row (geofence), or a job checked in by hand without one. */
export interface Visit extends Interval {
  kind: 'job' | 'place';
  /** the check-in's in time, ms (≤ start when the visit began before the span) */
  inTs: number;
  /** the check-out time, ms; null while open (then `end` = min(span end, now)) */
  outTs: number | null;
  jobId: string | null;
  placeId: string | null;
  /** the job's title (`destination_name`), else null */
  jobTitle: string | null;
  /** the place's name (the job's place for a job), else null */
  placeName: string | null;
  /** the job's address text, else the place's address, else null */
  address: string | null;
}

interface VisitRow {
  kind: 'job' | 'place';
  in_ts: string;
  out_ts: string | null;
  job_id: string | null;
  place_id: string | null;
  job_title: string | null;
  place_name: string | null;
  address: string | null;
}

/**
 * A member's visits overlapping `span`, in in-time order: its `checkins` rows (job or place), plus its
 * jobs checked in by hand (`ts_check_in` set through editjobs or the app) that have no check-in row —
 * from `ts_check_in` to `ts_check_out` (open when that is not later). Templates and archived jobs are
 * left out. `start`/`end` are the visit cut to the span; an open visit ends at min(span end, now).
 */
export async function readVisits(db: ReportDb, companyId: string, memberId: string, span: Interval, nowMs: number): Promise<Visit[]> {
  const out: Visit[] = [];
  for await (const r of db.cursor<VisitRow>(VISITS_SQL, [companyId, memberId, span.start, span.end, nowMs])) {
    const inTs = Number(r.in_ts);
    const outTs = r.out_ts === null ? null : Number(r.out_ts);
    const start = Math.max(inTs, span.start);
    const end = Math.min(outTs ?? Math.min(span.end, nowMs), span.end);
    out.push({
      kind: r.kind,
      inTs,
      outTs,
      start,
      end: Math.max(start, end),
      jobId: r.job_id,
      placeId: r.place_id,
      jobTitle: r.job_title,
      placeName: r.place_name,
      address: r.address || null,
    });
  }
  return out;
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
     WHERE c.company_id = $1 AND c.member_id = $2 AND c.in_ts < $4 AND COALESCE(c.out_ts, $5) > $3
    UNION ALL
    SELECT 'job', j.ts_check_in, CASE WHEN j.ts_check_out > j.ts_check_in THEN j.ts_check_out END, j.id,
           NULLIF(j.place_uid, ''), j.destination_name, jp.name, COALESCE(NULLIF(j.destination_text, ''), jp.address)
      FROM jobs j
      LEFT JOIN places jp ON jp.company_id = j.company_id AND jp.id = NULLIF(j.place_uid, '')
     WHERE j.company_id = $1 AND j.worker_id = $2 AND NOT j.is_template AND NOT j.archived
       AND j.ts_check_in > 0 AND j.ts_check_in < $4
       AND (CASE WHEN j.ts_check_out > j.ts_check_in THEN j.ts_check_out ELSE $5 END) > $3
       AND NOT EXISTS (SELECT 1 FROM checkins c WHERE c.company_id = j.company_id AND c.job_id = j.id)
  ) v ORDER BY v.in_ts, v.kind, v.job_id, v.place_id`;

/** A track: its interval and figures. */
export interface TrackSpan extends Interval {
  /** m */
  distance: number;
  /** m/s */
  speedMax: number;
}

/** A member's tracks overlapping `span` (start < span end, end ≥ span start), in start order; intervals not cut. */
export async function readTracks(db: ReportDb, companyId: string, memberId: string, span: Interval): Promise<TrackSpan[]> {
  const out: TrackSpan[] = [];
  for await (const t of db.cursor<{ start_ts: string; end_ts: string; distance: number; speed_max: number }>(
    `SELECT start_ts, end_ts, distance, speed_max FROM tracks
      WHERE company_id = $1 AND member_id = $2 AND start_ts < $4 AND end_ts >= $3 ORDER BY start_ts, id`,
    [companyId, memberId, span.start, span.end],
  )) {
    out.push({ start: Number(t.start_ts), end: Number(t.end_ts), distance: t.distance, speedMax: t.speed_max });
  }
  return out;
}

/**
 * SQL for each named member's span as ms (`start_ms`, `end_ms`), the range's dates in the member's
 * zone (else the company's): `$1` company id, `$2` member ids (text[]), `$3`/`$4` from/until YYYYMMDD.
 * Used by the `count`s, which run before queueing on the api's connection.
 */
export const MEMBER_SPANS_SQL = `
  SELECT m.id, COALESCE(NULLIF(m.timezone, ''), co.timezone, 'UTC') AS tz,
         (extract(epoch from (to_date($3::text, 'YYYYMMDD')::timestamp AT TIME ZONE COALESCE(NULLIF(m.timezone, ''), co.timezone, 'UTC'))) * 1000)::bigint AS start_ms,
         (extract(epoch from ((to_date($4::text, 'YYYYMMDD') + 1)::timestamp AT TIME ZONE COALESCE(NULLIF(m.timezone, ''), co.timezone, 'UTC'))) * 1000)::bigint AS end_ms
    FROM members m JOIN companies co ON co.id = m.company_id
   WHERE m.company_id = $1 AND m.id = ANY($2::text[])`;
