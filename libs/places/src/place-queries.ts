import { toPoint } from '@app/core';
import { PlaceView, PlaceViewSource, toPlaceView } from './place-view';

/**
 * The columns of `places p` every place read selects (with `creatorId`; the creator's name is joined
 * after, by {@link PLACE_CREATOR_JOIN}). bigint columns are cast to float8 so `pg` answers numbers;
 * the position is read as `lat`/`lng` degrees.
 */
export const PLACE_FIELDS_SQL = `p.id, p.name, p.address, p.city, p.state, p.postalcode, p.country_code AS "countryCode",
  p.phone, p.email, ST_Y(p.location::geometry) AS lat, ST_X(p.location::geometry) AS lng, p.radius, p.color,
  p.linked_forms AS "linkedForms", p.data, p.teams, p.created_at::float8 AS "createdAt", p.updated_at::float8 AS "updatedAt",
  p.creator_id AS "creatorId"`;

/**
 * The creator's name of rows `k` with {@link PLACE_FIELDS_SQL}, for the company `$1`: a documented
 * read model across domains — `members` (owned by `@app/members`) is read for `name` only, scoped by
 * the company (docs/places-and-geo.md).
 */
export const PLACE_CREATOR_JOIN = `LEFT JOIN members m ON m.id = k."creatorId" AND m.company_id = $1`;

/** A row of {@link PLACE_FIELDS_SQL} with the creator's name (`m.name AS "creatorName"`). */
export type PlaceRow = Omit<PlaceViewSource, 'location'> & {
  lat: number | null;
  lng: number | null;
  creatorId: string | null;
  creatorName: string | null;
};

/** The view of a {@link PlaceRow}. */
export function toPlaceRowView(row: PlaceRow): PlaceView {
  const location = row.lat === null || row.lng === null ? null : toPoint({ lat: row.lat, lng: row.lng });
  return toPlaceView({ ...row, location }, row.creatorName);
}

/** `%`, `_` and `\` escaped for `LIKE … ESCAPE '\'`: the text matches literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * How many nearest places the KNN scan fetches for an answer of `max`. PostGIS orders geography
 * `<->` by distance on a sphere; the answer is ordered by the geodesic on the WGS84 ellipsoid
 * (`ST_Distance(geography)`), which differs by up to about 0.5 %. The scan takes 10 % + 10 more
 * candidates than asked, re-sorts them geodesically and keeps `max`, so a place swapped across
 * the boundary by the sphere's error is still found.
 */
export function knnCandidates(max: number): number {
  return max + Math.ceil(max / 10) + 10;
}

/** What a getplaces reads, after validation and the caller's visibility. */
export interface PlacesFilter {
  companyId: string;
  /** the caller: its latest position (`member_locations`) orders the answer */
  memberId: string;
  /** case-insensitive substring of the name */
  query?: string;
  uids?: string[];
  /** only places sharing one of these teams (a worker without `workers_view_places`) */
  teams?: number[];
  max: number;
}

/**
 * getplaces as one statement: `[sql, params]`. Live places (`deleted_at IS NULL`) of the company
 * matching the filters; nearest first from the caller's latest position — the KNN scan `<->` on
 * `IDX_places_company_location` (GiST on `(company_id, location)` of live places), re-sorted by the
 * geodesic, ties by name, uid — then places without a location by name, uid. A caller with no
 * position gets located places by name, then the others by name.
 *
 * The caller's position is read from `member_locations` (owned by `@app/locations`, which depends
 * on places): a documented read model — `lat`/`lng` of the caller's own row only.
 */
