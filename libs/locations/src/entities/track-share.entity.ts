import { BigintColumn } from '@app/core';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Platform-wide lookup of a public track link: token → track (CONTRACTS.md "Geo": platform-wide
 * lookups stay in small tables of their own). Deleted with its track.
 */
@Entity('track_shares')
export class TrackShare {
  /** Random 128-bit token, 32 hex characters. */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  token: string;

  @Column({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  @BigintColumn({ name: 'track_id' })
  trackId: number;
}
