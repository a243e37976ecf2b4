import { preparedQuery } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PLACE_CREATOR_NAME_SQL, PLACE_FIELDS_SQL } from './members-place-views.read';
import { PlaceRow, PlaceView, toPlaceRowView } from './place-view';

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
 * getplaces as one statement: `[sql, params, name]` — `name` differs for each set of filters (the
 * text is the same for the same set), for a named prepared statement. Live places (`deleted_at IS NULL`) of the company
 * matching the filters; nearest first from the caller's latest position — the KNN scan `<->` on
 * `IDX_places_company_location` (GiST on `(company_id, location)` of live places), re-sorted by the
 * geodesic, ties by name, uid — then places without a location by name, uid. A caller with no
 * position gets located places by name, then the others by name.
 *
 * The unlocated places are read only to fill what the located ones leave of `max` (`LIMIT max −
 * located`, 0 when they fill it: the scan isn't run at all). They sort after every located place,
 * so the answer is the same; reading them anyway cost ~1.5 ms of the statement's ~8 (10,000 places,
 * 1 % unlocated, `max` 500).
 *
 * The caller's position is read from `member_locations` (owned by `@app/locations`, which depends
 * on places): a documented read model — `lat`/`lng` of the caller's own row only; the creator's name
 * from `members` (owned by `@app/members`; {@link PLACE_CREATOR_NAME_SQL}).
 */
export function getPlacesSql(f: PlacesFilter): [string, unknown[], string] {
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
), located AS MATERIALIZED (
  SELECT * FROM near UNION ALL SELECT * FROM by_name
), unlocated AS (
  SELECT ${PLACE_FIELDS_SQL}, 2 AS grp, NULL::float8 AS dist FROM places p
  WHERE ${where} AND p.location IS NULL
  ORDER BY p.name, p.id LIMIT GREATEST($4 - (SELECT count(*) FROM located), 0)
)
SELECT k.*, ${PLACE_CREATOR_NAME_SQL}
FROM (SELECT * FROM located UNION ALL SELECT * FROM unlocated) k
ORDER BY k.grp, k.dist, k.name, k.id
LIMIT $4`;
  const variant = `${f.query !== undefined && f.query !== '' ? 'q' : ''}${f.uids ? 'u' : ''}${f.teams ? 't' : ''}`;
  return [sql, params, `fieldwork_getplaces_${variant}`];
}

/**
 * getplaces' read: `places` (this lib's) ordered from the caller's position in `member_locations`
 * (owned by `@app/locations`), with each creator's name from `members` (owned by `@app/members`), as
 * ONE statement ({@link getPlacesSql}) — a second round trip for the position would cost more than
 * the read model it avoids.
 */
@Injectable()
export class NearestPlacesReader {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The places of {@link getPlacesSql}'s answer, in its order. */
  async nearest(filter: PlacesFilter): Promise<PlaceView[]> {
    const [sql, params, name] = getPlacesSql(filter);
    // the hot read: a named prepared statement, planned once per connection rather than per call
    return (await preparedQuery<PlaceRow>(this.dataSource, name, sql, params)).map(toPlaceRowView);
  }
}
