import { MsColumn } from '@app/core';
import { Column, Entity, Index, Polygon, PrimaryColumn } from 'typeorm';

/**
 * A zone (CONTRACTS.md "Alerts and zones", our extension): a named area drawn as a polygon, optionally
 * marked `danger`, visible to teams. Jobs' `linkedZones` are derived from it (the zones covering a job's
 * destination, a spatial join when the job view is built); alert rules `enters_zone`, `leaves_zone`,
 * `enters_danger_zone` watch it; dispatch's `zones` method groups by it.
 */
@Entity('zones')
@Index('IDX_zones_id', ['id'])
@Index('IDX_zones_company', ['companyId'])
/**
 * Spatial lookups of one company's live zones (which zones cover a point, which lie within 20 m of a
 * fix): a GiST index on `(company_id, polygon)` (btree_gist for the varchar), live rows only.
 */
@Index('IDX_zones_company_polygon', ['companyId', 'polygon'], { spatial: true, where: '"deleted_at" IS NULL' })
export class Zone {
  /** ULID */
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_zones' })
  id: string;

  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_zones' })
  companyId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /**
   * The area: a PostGIS `geography(Polygon, 4326)` — edges are geodesics, as every distance here is
   * (CONTRACTS.md "Geo"). TypeORM maps it as a GeoJSON `Polygon` both ways (`[lng, lat]` degrees,
   * RFC 7946 §3.1.6: the first ring the exterior, the others holes, each closed).
   */
  @Column({ type: 'geography', spatialFeatureType: 'Polygon', srid: 4326 })
  polygon: Polygon;

  /** A danger zone (`enters_danger_zone` alerts). */
  @Column({ type: 'boolean', default: false })
  danger: boolean;

  /** Teams the zone belongs to (dispatch's `zones` method: a job in the zone goes to a worker of one of them). Every role sees every zone. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  teams: number[];

  /** `#RRGGBB` or '' */
  @Column({ type: 'varchar', length: 7, default: '' })
  color: string;

  @MsColumn({ name: 'created_at' })
  createdAt: number;

  @MsColumn({ name: 'updated_at', nullable: true })
  updatedAt: number | null;

  /** ms of the soft delete (`deletezone`); null = live. Firings and reports that name a deleted zone still show it. */
  @MsColumn({ name: 'deleted_at', nullable: true })
  deletedAt: number | null;
}