export function getPlacesSql(f: PlacesFilter): [string, unknown[]] {
  const params: unknown[] = [f.companyId, f.memberId, knnCandidates(f.max), f.max];
  const filters: string[] = [];
  if (f.query !== undefined && f.query !== '') {
    params.push(`%${escapeLike(f.query)}%`);
    filters.push(`p.name ILIKE $${params.length} ESCAPE '\\'`);
  }
  if (f.uids) {
    params.push(f.uids);
    filters.push(`p.id = ANY($${params.length}::text[])`);
  }
  if (f.teams) {
    params.push(f.teams);
    filters.push(`EXISTS (SELECT 1 FROM jsonb_array_elements_text(p.teams) t WHERE t::int = ANY($${params.length}::int[]))`);
  }
  const where = ['p.company_id = $1', 'p.deleted_at IS NULL', ...filters].join(' AND ');
  const sql = `WITH me AS (
  SELECT ST_SetSRID(ST_MakePoint(ml.lng, ml.lat), 4326)::geography AS at FROM member_locations ml
  WHERE ml.company_id = $1 AND ml.member_id = $2 AND ml.lat IS NOT NULL AND ml.lng IS NOT NULL
), near AS (
  SELECT ${PLACE_FIELDS_SQL}, 0 AS grp, ST_Distance(p.location, (SELECT at FROM me)) AS dist FROM places p
  WHERE ${where} AND p.location IS NOT NULL AND EXISTS (SELECT 1 FROM me)
  ORDER BY p.location <-> (SELECT at FROM me) LIMIT $3
), by_name AS (
  SELECT ${PLACE_FIELDS_SQL}, 1 AS grp, NULL::float8 AS dist FROM places p
  WHERE ${where} AND p.location IS NOT NULL AND NOT EXISTS (SELECT 1 FROM me)
  ORDER BY p.name, p.id LIMIT $4
), unlocated AS (
  SELECT ${PLACE_FIELDS_SQL}, 2 AS grp, NULL::float8 AS dist FROM places p
  WHERE ${where} AND p.location IS NULL
  ORDER BY p.name, p.id LIMIT $4
)
SELECT k.*, m.name AS "creatorName"
FROM (SELECT * FROM near UNION ALL SELECT * FROM by_name UNION ALL SELECT * FROM unlocated) k ${PLACE_CREATOR_JOIN}
ORDER BY k.grp, k.dist, k.name, k.id
LIMIT $4`;
  return [sql, params];
}

/**
 * getplaces rendered by PostgreSQL: {@link getPlacesSql}'s statement wrapped so that it answers one
 * row, `{places}`, the JSON array text of the places' views in the answer's order — field for field
 * what {@link toPlaceRowView} + `JSON.stringify` give (`location` `{lat, lng}` or null, `creator` ''
 * when unknown, `data` as single-key objects in stored order, `tsSaved` = `tsCreated` until edited).
 * Numbers are PostgreSQL's shortest round-trip text, as JavaScript's; `teams` is jsonb's text (a space
 * after each comma), the same JSON value. 500 places cost one text value instead of 500 parsed rows,
 * their views and a `JSON.stringify`.
 */
export function getPlacesJsonSql(f: PlacesFilter): [string, unknown[]] {
  const [inner, params] = getPlacesSql(f);
  const sql = `SELECT '[' || coalesce(string_agg(row_to_json(v)::text, ',' ORDER BY q.ord), '') || ']' AS places
FROM (SELECT r.*, row_number() OVER (ORDER BY r.grp, r.dist, r.name, r.id) AS ord FROM (${inner}) r) q
CROSS JOIN LATERAL (
  SELECT q.id AS uid, q.name, q.address, q.city, q.state, q.postalcode, q."countryCode" AS country_code, q.phone, q.email,
         CASE WHEN q.lat IS NULL OR q.lng IS NULL THEN NULL ELSE json_build_object('lat', q.lat, 'lng', q.lng) END AS location,
         q.radius, q.color, q."linkedForms", coalesce(q."creatorName", '') AS creator,
         (SELECT coalesce(json_agg(json_build_object(d->>'key', d->'val') ORDER BY o), '[]'::json)
            FROM jsonb_array_elements(q.data) WITH ORDINALITY AS x(d, o)) AS data,
         q.teams, q."createdAt" AS "tsCreated", coalesce(q."updatedAt", q."createdAt") AS "tsSaved"
) v`;
  return [sql, params];
}
