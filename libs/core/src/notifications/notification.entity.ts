import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { MsColumn } from '../database/bigint-columns';

/**
 * A notification for a member's device or the dashboard (invitation sent, route changed, job
 * progress, member list changed). `memberId` null = company-wide. Written in the same transaction
 * as its cause.
 */
@Entity('notifications')
@Index('IDX_notifications_id', ['id'])
@Index('IDX_notifications_company_ts', ['companyId', 'ts'])
export class Notification {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_notifications' })
  id: string;

  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_notifications' })
  companyId: string;

  @Column({ name: 'member_id', type: 'varchar', length: 26, nullable: true })
  memberId: string | null;

  /** e.g. `invitation_sent`, `members_changed`, `route_changed`, `job_progress`. */
  @Column({ type: 'varchar', length: 40 })
  kind: string;

  @Column({ name: 'job_id', type: 'varchar', length: 64, nullable: true })
  jobId: string | null;

  /** ms, database clock. */
  @MsColumn()
  ts: number;
}
