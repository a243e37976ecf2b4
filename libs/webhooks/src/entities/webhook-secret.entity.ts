import { MsColumn } from '@app/core';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A company's Standard Webhooks signing secret (`whsec_<base64>`), and the previous one while it overlaps. */
@Entity('webhook_secrets')
export class WebhookSecret {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  @Column({ type: 'varchar', length: 100 })
  secret: string;

  @Column({ name: 'previous_secret', type: 'varchar', length: 100, nullable: true })
  previousSecret: string | null;

  /** ms until which the previous secret also signs. */
  @MsColumn({ name: 'previous_expires_at', nullable: true })
  previousExpiresAt: number | null;

  @MsColumn({ name: 'created_at' })
  createdAt: number;
}
