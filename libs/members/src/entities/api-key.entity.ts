import { MsColumn } from '@app/core';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An API key: acts as the member it was issued to. Stored as its public prefix (`fwk_<8 base62>`)
 * plus HMAC-SHA-256 of the whole key with the server pepper; the key itself is shown once.
 * Per-company (primary key `(company_id, id)`); the prefix is unique across the platform through the
 * global lookup table `api_key_prefixes` (prefix → company, key id), written in the key's transaction.
 */
@Entity('api_keys')
@Index('IDX_api_keys_member', ['memberId'])
@Index('UQ_api_keys_company_prefix', ['companyId', 'prefix'], { unique: true })
export class ApiKey {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_api_keys' })
  companyId: string;

  @PrimaryColumn({ type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_api_keys' })
  id: string;

  @Column({ type: 'varchar', length: 12 })
  prefix: string;

  /** hex HMAC-SHA-256(pepper, key) */
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash: string;

  @Column({ name: 'member_id', type: 'varchar', length: 26 })
  memberId: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  label: string;

  @MsColumn({ name: 'created_at' })
  createdAt: number;

  @MsColumn({ name: 'revoked_at', nullable: true })
  revokedAt: number | null;
}
