import { MsColumn } from '@app/core';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ExtraLabels } from '../company-labels';

/** Working hours of one weekday: minutes from midnight; start 0 and end 0 = off. */
export interface DayHours {
  start: number;
  end: number;
}
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type WorkingHours = Record<Weekday, DayHours>;

/** A team of `teams_config`: client-chosen id ≥ 1, unique in the company. */
export interface TeamConfig {
  id: number;
  name: string;
  /** The team's own hours; absent = the company default. */
  working_hours?: WorkingHours;
  /** Route start configuration: `{lat, lng, time}` (time in minutes from midnight). */
  route?: { lat?: number; lng?: number; time?: number };
}

/** The tenant. Every other row carries its `company_id`. */
@Entity('companies')
export class Company {
  @PrimaryColumn({ type: 'varchar', length: 26 })
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 254, default: '' })
  email: string;

  @Column({ type: 'varchar', length: 64, default: '' })
  phone: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  address: string;

  /**
   * The company's own location (degrees, WGS84), where `optimizeroute {startEndAtCompany: true}` starts
   * and ends; both null when not set (the pair is set and cleared together by editcompany).
   */
  @Column({ name: 'location_lat', type: 'double precision', nullable: true })
  locationLat: number | null;

  @Column({ name: 'location_lng', type: 'double precision', nullable: true })
  locationLng: number | null;

  /** IANA zone; every "today" of the company uses it. */
  @Column({ type: 'varchar', length: 64, default: 'UTC' })
  timezone: string;

  /** Check-in radius in m used when a place has none. */
  @Column({ name: 'default_radius', type: 'integer', default: 100 })
  defaultRadius: number;

  /** Company default working hours; null = not set. */
  @Column({ name: 'working_hours', type: 'jsonb', nullable: true })
  workingHours: WorkingHours | null;

  @Column({ name: 'workers_edit_job', type: 'boolean', default: false })
  workersEditJob: boolean;

  @Column({ name: 'workers_create_places', type: 'boolean', default: false })
  workersCreatePlaces: boolean;

  @Column({ name: 'workers_view_places', type: 'boolean', default: true })
  workersViewPlaces: boolean;

  /** Seconds fixes must stay inside (or beyond) a geofence before a check-in (or check-out) is decided. */
  @Column({ name: 'checkin_dwell_seconds', type: 'integer', default: 60 })
  checkinDwellSeconds: number;

  /**
   * Minutes a member stays within 100 m for a stop: the one threshold of track splitting and the stops
   * reports; null = the server's `TRACK_STOP_MINUTES` (CONTRACTS.md "Wave 3: reports and the demo").
   */
  @Column({ name: 'stop_minutes', type: 'integer', nullable: true })
  stopMinutes: number | null;

  @Column({ name: 'teams_config', type: 'jsonb', default: () => `'[]'` })
  teamsConfig: TeamConfig[];

  /**
   * Labels of the worker-input fields (`{"extra_number_1_key": "Meter reading", …}`, only those set):
   * every job answer's read-only `extra_<kind>_<x>_key` (editcompany sets them).
   */
  @Column({ name: 'extra_labels', type: 'jsonb', default: () => `'{}'` })
  extraLabels: ExtraLabels;

  /** The company account: the owner administrator (set right after the owner is created). */
  @Column({ name: 'owner_member_id', type: 'varchar', length: 26, nullable: true })
  ownerMemberId: string | null;

  @MsColumn({ name: 'created_at' })
  createdAt: number;

  @MsColumn({ name: 'updated_at' })
  updatedAt: number;
}
