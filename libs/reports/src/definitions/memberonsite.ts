import { dayInZone } from '@app/core/pure';
import type { ReportContext, ReportDefinition, ReportMember } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { MEMBER_SPANS_SQL, memberSpan, readVisits, Visit } from './time-data';

/** The `memberonsite` report's columns (ours; docs/reports-time.md). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'member', title: 'Member', kind: 'text', width: 24 },
  { key: 'row', title: 'Row', kind: 'text', width: 7 },
  { key: 'date', title: 'Date', kind: 'date', width: 12 },
  { key: 'kind', title: 'Kind', kind: 'text', width: 7 },
  { key: 'place', title: 'Place', kind: 'text', width: 22 },
  { key: 'job', title: 'Job', kind: 'text', width: 22 },
  { key: 'address', title: 'Address', kind: 'text', width: 26 },
  { key: 'check_in', title: 'Check in', kind: 'datetime', width: 18 },
  { key: 'check_out', title: 'Check out', kind: 'datetime', width: 18 },
  { key: 'duration', title: 'Duration', kind: 'duration', width: 11 },
  { key: 'visits', title: 'Visits', kind: 'integer', width: 8 },
  { key: 'place_uid', title: 'Place uid', kind: 'text', default: false, width: 28 },
  { key: 'job_uid', title: 'Job uid', kind: 'text', default: false, width: 28 },
  { key: 'username', title: 'Username', kind: 'text', default: false, width: 28 },
];

/** One visit as a row (`duration` from in to out in s; empty while the visit is open). */
export function visitRow(member: ReportMember, v: Visit): ReportRow {
  return {
    values: {
      member: member.name,
      row: 'visit',
      date: dayInZone(v.inTs, member.timezone),
      kind: v.kind,
      place: v.placeName,
      job: v.jobTitle,
      address: v.address,
      check_in: v.inTs,
      check_out: v.outTs,
      duration: v.outTs === null ? null : (v.outTs - v.inTs) / 1000,
      visits: null,
      place_uid: v.placeId,
      job_uid: v.jobId,
      username: member.username,
    },
  };
}

/** A member's total row: its visits counted, their closed durations summed (open visits add nothing). */
export function visitsTotalRow(member: ReportMember, visits: readonly Visit[]): ReportRow {
  return {
    values: {
      member: member.name,
      row: 'total',
      date: null,
      kind: null,
      place: null,
      job: null,
      address: null,
      check_in: null,
      check_out: null,
      duration: visits.reduce((s, v) => s + (v.outTs === null ? 0 : (v.outTs - v.inTs) / 1000), 0),
      visits: visits.length,
      place_uid: null,
      job_uid: null,
      username: member.username,
    },
  };
}

/** Exact: the visits starting in each member's span (check-in rows and hand-checked jobs without one) plus a total row per member. */
const COUNT_SQL = `
  WITH s AS (${MEMBER_SPANS_SQL})
  SELECT ((SELECT count(*) FROM s)
        + (SELECT count(*) FROM checkins c JOIN s ON s.id = c.member_id WHERE c.company_id = $1 AND c.in_ts >= s.start_ms AND c.in_ts < s.end_ms)
        + (SELECT count(*) FROM jobs j JOIN s ON s.id = j.worker_id
            WHERE j.company_id = $1 AND NOT j.is_template AND NOT j.archived AND j.ts_check_in >= s.start_ms AND j.ts_check_in < s.end_ms
              AND NOT EXISTS (SELECT 1 FROM checkins c WHERE c.company_id = j.company_id AND c.job_id = j.id)))::int AS n`;

/**
 * `memberonsite`: per member (request order) each visit — a job or place check-in, or a job checked
 * in by hand — that began in the range (the member's days), in check-in order, then a total row.
 */
export const MEMBERONSITE_REPORT: ReportDefinition = {
  type: 'memberonsite',
  title: 'Member on site',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    const now = Date.now();
    for (const member of ctx.members) {
      const span = memberSpan(ctx, member);
      const visits = (await readVisits(ctx.db, ctx.companyId, member.id, span, now)).filter((v) => v.inTs >= span.start);
      for (const v of visits) yield visitRow(member, v);
      yield visitsTotalRow(member, visits);
    }
  },
  async count(ctx) {
    if (!ctx.range || !ctx.members.length) return ctx.members.length;
    const [r] = await ctx.db.query<{ n: number }>(COUNT_SQL, [ctx.companyId, ctx.members.map((m) => m.id), ctx.range.from, ctx.range.until]);
    return r?.n ?? ctx.members.length;
  },
};
