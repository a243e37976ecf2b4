/**
 * `placeonsite`'s read model (docs/reports-time.md): the named `places` with their place check-ins
 * (`checkins` rows without a job, the locations lib's table) and each visitor's name (`members`).
 * Plain SQL through {@link ReportDb} (a report thread).
 */
import type { ReportDb } from '../report-definition';

/** A place with one of its visits as {@link readPlaceVisits} reads it (bigint columns as text); visit columns null for a place without visits. */
export interface PlaceVisitRow {
  ord: string;
  place_id: string;
  place_name: string;
  address: string;
  lat: number | null;
  lng: number | null;
  member_name: string | null;
  username: string | null;
  member_id: string | null;
  in_ts: string | null;
  out_ts: string | null;
}

/**
 * A place check-in `c` belonging to the range [$3, $4) by the on-site rule (`../definitions/onsite.ts`
 * `visitInSpan`; $5 = now, ms): it began before the range's end and ended after its start (an open one
 * at min(range end, now)), or lies in it with 0 ms.
 */
const IN_RANGE = `c.in_ts < $4 AND (COALESCE(c.out_ts, LEAST($4, $5)) > $3 OR (c.in_ts >= $3 AND COALESCE(c.out_ts, LEAST($4, $5)) >= c.in_ts))`;

/**
 * The named places (request order) each with its place check-ins belonging to the range (company
 * days; {@link IN_RANGE}), in check-in order; a place without visits comes once with null visit columns.
 */
const ROWS_SQL = `
  SELECT a.ord, p.id AS place_id, p.name AS place_name, p.address,
         ST_Y(p.location::geometry) AS lat, ST_X(p.location::geometry) AS lng,
         m.name AS member_name, m.username, c.member_id, c.in_ts, c.out_ts
    FROM unnest($2::text[]) WITH ORDINALITY AS a(id, ord)
    JOIN places p ON p.company_id = $1 AND p.id = a.id
    LEFT JOIN checkins c ON c.company_id = $1 AND c.place_id = p.id AND c.job_id IS NULL AND ${IN_RANGE}
    LEFT JOIN members m ON m.company_id = $1 AND m.id = c.member_id
   ORDER BY a.ord, c.in_ts, c.member_id`;

/** Exact: the place check-ins of the named places belonging to the range, plus a total row per place. */
const COUNT_SQL = `
  SELECT ((SELECT count(*) FROM places p WHERE p.company_id = $1 AND p.id = ANY($2::text[]))
        + (SELECT count(*) FROM checkins c WHERE c.company_id = $1 AND c.place_id = ANY($2::text[]) AND c.job_id IS NULL AND ${IN_RANGE}))::int AS n`;

/** The places (request order) with their visits belonging to [fromMs, untilMs) (open ones up to `nowMs`) in check-in order, streamed. */
export function readPlaceVisits(
  db: ReportDb,
  companyId: string,
  placeIds: string[],
  fromMs: number,
  untilMs: number,
  nowMs: number,
): AsyncIterable<PlaceVisitRow> {
  return db.cursor<PlaceVisitRow>(ROWS_SQL, [companyId, placeIds, fromMs, untilMs, nowMs]);
}

/** How many rows `placeonsite` gives ({@link COUNT_SQL}); null when the count answered nothing. */
export async function countPlaceVisits(
  db: ReportDb,
  companyId: string,
  placeIds: string[],
  fromMs: number,
  untilMs: number,
  nowMs: number,
): Promise<number | null> {
  const [r] = await db.query<{ n: number }>(COUNT_SQL, [companyId, placeIds, fromMs, untilMs, nowMs]);
  return r?.n ?? null;
}
