import { MsColumn } from '@app/core';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One configured webhook: (company, key) → URL and custom headers. */
@Entity('webhook_endpoints')
@Index('IDX_webhook_endpoints_id', ['id'])
@Index('UQ_webhook_endpoints_company_key', ['companyId', 'key'], { unique: true })
export class WebhookEndpoint {
  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_webhook_endpoints' })
  id: string;

  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_webhook_endpoints' })
  companyId: string;

  /** One of the nine configuration keys, e.g. `job_created`. */
  @Column({ type: 'varchar', length: 32 })
  key: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  /** Custom headers, name → value (values are secrets: masked in answers, never logged). */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  headers: Record<string, string>;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  /** e.g. `410 Gone`, `failing for 5 days` */
  @Column({ name: 'disabled_reason', type: 'varchar', length: 200, nullable: true })
  disabledReason: string | null;

  @MsColumn({ name: 'disabled_at', nullable: true })
  disabledAt: number | null;

  /** ms of the first failure since the last success; null while healthy. */
  @MsColumn({ name: 'failing_since', nullable: true })
  failingSince: number | null;

  @MsColumn({ name: 'created_at' })
  createdAt: number;

  @MsColumn({ name: 'updated_at' })
  updatedAt: number;
}
