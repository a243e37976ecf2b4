import { MsColumn } from '@app/core';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One HTTP attempt of a delivery (never header values). */
@Entity('webhook_attempts')
@Index('IDX_webhook_attempts_id', ['id'])
@Index('IDX_webhook_attempts_delivery', ['deliveryId', 'startedAt'])
@Index('IDX_webhook_attempts_started', ['startedAt'])
export class WebhookAttempt {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_webhook_attempts' })
  id: string;

  @Column({ name: 'delivery_id', type: 'varchar', length: 60 })
  deliveryId: string;

  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_webhook_attempts' })
  companyId: string;

  /** ms */
  @MsColumn({ name: 'started_at' })
  startedAt: number;

  /** ms */
  @Column({ name: 'duration_ms', type: 'integer' })
  durationMs: number;

  /** null when no HTTP answer came (timeout, refused, SSRF block) */
  @Column({ name: 'http_status', type: 'integer', nullable: true })
  httpStatus: number | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  error: string | null;

  /** `delivered`, `retry`, `abandoned`, `disabled`, `rescheduled` (429) */
  @Column({ type: 'varchar', length: 16 })
  outcome: string;
}
