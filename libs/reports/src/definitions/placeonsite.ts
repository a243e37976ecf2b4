import { dayInZone } from '@app/core/pure';
import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { countPlaceVisits, PlaceVisitRow, readPlaceVisits } from '../reads/places-onsite.read';

/** The `placeonsite` report's columns (ours; docs/reports-time.md). */
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
      address: r.address || null,
      username: null,
      place_uid: r.place_id,
    },
    geometry: placeGeometry(r),
  };
}

/**
 * `placeonsite` (company-wide; `accounts` are place uids): per place (request order) who was on site —
 * each place check-in that began in the range (company days), with in, out and duration — then the
 * place's total row (visits, distinct members, closed visits' time). Geometry: the place's location.
 */
export const PLACEONSITE_REPORT: ReportDefinition = {
  type: 'placeonsite',
  title: 'Place on site',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    if (!ctx.range) return;
    const zone = ctx.company.timezone || 'UTC';
    let current: PlaceTotal | null = null;
    for await (const r of readPlaceVisits(ctx.db, ctx.companyId, ctx.places.map((p) => p.id), ctx.range.fromMs, ctx.range.untilMs)) {
      if (current && current.row.ord !== r.ord) {
        yield totalRow(current);
        current = null;
      }
      current ??= { row: r, visits: 0, seconds: 0, members: new Set() };
      if (r.in_ts === null || r.member_id === null) continue;
      const inTs = Number(r.in_ts);
      const outTs = r.out_ts === null ? null : Number(r.out_ts);
      const duration = outTs === null ? null : (outTs - inTs) / 1000;
      current.visits++;
      current.seconds += duration ?? 0;
      current.members.add(r.member_id);
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
    return (await countPlaceVisits(ctx.db, ctx.companyId, ctx.places.map((p) => p.id), ctx.range.fromMs, ctx.range.untilMs)) ?? ctx.places.length;
  },
};
