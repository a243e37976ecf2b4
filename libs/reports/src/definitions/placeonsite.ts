import { dayInZone } from '@app/core/pure';
import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { countPlaceVisits, PlaceVisitRow, readPlaceVisits } from '../reads/places-onsite.read';
import { onsiteSeconds, visitInSpan } from './onsite';

/** The `placeonsite` report's columns (ours; docs/reports.md "placeonsite"). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'place', title: 'Place', kind: 'text', width: 22 },
  { key: 'row', title: 'Row', kind: 'text', width: 7 },
  { key: 'member', title: 'Member', kind: 'text', width: 24 },
  { key: 'date', title: 'Date', kind: 'date', width: 12 },
  { key: 'check_in', title: 'Check in', kind: 'datetime', width: 18 },
  { key: 'check_out', title: 'Check out', kind: 'datetime', width: 18 },
  { key: 'duration', title: 'Duration', kind: 'duration', width: 11 },
  { key: 'visits', title: 'Visits', kind: 'integer', width: 8 },
  { key: 'members', title: 'Members', kind: 'integer', width: 9 },
  { key: 'open', title: 'Still on site', kind: 'check', width: 8 },
  { key: 'address', title: 'Address', kind: 'text', default: false, width: 26 },
  { key: 'username', title: 'Username', kind: 'text', default: false, width: 28 },
  { key: 'place_uid', title: 'Place uid', kind: 'text', default: false, width: 28 },
];

/** A place's running total while its visits stream by. */
interface PlaceTotal {
  row: PlaceVisitRow;
  visits: number;
  seconds: number;
  members: Set<string>;
  open: boolean;
}

function placeGeometry(r: PlaceVisitRow): ReportRow['geometry'] {
  return r.lat === null || r.lng === null ? null : { type: 'Point', coordinates: [r.lng, r.lat] };
}

function totalRow(t: PlaceTotal): ReportRow {
  const r = t.row;
  return {
    values: {
      place: r.place_name,
      row: 'total',
      member: null,
      date: null,
      check_in: null,
      check_out: null,
      duration: t.seconds,
      visits: t.visits,
      members: t.members.size,
      open: t.open,
      address: r.address || null,
      username: null,
      place_uid: r.place_id,
    },
    geometry: placeGeometry(r),
  };
}

/**
 * `placeonsite` (company-wide; `accounts` are place uids): per place (request order) who was on site —
 * each place check-in belonging to the range (company days; the on-site rule, `./onsite.ts`), with in,
 * out and its on-site time — then the place's total row (visits, distinct members, the summed on-site
 * time). Geometry: the place's location.
 */
export const PLACEONSITE_REPORT: ReportDefinition = {
  type: 'placeonsite',
  title: 'Place on site',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    if (!ctx.range) return;
    const zone = ctx.company.timezone || 'UTC';
    const now = Date.now();
    const span = { start: ctx.range.fromMs, end: ctx.range.untilMs };
    let current: PlaceTotal | null = null;
    for await (const r of readPlaceVisits(ctx.db, ctx.companyId, ctx.places.map((p) => p.id), span.start, span.end, now)) {
      if (current && current.row.ord !== r.ord) {
        yield totalRow(current);
        current = null;
      }
      current ??= { row: r, visits: 0, seconds: 0, members: new Set(), open: false };
      if (r.in_ts === null || r.member_id === null) continue;
      const visit = { inTs: Number(r.in_ts), outTs: r.out_ts === null ? null : Number(r.out_ts) };
      if (!visitInSpan(visit, span, now)) continue;
      const { inTs, outTs } = visit;
      const duration = onsiteSeconds(visit, span, now);
      current.visits++;
      current.seconds += duration;
      current.members.add(r.member_id);
      if (outTs === null) current.open = true;
      yield {
        values: {
          place: r.place_name,
          row: 'visit',
          member: r.member_name,
          date: dayInZone(inTs, zone),
          check_in: inTs,
          check_out: outTs,
          duration,
          visits: null,
          members: null,
          open: outTs === null,
          address: r.address || null,
          username: r.username,
          place_uid: r.place_id,
        },
        geometry: placeGeometry(r),
      };
    }
    if (current) yield totalRow(current);
  },
  async count(ctx) {
    if (!ctx.range) return ctx.places.length;
    const places = ctx.places.map((p) => p.id);
    return (await countPlaceVisits(ctx.db, ctx.companyId, places, ctx.range.fromMs, ctx.range.untilMs, Date.now())) ?? ctx.places.length;
  },
};
