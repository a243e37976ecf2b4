import { BigintColumn, MsColumn } from '@app/core';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Where a member's latest fix came from: our app (`pushlocations`) or Traccar Client (`/osmand`). */
export type LocationSource = 'app' | 'osmand';

/**
 * The latest location and device state of one member: one narrow, hot row per member, upserted by
 * ingestion and read by `locate` and getaccounts (`location`, `states`). The fix columns are null
 * until the member's first fix. Late fixes never move it backwards (the upsert keeps the newer `ts`).
 *
 * `anchor_*` is the newest earlier latest fix at least 2 min older than the current one, kept so
 * `states.moving` ("≥ 50 m from the fix 2 min before") is answered from this row alone.
 */
@Entity('member_locations')
export class MemberLocation {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  @PrimaryColumn({ name: 'member_id', type: 'varchar', length: 26 })
  memberId: string;

  /** ms of the latest fix; null = never located. */
  @MsColumn({ nullable: true })
  ts: number | null;

  @Column({ type: 'double precision', nullable: true })
  lat: number | null;

  @Column({ type: 'double precision', nullable: true })
  lng: number | null;

  /** m */
  @Column({ type: 'integer', nullable: true })
  acc: number | null;

  /** degrees 0..360 */
  @Column({ type: 'integer', nullable: true })
  dir: number | null;

  /** m/s */
  @Column({ type: 'double precision', nullable: true })
  spd: number | null;

  /** m */
  @Column({ type: 'integer', nullable: true })
  elv: number | null;

  /** percent 0..100 */
  @Column({ type: 'integer', nullable: true })
  bat: number | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  source: LocationSource | null;

  /** ms the latest fix was received. */
  @MsColumn({ name: 'received_at', nullable: true })
  receivedAt: number | null;

  @MsColumn({ name: 'anchor_ts', nullable: true })
  anchorTs: number | null;

  @Column({ name: 'anchor_lat', type: 'double precision', nullable: true })
  anchorLat: number | null;

  @Column({ name: 'anchor_lng', type: 'double precision', nullable: true })
  anchorLng: number | null;

  /** The last tracking state the device reported (Traccar Client: true while its fixes arrive). */
  @Column({ name: 'tracking_status', type: 'boolean', default: false })
  trackingStatus: boolean;

  /** ms the tracking state last changed (`tracking_ts`, else the receive time); 0 = never reported. */
  @MsColumn({ name: 'tracking_ts', default: 0 })
  trackingTs: number;

  /** Device details (`pushlocations` `device`), answered by `locate` with `withDetails`. */
  @Column({ name: 'connection_type', type: 'integer', nullable: true })
  connectionType: number | null;

  @Column({ name: 'android_id', type: 'varchar', length: 64, nullable: true })
  androidId: string | null;

  @Column({ name: 'loc_gps_on', type: 'boolean', nullable: true })
  locGpsOn: boolean | null;

  @Column({ name: 'loc_net_on', type: 'boolean', nullable: true })
  locNetOn: boolean | null;

  /** ms a `locate` ping was asked and not yet delivered; null = none pending. */
  @MsColumn({ name: 'ping_requested_at', nullable: true })
  pingRequestedAt: number | null;

  /** ms the device last received a ping (a `pushlocations` answer with `ping: true`); 0 = never. */
  @MsColumn({ name: 'signal_ts', default: 0 })
  signalTs: number;

  /**
   * How many ingestion calls stored a fix older than the latest one (`ts`) at the time: the track
   * builder compares it with the value its open track's build state saw (a late fix inside the track
   * means a rebuild). Counted under this row's lock by both ingest paths.
   */
  @BigintColumn({ name: 'late_fix_count', default: 0 })
  lateFixCount: number;

  @MsColumn({ name: 'updated_at' })
  updatedAt: number;
}
