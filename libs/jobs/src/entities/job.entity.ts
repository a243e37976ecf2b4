import { BigintColumn, MsColumn } from '@app/core';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One custom field of a job, in insertion order. */
export interface CustomField {
  key: string;
  val: string;
}

/**
 * A job: a task with a destination, assigned to a worker for a day, carrying progress
 * timestamps (ms, 0 = not set). Templates (`is_template`) share the table and never appear in
 * `/v1` or events. `uid_secondary` is unique per company among non-template jobs (a partial unique
 * index made by the migration).
 */
@Entity('jobs')
@Index('IDX_jobs_id', ['id'])
// both worker-day paths end with `number`: a worker-day's highest number is one probe through either
@Index('IDX_jobs_company_day_worker_number', ['companyId', 'day', 'workerId', 'number'])
@Index('IDX_jobs_company_worker_day_number', ['companyId', 'workerId', 'day', 'number'])
@Index('IDX_jobs_company_created', ['companyId', 'createdAt', 'id'])
@Index('IDX_jobs_company_saved', ['companyId', 'tsSaved', 'id'])
@Index('IDX_jobs_company_created_stamp', ['companyId', 'createdStamp', 'id'])
@Index('IDX_jobs_company_saved_stamp', ['companyId', 'savedStamp', 'id'])
@Index('IDX_jobs_unstamped', ['companyId'], { where: '"saved_stamp" IS NULL' })
@Index('IDX_jobs_company_order', ['companyId', 'orderId'])
@Index('UQ_jobs_company_uid_secondary', { synchronize: false })
export class Job {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_jobs' })
  id: string;

  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_jobs' })
  companyId: string;

  @Column({ name: 'is_template', type: 'boolean', default: false })
  isTemplate: boolean;

  @Column({ type: 'boolean', default: false })
  archived: boolean;

  /** 0 work, 1 pickup, 2 dropoff */
  @Column({ type: 'smallint', default: 0 })
  type: number;

  @Column({ name: 'team_id', type: 'integer', default: 0 })
  teamId: number;

  @Column({ name: 'destination_name', type: 'varchar', length: 500, default: '' })
  destinationName: string;

  @Column({ name: 'destination_lat', type: 'double precision', nullable: true })
  destinationLat: number | null;

  @Column({ name: 'destination_lng', type: 'double precision', nullable: true })
  destinationLng: number | null;

  @Column({ name: 'destination_text', type: 'text', default: '' })
  destinationText: string;

  @Column({ name: 'destination_url', type: 'text', default: '' })
  destinationUrl: string;

  @Column({ name: 'text_dispatcher', type: 'text', default: '' })
  textDispatcher: string;

  @Column({ name: 'text_receiver', type: 'text', default: '' })
  textReceiver: string;

  @Column({ name: 'contact_name', type: 'varchar', length: 200, default: '' })
  contactName: string;

  @Column({ name: 'contact_phone', type: 'varchar', length: 64, default: '' })
  contactPhone: string;

  @Column({ name: 'contact_email', type: 'varchar', length: 254, default: '' })
  contactEmail: string;

  /** YYYYMMDD or 0 (no date) */
  @Column({ type: 'integer', default: 0 })
  day: number;

  /** 0–10 */
  @Column({ type: 'smallint', default: 0 })
  priority: number;

  @Column({ type: 'integer', default: 0 })
  number: number;

  /** s */
  @Column({ name: 'on_site_seconds', type: 'integer', default: 0 })
  onSiteSeconds: number;

  /** HHMM or 0 */
  @Column({ name: 'window_start', type: 'smallint', default: 0 })
  windowStart: number;

  /** HHMM or 0; 2400 allowed */
  @Column({ name: 'window_end', type: 'smallint', default: 0 })
  windowEnd: number;

  @BigintColumn({ name: 'order_id', default: 0 })
  orderId: number;

  @Column({ name: 'dispatcher_uid', type: 'varchar', length: 64, default: '' })
  dispatcherUid: string;

  @Column({ name: 'place_uid', type: 'varchar', length: 64, default: '' })
  placeUid: string;

  /** The assignee's member id (`receiverUid`); null = unassigned. */
  @Column({ name: 'worker_id', type: 'varchar', length: 26, nullable: true })
  workerId: string | null;

  @Column({ name: 'items_to_dropoff', type: 'integer', default: 0 })
  itemsToDropoff: number;

  @Column({ name: 'items_to_pickup', type: 'integer', default: 0 })
  itemsToPickup: number;

  @Column({ name: 'uid_secondary', type: 'varchar', length: 200, nullable: true })
  uidSecondary: string | null;

  @Column({ name: 'custom_fields', type: 'jsonb', default: () => `'[]'` })
  customFields: CustomField[];

  /**
   * Worker-input values: `{ "extra_number_1_val": 3.5, "extra_text_2_val": "…" }`. Their labels
   * (`extra_*_key`) are the company's (`companies.extra_labels`, editcompany), not stored per job.
   */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  extra: Record<string, string | number>;

  @MsColumn({ name: 'ts_created', default: 0 })
  tsCreated: number;

  @MsColumn({ name: 'ts_assigned', default: 0 })
  tsAssigned: number;

  @MsColumn({ name: 'ts_accepted', default: 0 })
  tsAccepted: number;

  @MsColumn({ name: 'ts_rejected', default: 0 })
  tsRejected: number;

  @MsColumn({ name: 'ts_done_success', default: 0 })
  tsDoneSuccess: number;

  @MsColumn({ name: 'ts_done_failed', default: 0 })
  tsDoneFailed: number;

  @MsColumn({ name: 'ts_check_in', default: 0 })
  tsCheckIn: number;

  @MsColumn({ name: 'ts_check_out', default: 0 })
  tsCheckOut: number;

  @MsColumn({ name: 'ts_check_nfc1', default: 0 })
  tsCheckNfc1: number;

  @MsColumn({ name: 'ts_check_nfc2', default: 0 })
  tsCheckNfc2: number;

  /** Last change, database clock (ms). */
  @MsColumn({ name: 'ts_saved' })
  tsSaved: number;

  /** Insert time, database clock (ms): the connector's `createdAt`. */
  @MsColumn({ name: 'created_at' })
  createdAt: number;

  /**
   * ms: the commit-ordered stamp of the job's insert (docs/connector.md, "Polling triggers"): null
   * until the stamper, after commit, gives it its stamping's stamp; never changed after. `/v1/jobs`
   * `createdSince` filters and orders by it.
   */
  @MsColumn({ name: 'created_stamp', nullable: true })
  createdStamp: number | null;

  /**
   * ms: the commit-ordered stamp of the job's last write: set null by every write (the `jobs_unstamp`
   * trigger, so no write path can forget it), given by the stamper after commit. `/v1/jobs`
   * `updatedSince` filters and orders by it.
   */
  @MsColumn({ name: 'saved_stamp', nullable: true })
  savedStamp: number | null;

  /** Incremented by every change (our extension). */
  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ name: 'created_by', type: 'varchar', length: 26, default: '' })
  createdBy: string;

  /** `api` | `connector` */
  @Column({ name: 'created_via', type: 'varchar', length: 16, default: 'api' })
  createdVia: string;
}
