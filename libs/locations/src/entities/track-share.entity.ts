import { BigintColumn } from '@app/core';
import { Entity, PrimaryColumn } from 'typeorm';

/**
 * A public track link of a company: token → track, per-company (primary key `(company_id, token)`).
 * The token is unique across the platform through the global lookup table `share_tokens` (kind
 * `track`), written in the same transaction; a share page finds the company there first. Deleted
 * with its track.
 */
@Entity('track_shares')
export class TrackShare {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26, primaryKeyConstraintName: 'PK_track_shares' })
  companyId: string;

  /** Random 128-bit token, 32 hex characters. */
  @PrimaryColumn({ type: 'varchar', length: 32, primaryKeyConstraintName: 'PK_track_shares' })
  token: string;

  @BigintColumn({ name: 'track_id' })
  trackId: number;
}
