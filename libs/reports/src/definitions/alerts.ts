import type { ReportContext, ReportDefinition } from '../report-definition';
import type { ColumnSpec, ReportRow } from '../report-table';

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

/** How far back (ms) a firing looks for the member's fix to place it on the map. */
const FIX_LOOKBACK_MS = 3_600_000;

interface FiringRow {
  id: string;
  ts: string;
  rule_id: string;
  title: string | null;
  action: string;
  member_id: string;
  member: string | null;
  place: string | null;
  zone: string | null;
  check_type: string | null;
  message: string;
  lat: number | null;
  lng: number | null;
}

const WHERE = `f.company_id = $1 AND f.ts >= $2 AND f.ts < $3`;

/**
 * Firings of the range, time-ordered, with where the member was: its last fix at or before the
 * firing (at most an hour before; the fixes' primary key serves the lookup), else the place's position.
 */
const ROWS_SQL = `
  SELECT f.id, f.ts, f.rule_id, r.title, f.action, f.member_id, m.name AS member, p.name AS place, z.name AS zone,
         f.check_type, f.message, COALESCE(fx.lat, ST_Y(p.location::geometry)) AS lat, COALESCE(fx.lng, ST_X(p.location::geometry)) AS lng
    FROM alert_firings f
    LEFT JOIN alert_rules r ON r.id = f.rule_id AND r.company_id = f.company_id
    LEFT JOIN members m ON m.company_id = f.company_id AND m.id = f.member_id
    LEFT JOIN places p ON p.company_id = f.company_id AND p.id = f.place_id
    LEFT JOIN zones z ON z.company_id = f.company_id AND z.id = f.zone_id
    LEFT JOIN LATERAL (
      SELECT x.lat, x.lng FROM location_fixes x
       WHERE x.company_id = f.company_id AND x.member_id = f.member_id AND x.ts <= f.ts AND x.ts > f.ts - ${FIX_LOOKBACK_MS}
       ORDER BY x.ts DESC LIMIT 1) fx ON true
   WHERE ${WHERE}
   ORDER BY f.ts, f.id`;

function toRow(r: FiringRow): ReportRow {
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
    for await (const r of ctx.db.cursor<FiringRow>(ROWS_SQL, [ctx.companyId, fromMs, untilMs])) yield toRow(r);
  },
  async count(ctx) {
    const { fromMs, untilMs } = ctx.range!;
    const [{ n }] = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alert_firings f WHERE ${WHERE}`, [ctx.companyId, fromMs, untilMs]);
    return n;
  },
};
