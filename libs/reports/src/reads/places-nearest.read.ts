/**
 * The nearest live place of a position (`stopsreport`, `timeline`, `mileage`; docs/reports-tracks.md):
 * reads `places` (the places lib's table). Plain SQL through {@link ReportDb} (a report thread).
 */
import type { ReportDb } from '../report-definition';

/** m: how far a position may be from a place's point for that place to be named as where it is. */
export const NEAREST_PLACE_M = 200;

/** The nearest place of a position. */
export interface NearPlace {
  name: string;
  address: string;
  /** m, from the position to the place's point (WGS84 spheroid) */
  distance: number;
}

/**
 * SQL of a LATERAL subquery giving the nearest live place (`deleted_at IS NULL`) of company
 * `companyExpr` within {@link NEAREST_PLACE_M} of the point (`latExpr`, `lngExpr` degrees): columns
 * `name`, `address`, `distance` (m). A KNN scan (`location <-> point`) of the company's places index,
 * bounded by `ST_DWithin`; ties go to the smaller place id.
 */
export function nearestPlaceSql(companyExpr: string, latExpr: string, lngExpr: string): string {
  const point = `ST_SetSRID(ST_MakePoint(${lngExpr}, ${latExpr}), 4326)::geography`;
  return `(SELECT p.name, p.address, ST_Distance(p.location, ${point}) AS distance
             FROM places p
            WHERE p.company_id = ${companyExpr} AND p.deleted_at IS NULL AND p.location IS NOT NULL
              AND ST_DWithin(p.location, ${point}, ${NEAREST_PLACE_M})
            ORDER BY p.location <-> ${point}, p.id
            LIMIT 1)`;
}

/** The nearest place ({@link nearestPlaceSql}) of each point, in order; null where none is within reach. One query. */
export async function nearestPlaces(
  db: ReportDb,
  companyId: string,
  points: ReadonlyArray<{ lat: number; lng: number }>,
): Promise<Array<NearPlace | null>> {
  const out: Array<NearPlace | null> = points.map(() => null);
  if (!points.length) return out;
  const rows = await db.query<{ i: number; name: string; address: string; distance: number }>(
    `SELECT u.i::int AS i, hit.name, hit.address, hit.distance
       FROM unnest($2::float8[], $3::float8[]) WITH ORDINALITY AS u(lat, lng, i)
       CROSS JOIN LATERAL ${nearestPlaceSql('$1', 'u.lat', 'u.lng')} hit`,
    [companyId, points.map((p) => p.lat), points.map((p) => p.lng)],
  );
  for (const r of rows) out[r.i - 1] = { name: r.name, address: r.address, distance: Number(r.distance) };
  return out;
}
