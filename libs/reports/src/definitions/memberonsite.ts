import { dayInZone } from '@app/core/pure';
import type { ReportContext, ReportDefinition, ReportMember } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { countMemberVisits } from '../reads/locations-time-data.read';
import { memberSpan, readVisits, Visit } from './time-data';

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
    const q = { companyId: ctx.companyId, memberIds: ctx.members.map((m) => m.id), from: ctx.range.from, until: ctx.range.until };
    return (await countMemberVisits(ctx.db, q)) ?? ctx.members.length;
  },
};
