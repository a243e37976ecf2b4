import { MsColumn } from '@app/core';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An API key: acts as the member it was issued to. Stored as its public prefix (`fwk_<8 base62>`)
 * plus HMAC-SHA-256 of the whole key with the server pepper; the key itself is shown once.
 */
@Entity('api_keys')
@Index('IDX_api_keys_member', ['memberId'])
export class ApiKey {
  @PrimaryColumn({ type: 'varchar', length: 26 })
  id: string;

  @Index('UQ_api_keys_prefix', { unique: true })
  @Column({ type: 'varchar', length: 12 })
  prefix: string;

  /** hex HMAC-SHA-256(pepper, key) */
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  @Column({ name: 'member_id', type: 'varchar', length: 26 })
  memberId: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  label: string;

  @MsColumn({ name: 'created_at' })
  createdAt: number;

  @MsColumn({ name: 'revoked_at', nullable: true })
  revokedAt: number | null;
}
