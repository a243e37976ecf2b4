/**
 * What the time reports read, one member at a time: clock events, visits (check-ins, and jobs checked
 * in by hand) and tracks of a span, as intervals for {@link ./time-accounting}. The SQL is the read
 * model's (`../reads/locations-time-data.read.ts`, docs/reports-time.md); this turns its rows into
 * intervals (a report thread: no Nest, no TypeORM). A member's rows of a span are bounded (a few per
 * day), so they are collected per member.
 */
import type { ReportContext, ReportDb, ReportMember } from '../report-definition';
import { readClockEvents, readClockStateBefore, readTrackRows, readVisitRows } from '../reads/locations-time-data.read';
import { onsiteInterval, visitInSpan } from './onsite';
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
  const before = await readClockStateBefore(db, companyId, memberId, span.start);
  const events: { ts: number; tracking: boolean }[] = [];
  for await (const e of readClockEvents(db, companyId, memberId, span.start, span.end)) {
    events.push({ ts: Number(e.ts), tracking: e.tracking });
  }
  return clockedIntervals(before ?? false, events, span, nowMs);
}

/** One visit: a check-in row (geofence), or a job checked in by hand without one. */
export interface Visit extends Interval {
  kind: 'job' | 'place';
  /** the check-in's in time, ms (≤ start when the visit began before the span) */
  inTs: number;
  /** the check-out time, ms; null while open (then `end` = min(span end, now): {@link onsiteInterval}) */
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

/**
 * A member's visits belonging to `span` ({@link visitInSpan}: overlapping it), in in-time order: its
 * `checkins` rows (job or place), plus its jobs checked in by hand (`ts_check_in` set through editjobs
 * or the app) that have no check-in row — from `ts_check_in` to `ts_check_out` (open when that is not
 * later). Templates and archived jobs are left out. `start`/`end` are the visit's on-site time in the
 * span by the one rule ({@link onsiteInterval}: cut to the span; an open visit ends at min(span end, now)).
 */
export async function readVisits(db: ReportDb, companyId: string, memberId: string, span: Interval, nowMs: number): Promise<Visit[]> {
  const out: Visit[] = [];
  for await (const r of readVisitRows(db, companyId, memberId, span.start, span.end, nowMs)) {
    const inTs = Number(r.in_ts);
    const outTs = r.out_ts === null ? null : Number(r.out_ts);
    if (!visitInSpan({ inTs, outTs }, span, nowMs)) continue;
    const { start, end } = onsiteInterval({ inTs, outTs }, span, nowMs);
    out.push({
      kind: r.kind,
      inTs,
      outTs,
      start,
      end,
      jobId: r.job_id,
      placeId: r.place_id,
      jobTitle: r.job_title,
      placeName: r.place_name,
      address: r.address || null,
    });
  }
  return out;
}

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
  for await (const t of readTrackRows(db, companyId, memberId, span.start, span.end)) {
    out.push({ start: Number(t.start_ts), end: Number(t.end_ts), distance: t.distance, speedMax: t.speed_max });
  }
  return out;
}

