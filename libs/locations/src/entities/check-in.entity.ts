import { MsColumn } from '@app/core';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One automatic visit of a member at a place or at one of its jobs (CONTRACTS.md "Places, check-ins,
 * clock"), recorded by geofencing for reports. Exactly one of `place_id` / `job_id` is set.
 * `in_ts` = the first fix inside (ms); `out_ts` = the first fix beyond (or the last fix inside for a
 * visit closed by 30 min without fixes); null while the member is still there. `duration` ms.
 */
@Entity('checkins')
@Index('IDX_checkins_member_in', ['companyId', 'memberId', 'inTs'])
@Index('IDX_checkins_place_in', ['companyId', 'placeId', 'inTs'])
@Index('IDX_checkins_job', ['companyId', 'jobId'])
export class CheckIn {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  /** ULID */
  @PrimaryColumn({ type: 'varchar', length: 26 })
  id: string;

  @Column({ name: 'member_id', type: 'varchar', length: 26 })
  memberId: string;

  @Column({ name: 'place_id', type: 'varchar', length: 26, nullable: true })
  placeId: string | null;

  @Column({ name: 'job_id', type: 'varchar', length: 26, nullable: true })
  jobId: string | null;

  @MsColumn({ name: 'in_ts' })
  inTs: number;

  @MsColumn({ name: 'out_ts', nullable: true })
  outTs: number | null;

  /** ms; null while open. */
  @MsColumn({ nullable: true })
  duration: number | null;
}
