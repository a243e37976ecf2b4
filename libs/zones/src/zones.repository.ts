import { LatLng, query, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PolygonInspection } from './zone-polygon';
import { GeoJsonPolygon, ZoneRef, ZoneRow } from './zone-view';

/** The columns a zone's view reads (`z` the zone). */
const ZONE_FIELDS_SQL = `z.id, z.name, ST_AsGeoJSON(z.polygon, 15)::json AS polygon, z.danger, z.teams, z.color,
  z.created_at::float8 AS "createdAt", z.updated_at::float8 AS "updatedAt"`;

/** A polygon parameter as PostGIS stores it: parsed, SRID 4326, exterior counter-clockwise, holes clockwise. */
const POLYGON_PARAM = (n: number) => `ST_ForcePolygonCCW(ST_GeomFromGeoJSON($${n}::text))::geography`;

/** The columns of `zones` a write sets. */
export interface ZonePatch {
  name?: string;
  polygon?: GeoJsonPolygon;
  danger?: boolean;
  teams?: number[];
  color?: string;
}

/**
 * Every SQL statement on the `zones` table, one method per purpose, over the caller's transaction or
 * the pool; every statement is scoped by `company_id`. Spatial predicates use `ST_Covers(geography)`,
 * answered from the GiST index `(company_id, polygon) WHERE deleted_at IS NULL`.
 */
@Injectable()
export class ZonesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (db: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(fn);
  }

  /**
   * What PostGIS says of a polygon whose GeoJSON shape passed `polygonShapeIssue`: `ST_IsValid` and
   * `ST_IsValidReason` of the geometry, and `ST_Area` of the geography (m², only when valid).
   */
  async inspectPolygon(polygon: GeoJsonPolygon, db: Queryable = this.dataSource): Promise<PolygonInspection> {
    const [row] = await query<PolygonInspection>(
      db,
      `SELECT ST_IsValid(g) AS valid, ST_IsValidReason(g) AS reason,
              CASE WHEN ST_IsValid(g) THEN ST_Area(g::geography) END AS "areaM2"
         FROM ST_GeomFromGeoJSON($1::text) AS g`,
      [JSON.stringify(polygon)],
    );
    return row;
  }

  /** Inserts a live zone (polygon normalised to RFC 7946's winding). */
  async insert(
    zone: {
      id: string;
      companyId: string;
      name: string;
      polygon: GeoJsonPolygon;
      danger: boolean;
      teams: number[];
      color: string;
      createdAt: number;
    },
    db: Queryable = this.dataSource,
  ): Promise<void> {
    await query(
      db,
      `INSERT INTO zones (id, company_id, name, polygon, danger, teams, color, created_at)
       VALUES ($1, $2, $3, ${POLYGON_PARAM(4)}, $5, $6::jsonb, $7, $8)`,
      [
        zone.id,
        zone.companyId,
        zone.name,
        JSON.stringify(zone.polygon),
        zone.danger,
        JSON.stringify(zone.teams),
        zone.color,
        zone.createdAt,
      ],
    );
  }

  /** Sets the fields of `patch` on one zone, and `updated_at` = `now`. */
  async update(db: Queryable, companyId: string, id: string, patch: ZonePatch, now: number): Promise<void> {
    const params: unknown[] = [companyId, id, now];
    const sets = ['updated_at = $3'];
    const set = (column: string, value: unknown, expr: (n: number) => string = (n) => `$${n}`) => {
      params.push(value);
      sets.push(`${column} = ${expr(params.length)}`);
    };
    if (patch.name !== undefined) set('name', patch.name);
    if (patch.polygon !== undefined) set('polygon', JSON.stringify(patch.polygon), POLYGON_PARAM);
    if (patch.danger !== undefined) set('danger', patch.danger);
    if (patch.teams !== undefined) set('teams', JSON.stringify(patch.teams), (n) => `$${n}::jsonb`);
    if (patch.color !== undefined) set('color', patch.color);
    await query(db, `UPDATE zones SET ${sets.join(', ')} WHERE company_id = $1 AND id = $2`, params);
  }

  /**
   * Locks the company's live zones among `ids` (`FOR UPDATE`, in id order).
   * @returns the ids found
   */
  async lockLive(db: Queryable, companyId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = await query<{ id: string }>(
      db,
      `SELECT id FROM zones WHERE company_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL ORDER BY id FOR UPDATE`,
      [companyId, [...ids]],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** Soft-deletes zones (`deleted_at` = `updated_at` = `now`). */
  async softDelete(db: Queryable, companyId: string, ids: readonly string[], now: number): Promise<void> {
    await query(db, `UPDATE zones SET deleted_at = $3, updated_at = $3 WHERE company_id = $1 AND id = ANY($2::text[])`, [
      companyId,
      [...ids],
      now,
    ]);
  }

  /**
   * The company's live zones, all of them or those of `ids`, in id order (= creation order).
   */
  async liveRows(companyId: string, ids?: readonly string[], db: Queryable = this.dataSource): Promise<ZoneRow[]> {
    const params: unknown[] = [companyId];
    let filter = '';
    if (ids) {
      params.push([...ids]);
      filter = 'AND z.id = ANY($2::text[])';
    }
    return query<ZoneRow>(
      db,
      `SELECT ${ZONE_FIELDS_SQL} FROM zones z WHERE z.company_id = $1 AND z.deleted_at IS NULL ${filter} ORDER BY z.id`,
      params,
    );
  }

  /**
   * For each point, the live zones that cover it, in ONE statement: the points are unnested with
   * their ordinal and joined on `ST_Covers(polygon, point::geography)` (boundary included).
   * @returns rows `(i, id, teams)` — `i` the 1-based ordinal of the point in `points` — in (i, id) order;
   *   points without zones have no row
   */
  async covering(
    companyId: string,
    points: readonly LatLng[],
    db: Queryable = this.dataSource,
  ): Promise<Array<{ i: number; id: string; teams: number[] }>> {
    if (!points.length) return [];
    return query(
      db,
      `SELECT p.i::int AS i, z.id, z.teams
         FROM unnest($2::float8[], $3::float8[]) WITH ORDINALITY AS p(lat, lng, i)
         JOIN zones z ON z.company_id = $1 AND z.deleted_at IS NULL
                     AND ST_Covers(z.polygon, ST_SetSRID(ST_MakePoint(p.lng, p.lat), 4326)::geography)
        ORDER BY p.i, z.id`,
      [companyId, points.map((p) => p.lat), points.map((p) => p.lng)],
    );
  }

  /** The company's zones among `ids`, deleted ones included (a firing that named one still shows it). */
  async refs(companyId: string, ids: readonly string[], db: Queryable = this.dataSource): Promise<ZoneRef[]> {
    if (!ids.length) return [];
    return query<ZoneRef>(
      db,
      `SELECT id, name, danger, deleted_at::float8 AS "deletedAt" FROM zones WHERE company_id = $1 AND id = ANY($2::text[])`,
      [companyId, [...new Set(ids)]],
    );
  }

  /** Which of `teamIds` a live zone of the company lists. */
  async teamsInUse(db: Queryable, companyId: string, teamIds: readonly number[]): Promise<number[]> {
    const rows = await query<{ team: number }>(
      db,
      `SELECT DISTINCT t::int AS team FROM zones r, jsonb_array_elements_text(r.teams) t
        WHERE r.company_id = $1 AND r.deleted_at IS NULL AND t::int = ANY($2::int[])`,
      [companyId, [...teamIds]],
    );
    return rows.map((r) => r.team);
  }
}
