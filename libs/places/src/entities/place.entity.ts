import { MsColumn } from '@app/core';
import { Column, Entity, Index, Point, PrimaryColumn } from 'typeorm';

/**
 * A fixed site with a check-in radius (CONTRACTS.md "Places"). Jobs refer to places by `placeUid`;
 * the job view reads `name` and `radius` through its documented read model (`JOB_SELECT_SQL` in
 * `@app/jobs`).
 */
@Entity('places')
@Index('IDX_places_id', ['id'])
@Index('IDX_places_company', ['companyId'])
/**
 * getplaces' nearest-first scan: KNN (`<->`) over one company's live places. A GiST index on
 * `(company_id, location)` (btree_gist for the varchar) of rows with `deleted_at IS NULL`: without the
 * company in the index, the scan walks every company's places nearest the caller (docs/places-and-geo.md).
 */
@Index('IDX_places_company_location', ['companyId', 'location'], { spatial: true, where: '"deleted_at" IS NULL' })
export class Place {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_places' })
  id: string;

  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_places' })
  companyId: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /**
   * Where the place is: a PostGIS `geography(Point, 4326)` with a GiST index (CONTRACTS.md "Geo").
   * TypeORM maps it as a GeoJSON `Point` both ways — `coordinates` are `[lng, lat]` in degrees
   * (GeoJSON order, RFC 7946 §3.1.1); null when the place has no position yet. Raw SQL reads it with
   * `ST_Y(location::geometry)` (lat) and `ST_X(location::geometry)` (lng).
   */
  @Index('IDX_places_location', { spatial: true })
  @Column({ type: 'geography', spatialFeatureType: 'Point', srid: 4326, nullable: true })
  location: Point | null;

  /** Check-in radius in m; 0 = the company's default. */
  @Column({ type: 'integer', default: 0 })
  radius: number;

  @Column({ type: 'varchar', length: 500, default: '' })
  address: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  city: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  state: string;

  @Column({ type: 'varchar', length: 20, default: '' })
  postalcode: string;

  @Column({ name: 'country_code', type: 'varchar', length: 2, default: '' })
  countryCode: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  phone: string;

  @Column({ type: 'varchar', length: 254, default: '' })
  email: string;

  /** `#RRGGBB` or '' */
  @Column({ type: 'varchar', length: 7, default: '' })
  color: string;

  /** Comma-separated form ids. */
  @Column({ name: 'linked_forms', type: 'varchar', length: 1000, default: '' })
  linkedForms: string;

  /** Extended data as `{key, val}` pairs, in the order sent (answered as single-key objects). */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  data: Array<{ key: string; val: string }>;

  /** Teams that may access the place. */
  @Column({ type: 'jsonb', default: () => `'[]'` })
  teams: number[];

  /** The creating member; null for places made before creators were recorded. */
  @Column({ name: 'creator_id', type: 'varchar', length: 26, nullable: true })
  creatorId: string | null;

  @MsColumn({ name: 'created_at' })
  createdAt: number;

  @MsColumn({ name: 'updated_at', nullable: true })
  updatedAt: number | null;

  /** ms of the soft delete (`deleteplace`); null = live. A deleted place leaves getplaces, geofencing and new job references. */
  @MsColumn({ name: 'deleted_at', nullable: true })
  deletedAt: number | null;
}
