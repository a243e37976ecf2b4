import { bigintMs, MsColumn } from '@app/core';
import { Column, Entity, Index, LineString, PrimaryColumn } from 'typeorm';

/**
 * A recorded track (the spec's Track entry), built by the worker from a member's fixes by the split
 * rule (CONTRACTS.md "Locations, devices, tracks"). `id` is a bigint identity answered as a JSON
 * number. `open` marks the member's current track (its `end_ts` is its last fix so far).
 *
 * Units: ts ms; lat/lng degrees; distance m (WGS84 geodesic); speeds m/s; altitudes m (integers,
 * null when no fix had an elevation). `short_encoded` is Google's polyline (precision 5, lat,lng);
 * `course_encoded` the headings in the polyline integer encoding. `path` is the same line as PostGIS
 * geography (null for a one-fix track) for spatial queries (reports, zones).
 */
@Entity('tracks')
@Index('IDX_tracks_member_start', ['companyId', 'memberId', 'startTs'])
@Index('IDX_tracks_member_end', ['companyId', 'memberId', 'endTs'])
export class Track {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  @PrimaryColumn({ type: 'bigint', generated: 'identity', generatedIdentity: 'ALWAYS', transformer: bigintMs })
  id: number;

  @Column({ name: 'member_id', type: 'varchar', length: 26 })
  memberId: string;

  @MsColumn({ name: 'start_ts' })
  startTs: number;

  @MsColumn({ name: 'end_ts' })
  endTs: number;

  @Column({ name: 'start_lat', type: 'double precision' })
  startLat: number;

  @Column({ name: 'start_lng', type: 'double precision' })
  startLng: number;

  @Column({ name: 'end_lat', type: 'double precision' })
  endLat: number;

  @Column({ name: 'end_lng', type: 'double precision' })
  endLng: number;

  /** m */
  @Column({ type: 'double precision' })
  distance: number;

  @Column({ name: 'waypoint_count', type: 'integer' })
  waypointCount: number;

  /** m/s */
  @Column({ name: 'speed_avg', type: 'double precision' })
  speedAvg: number;

  /** m/s */
  @Column({ name: 'speed_max', type: 'double precision' })
  speedMax: number;

  @Column({ name: 'altitude_min', type: 'integer', nullable: true })
  altitudeMin: number | null;

  @Column({ name: 'altitude_max', type: 'integer', nullable: true })
  altitudeMax: number | null;

  @Column({ name: 'altitude_gain', type: 'integer', nullable: true })
  altitudeGain: number | null;

  @Column({ name: 'altitude_loss', type: 'integer', nullable: true })
  altitudeLoss: number | null;

  @Column({ name: 'short_encoded', type: 'text' })
  shortEncoded: string;

  @Column({ name: 'course_encoded', type: 'text' })
  courseEncoded: string;

  @Column({ name: 'lat_min', type: 'double precision' })
  latMin: number;

  @Column({ name: 'lat_max', type: 'double precision' })
  latMax: number;

  @Column({ name: 'lng_min', type: 'double precision' })
  lngMin: number;

  @Column({ name: 'lng_max', type: 'double precision' })
  lngMax: number;

  @Index('IDX_tracks_path', { spatial: true })
  @Column({ type: 'geography', spatialFeatureType: 'LineString', srid: 4326, nullable: true })
  path: LineString | null;

  /** The member's current track: more fixes may extend it. */
  @Column({ type: 'boolean', default: false })
  open: boolean;

  /**
   * The open track's running figures and where its stop search resumes (`TrackBuildState`, JSON), so
   * the worker extends it by its new fixes alone; null on closed tracks (they are only ever rebuilt).
   */
  @Column({ name: 'build_state', type: 'jsonb', nullable: true })
  buildState: Record<string, unknown> | null;

  /** Random 128-bit token (hex) of the public share link; also in `track_shares`. */
  @Column({ name: 'share_token', type: 'varchar', length: 32 })
  shareToken: string;

  @MsColumn({ name: 'updated_at' })
  updatedAt: number;
}
