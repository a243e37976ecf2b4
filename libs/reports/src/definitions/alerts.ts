import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';
import { countFirings, FiringRow, readFirings } from '../reads/alerts-firings.read';

/** The `alerts` report's columns (ours; docs/reports.md). */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'time', title: 'Time', kind: 'datetime', width: 18 },
  { key: 'member', title: 'Member', kind: 'text', width: 22 },
  { key: 'alert', title: 'Alert', kind: 'text', width: 24 },
  { key: 'action', title: 'Action', kind: 'text', width: 20 },
  { key: 'place', title: 'Place', kind: 'text', width: 20 },
  { key: 'zone', title: 'Zone', kind: 'text', width: 18 },
  { key: 'check_type', title: 'Check', kind: 'text', width: 7 },
  { key: 'message', title: 'Message', kind: 'text', width: 48 },
  { key: 'latitude', title: 'Latitude', kind: 'coordinate', width: 11, default: false },
  { key: 'longitude', title: 'Longitude', kind: 'coordinate', width: 11, default: false },
  { key: 'member_uid', title: 'Member uid', kind: 'text', width: 28, default: false },
  { key: 'alert_id', title: 'Alert id', kind: 'text', width: 28, default: false },
  { key: 'firing_id', title: 'Firing id', kind: 'text', width: 28, default: false },
];

/** One firing as a row; a Point where the member was (null when unknown). */
export function firingRow(r: FiringRow): ReportRow {
  return {
    values: {
      time: Number(r.ts),
      member: r.member,
      alert: r.title,
      action: r.action,
      place: r.place,
      zone: r.zone,
      check_type: r.check_type,
      message: r.message,
      latitude: r.lat,
      longitude: r.lng,
      member_uid: r.member_id,
      alert_id: r.rule_id,
      firing_id: r.id,
    },
    geometry: r.lat !== null && r.lng !== null ? { type: 'Point', coordinates: [r.lng, r.lat] } : null,
  };
}

/** `alerts` (company-wide, staff only): every alert firing of the range (`alert_firings`), time-ordered. */
export const ALERTS_REPORT: ReportDefinition = {
  type: 'alerts',
  title: 'Alerts',
  columns: COLUMNS,
  async *rows(ctx: ReportContext) {
    const { fromMs, untilMs } = ctx.range!;
    for await (const r of readFirings(ctx.db, ctx.companyId, fromMs, untilMs)) yield firingRow(r);
  },
  async count(ctx) {
    const { fromMs, untilMs } = ctx.range!;
    return countFirings(ctx.db, ctx.companyId, fromMs, untilMs);
  },
};
