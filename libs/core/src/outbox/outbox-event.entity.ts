import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BigintColumn, MsColumn } from '../database/bigint-columns';

/**
 * The actions the connector's polling triggers read (docs/connector.md, "Polling triggers"):
 * `/v1/checkins`, `/v1/clock-events`, `/v1/alert-firings`. Only their stamped events are in
 * `IDX_outbox_events_polled`, so other events (job changes, notifications) cost that index nothing.
 */
export const POLLED_ACTIONS: readonly string[] = [
  'placecheckin',
  'placecheckout',
  'jobcheckin',
  'jobcheckout',
  'clockin',
  'clockout',
  'alerttriggered',
];

const POLLED_WHERE = `"stamped_at" IS NOT NULL AND "action" IN (${POLLED_ACTIONS.map((a) => `'${a}'`).join(', ')})`;

/**
 * One event recorded by the transactional outbox: written in the same transaction as the change
 * it describes, delivered later (at least once) by the worker. `payload` is exactly the `data`
 * form field that will be sent (a JSON string), built inside the writing transaction.
 */
@Entity('outbox_events')
@Index('IDX_outbox_events_id', ['id'])
@Index('IDX_outbox_events_company_created', ['companyId', 'createdAt'])
@Index('UQ_outbox_events_company_seq', ['companyId', 'seq'], { unique: true })
@Index('IDX_outbox_events_unstamped', ['companyId'], { where: '"seq" IS NULL' })
@Index('IDX_outbox_events_polled', ['companyId', 'action', 'stampedAt', 'id'], { where: POLLED_WHERE })
export class OutboxEvent {
  /** `msg_<ulid>`; the Standard Webhooks `webhook-id`. */
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_outbox_events' })
  id: string;

  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_outbox_events' })
  companyId: string;

  /** Webhook configuration key, e.g. `job_created`. */
  @Column({ name: 'event_key', type: 'varchar', length: 32 })
  eventKey: string;

  /** Delivered action, e.g. `jobcreated`. */
  @Column({ type: 'varchar', length: 32 })
  action: string;

  /** The form field `id` (job id for job events; `<member_uid>-<ts>-<action>` for clock events…). */
  @Column({ name: 'form_id', type: 'varchar', length: 200 })
  formId: string;

  /** The form field `data`: a JSON string. */
  @Column({ type: 'text' })
  payload: string;

  /** ms, database clock of the writing transaction. */
  @MsColumn({ name: 'created_at' })
  createdAt: number;

  /**
   * The company's event sequence (1, 2, 3, …): stamped after commit, in commit order, by one stamper
   * per company at a time (docs/live.md); null until stamped. The live stream's `id:`.
   */
  @BigintColumn({ nullable: true })
  seq: number | null;

  /**
   * ms, database clock: when the stamping that gave `seq` ran — never below an earlier stamping's of
   * the company, so it follows commit order (docs/connector.md, "Polling triggers"); null until
   * stamped. The `createdAt` of the connector's polling items.
   */
  @MsColumn({ name: 'stamped_at', nullable: true })
  stampedAt: number | null;

  /** Audience: the company's administrators and operators see the event on the live stream. */
  @Column({ name: 'audience_staff', type: 'boolean', default: true })
  audienceStaff: boolean;

  /** Audience: the members (ids) who see the event besides staff (a job's assignees, a notification's addressee). */
  @Column({ name: 'audience_members', type: 'varchar', length: 26, array: true, default: () => "'{}'" })
  audienceMembers: string[];
}
