import { query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { LatLng } from './geocoder.service';

/**
 * Which place a position is at: the nearest live place (`deleted_at IS NULL`) of the company whose
 * check-in radius covers it (`radius` m, 0 → the company's `default_radius`). Used by `locate`'s
 * `withAddress`.
 *
 * A read model across domains: `places` (this lib's) with the company's `default_radius` from
 * `companies` (owned by `@app/members`), read in the same statement — one round trip per call. (The
 * class keeps its service name: `locate` injects it by that name.)
 */
@Injectable()
export class PlaceAtService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The name of the place each of `points` (degrees, WGS84) is at, or null where no place covers it;
   * same order and length as `points`. One query for any number of points: per point, a KNN (`<->`)
   * scan of the places' GiST index bounded by `ST_DWithin` to the company's largest radius, then the
   * place's own radius (`ST_DWithin` on geography: metres on the WGS84 spheroid, boundary included).
   * Ties at the same distance go to the smaller place id.
   */
  async nameAt(companyId: string, points: readonly LatLng[]): Promise<Array<string | null>> {
    const out: Array<string | null> = points.map(() => null);
    if (!points.length) return out;
    const rows = await query<{ i: number; name: string }>(
      this.dataSource,
      `WITH co AS (SELECT default_radius::float8 AS dr FROM companies WHERE id = $1),
            reach AS (
              SELECT COALESCE(max(CASE WHEN p.radius > 0 THEN p.radius ELSE co.dr END), 0)::float8 AS m
                FROM places p, co WHERE p.company_id = $1 AND p.deleted_at IS NULL AND p.location IS NOT NULL),
            pts AS (
              SELECT u.i, ST_SetSRID(ST_MakePoint(u.lng, u.lat), 4326)::geography AS g
                FROM unnest($2::float8[], $3::float8[]) WITH ORDINALITY AS u(lat, lng, i))
       SELECT pts.i::int AS i, hit.name
         FROM pts CROSS JOIN reach CROSS JOIN co
         CROSS JOIN LATERAL (
           SELECT p.name FROM places p
            WHERE p.company_id = $1 AND p.deleted_at IS NULL
              AND ST_DWithin(p.location, pts.g, reach.m)
              AND ST_DWithin(p.location, pts.g, CASE WHEN p.radius > 0 THEN p.radius ELSE co.dr END)
            ORDER BY p.location <-> pts.g, p.id
            LIMIT 1) hit`,
      [companyId, points.map((p) => p.lat), points.map((p) => p.lng)],
    );
    for (const r of rows) out[r.i - 1] = r.name;
    return out;
  }
}
