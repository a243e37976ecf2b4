/**
 * `alerts`' read model (docs/reports.md): the company's alert firings of a range — `alert_firings` with
 * the rule's title (`alert_rules`), the member's name (`members`), the place's and zone's names
 * (`places`, `zones`) and where the member was (its last `location_fixes` row before the firing, else
 * the place's position). Plain SQL through {@link ReportDb} (a report thread).
 */
import type { ReportDb } from '../report-definition';

/** How far back (ms) a firing looks for the member's fix to place it on the map. */
const FIX_LOOKBACK_MS = 3_600_000;

/** A firing as {@link readFirings} reads it (`ts` bigint as text). */
export interface FiringRow {
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

/** The company's firings in [fromMs, untilMs), time-ordered (then id), streamed. */
export function readFirings(db: ReportDb, companyId: string, fromMs: number, untilMs: number): AsyncIterable<FiringRow> {
  return db.cursor<FiringRow>(ROWS_SQL, [companyId, fromMs, untilMs]);
}

/** How many firings {@link readFirings} gives. */
export async function countFirings(db: ReportDb, companyId: string, fromMs: number, untilMs: number): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM alert_firings f WHERE ${WHERE}`, [
    companyId,
    fromMs,
    untilMs,
  ]);
  return n;
}
