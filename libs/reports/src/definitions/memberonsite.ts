import { dayInZone } from '@app/core/pure';
import type { ReportContext, ReportDefinition, ReportMember } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { countMemberVisits } from '../reads/locations-time-data.read';
import { memberSpan, readVisits, Visit } from './time-data';

/** The `memberonsite` report's columns (ours; docs/reports.md "memberonsite"). */
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
  { key: 'open', title: 'Still on site', kind: 'check', width: 8 },
  { key: 'place_uid', title: 'Place uid', kind: 'text', default: false, width: 28 },
  { key: 'job_uid', title: 'Job uid', kind: 'text', default: false, width: 28 },
  { key: 'username', title: 'Username', kind: 'text', default: false, width: 28 },
];

/**
 * One visit as a row: `duration` its on-site time in the member's span, s (the one rule,
 * `./onsite.ts`: out − in for a visit inside the span; an open one counted to min(span end, now)).
 */
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
      duration: (v.end - v.start) / 1000,
      visits: null,
      open: v.outTs === null,
      place_uid: v.placeId,
      job_uid: v.jobId,
      username: member.username,
    },
  };
}

/** A member's total row: its visits counted, their on-site times summed (open ones as counted); `open` when one is. */
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
      duration: visits.reduce((s, v) => s + (v.end - v.start) / 1000, 0),
      visits: visits.length,
      open: visits.some((v) => v.outTs === null),
      place_uid: null,
      job_uid: null,
      username: member.username,
    },
  };
}

/**
 * `memberonsite`: per member (request order) each visit — a job or place check-in, or a job checked
 * in by hand — overlapping the range (the member's days; `./onsite.ts`), in check-in order, then a
 * total row.
 */
export const MEMBERONSITE_REPORT: ReportDefinition = {
  type: 'memberonsite',
  title: 'Member on site',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    const now = Date.now();
    for (const member of ctx.members) {
      const span = memberSpan(ctx, member);
      const visits = await readVisits(ctx.db, ctx.companyId, member.id, span, now);
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
