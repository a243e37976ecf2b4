import type { ReportContext, ReportDefinition, ReportMember } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import {
  DetectedStop,
  detectStops,
  fixDays,
  memberDays,
  memberWindow,
  NearPlace,
  nearestPlaces,
  requireRange,
  trackingOffTimes,
  trackRules,
} from './track-days';

/** The `stopsreport` columns (ours; docs/reports-tracks.md). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'member', title: 'Member', kind: 'text', width: 24 },
  { key: 'date', title: 'Date', kind: 'date', width: 12 },
  { key: 'from', title: 'From', kind: 'datetime', width: 18 },
  { key: 'to', title: 'To', kind: 'datetime', width: 18 },
  { key: 'duration', title: 'Duration', kind: 'duration', width: 10 },
  { key: 'place', title: 'Nearest place', kind: 'text', width: 24 },
  { key: 'place_distance', title: 'Distance to place', kind: 'distance', width: 10 },
  { key: 'address', title: 'Place address', kind: 'text', width: 28 },
  { key: 'latitude', title: 'Latitude', kind: 'coordinate', width: 11 },
  { key: 'longitude', title: 'Longitude', kind: 'coordinate', width: 11 },
  { key: 'fixes', title: 'Fixes', kind: 'integer', default: false },
];

/** A detected stop as a row (Point geometry at the stop's position). */
export function stopRow(member: ReportMember, day: number, stop: DetectedStop, place: NearPlace | null): ReportRow {
  return {
    values: {
      member: member.name,
      date: day,
      from: stop.fromTs,
      to: stop.toTs,
      duration: (stop.toTs - stop.fromTs) / 1000,
      place: place?.name ?? null,
      place_distance: place?.distance ?? null,
      address: place ? place.address || null : null,
      latitude: stop.lat,
      longitude: stop.lng,
      fixes: stop.fixes,
    },
    geometry: { type: 'Point', coordinates: [stop.lng, stop.lat] },
  };
}

/**
 * A member's stops of the range: its fixes streamed a day at a time through the split rule's stop
 * search; the (few) stops are kept until the cursor closes, then named by one nearest-place query.
 */
export async function memberStops(
  ctx: ReportContext,
  member: ReportMember,
): Promise<Array<{ day: number; stop: DetectedStop; place: NearPlace | null }>> {
  const range = requireRange(ctx);
  const rules = trackRules(ctx);
  const window = memberWindow(ctx, member);
  const offs = await trackingOffTimes(ctx.db, ctx.companyId, member.id, window.fromMs, window.untilMs);
  const found: Array<{ day: number; stop: DetectedStop }> = [];
  for await (const d of fixDays(ctx.db, ctx.companyId, member, memberDays(range.from, range.until, member.timezone))) {
    for (const stop of detectStops(d.fixes, offs, rules)) found.push({ day: d.day, stop });
  }
  const places = await nearestPlaces(
    ctx.db,
    ctx.companyId,
    found.map((f) => f.stop),
  );
  return found.map((f, i) => ({ ...f, place: places[i] }));
}

/**
 * `stopsreport`: one row per stop detected in the members' fixes (the tracks' rule: ≥ the stop
 * threshold within 100 m — createreport's `stopMinutes`, else the company's `stop_minutes`), members in request order, stops in time order — where (the stay's
 * mean position, its nearest place within 200 m), from, to and how long. No `count`: stops are only
 * known by reading the fixes, so a pdf stops at its row limit instead.
 */
export const STOPS_REPORT: ReportDefinition = {
  type: 'stopsreport',
  title: 'Stops',
  columns: COLUMNS,
  async *rows(ctx: ReportContext): AsyncIterable<ReportRow> {
    for (const member of ctx.members) {
      for (const s of await memberStops(ctx, member)) yield stopRow(member, s.day, s.stop, s.place);
    }
  },
};
