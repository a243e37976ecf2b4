import { MsColumn, Role } from '@app/core';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { DayHours, WorkingHours } from './company.entity';

export type ActiveStatus = 'active' | 'deactivated';
export const TRAVEL_MODES = ['car', 'bicycle', 'pedestrian', 'truck', 'van', 'motorcycle'] as const;
export type TravelMode = (typeof TRAVEL_MODES)[number];

/**
 * A member of a company (worker, dispatcher, administrator); per-company (primary key
 * `(company_id, id)`). `username` is unique across the platform case-insensitively, and so is
 * `device_id`: the global lookup tables `member_usernames` and `member_device_ids` (primary key on the
 * lower-case key) hold them, written by `MembersRepository` in the member's transaction; here
 * they are unique per company (`(company_id, lower(…))`, indexes made by the migration).
 */
@Entity('members')
@Index('IDX_members_company', ['companyId'])
@Index('UQ_members_company_username_lower', { synchronize: false })
@Index('UQ_members_company_device_id_lower', { synchronize: false })
export class Member {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_members' })
  companyId: string;

  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_members' })
  id: string;

  @Column({ type: 'varchar', length: 254 })
  username: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  phone: string;

  @Column({ type: 'varchar', length: 254, default: '' })
  email: string;

  @Column({ type: 'varchar', length: 16, default: 'worker' })
  role: Role;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  teams: number[];

  @Column({ name: 'status_label', type: 'varchar', length: 200, default: '' })
  statusLabel: string;

  @Column({ type: 'varchar', length: 7, default: '' })
  color: string;

  @Column({ name: 'active_status', type: 'varchar', length: 16, default: 'active' })
  activeStatus: ActiveStatus;

  @Column({ name: 'vehicle_capacity', type: 'integer', nullable: true })
  vehicleCapacity: number | null;

  @Column({ name: 'travel_mode', type: 'varchar', length: 16, default: 'car' })
  travelMode: TravelMode;

  @Column({ name: 'working_hours', type: 'jsonb', nullable: true })
  workingHours: WorkingHours | null;

  /** `{ "YYYYMMDD": {start, end} }` */
  @Column({ name: 'working_hours_overrides', type: 'jsonb', default: () => `'{}'` })
  workingHoursOverrides: Record<string, DayHours>;

  /** ms; 0 = not set. */
  @MsColumn({ name: 'ignore_working_hours_until_ts', default: 0 })
  ignoreWorkingHoursUntilTs: number;

  @Column({ name: 'route_start_lat', type: 'double precision', nullable: true })
  routeStartLat: number | null;

  @Column({ name: 'route_start_lng', type: 'double precision', nullable: true })
  routeStartLng: number | null;

  @Column({ name: 'route_end_lat', type: 'double precision', nullable: true })
  routeEndLat: number | null;

  @Column({ name: 'route_end_lng', type: 'double precision', nullable: true })
  routeEndLng: number | null;

  /** Minutes from midnight; null = not set. */
  @Column({ name: 'route_start_time', type: 'integer', nullable: true })
  routeStartTime: number | null;

  @Column({ name: 'unit_distance', type: 'varchar', length: 2, default: 'SI' })
  unitDistance: 'SI' | 'US';

  @Column({ name: 'unit_time', type: 'varchar', length: 2, default: '24' })
  unitTime: '12' | '24';

  @Column({ name: 'unit_date', type: 'varchar', length: 40, default: 'YYYY-MM-DD' })
  unitDate: string;

  /** Member's IANA zone: changes only how reports show times. Empty = the company's. */
  @Column({ type: 'varchar', length: 64, default: '' })
  timezone: string;

  @Column({ type: 'varchar', length: 16, default: 'en' })
  language: string;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  skills: string[];

  @Column({ type: 'varchar', length: 100, default: '' })
  expertise: string;

  /** Place-style fields stored on the member (CONTRACTS.md). radius in m. */
  @Column({ type: 'integer', default: 0 })
  radius: number;

  @Column({ type: 'varchar', length: 500, default: '' })
  address: string;

  @Column({ type: 'varchar', length: 20, default: '' })
  postalcode: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  city: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  state: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  country: string;

  @Column({ name: 'country_code', type: 'varchar', length: 2, default: '' })
  countryCode: string;

  /** Identifier a Traccar Client phone sends; unique across the platform (case-insensitive). */
  @Column({ name: 'device_id', type: 'varchar', length: 64, nullable: true })
  deviceId: string | null;

  /** argon2id hash; null while an invitation is pending. */
  @Column({ name: 'password_hash', type: 'varchar', length: 200, nullable: true })
  passwordHash: string | null;

  /** SHA-256 (hex) of the invitation token; the token itself is never stored. */
  @Column({ name: 'invitation_token_hash', type: 'varchar', length: 64, nullable: true })
  invitationTokenHash: string | null;

  @MsColumn({ name: 'invitation_expires_at', nullable: true })
  invitationExpiresAt: number | null;

  @MsColumn({ name: 'created_at' })
  createdAt: number;

  @MsColumn({ name: 'updated_at' })
  updatedAt: number;

  @MsColumn({ name: 'deactivated_at', nullable: true })
  deactivatedAt: number | null;
}
