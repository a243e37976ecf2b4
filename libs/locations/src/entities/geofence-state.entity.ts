import { MsColumn } from '@app/core';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Geofencing's memory per member: the ts of the last fix evaluated (a fix at or before it enters
 * history but is not re-evaluated) and the per-geofence state (inside/outside, pending dwell, open
 * visit) as JSON whose shape the geofence module owns. The worker locks this row while it evaluates a
 * member's new fixes, so two tasks for one member never interleave.
 */
@Entity('geofence_states')
export class GeofenceState {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  @PrimaryColumn({ name: 'member_id', type: 'varchar', length: 26 })
  memberId: string;

  /** ms of the last fix evaluated; 0 = none yet. */
  @MsColumn({ name: 'evaluated_ts', default: 0 })
  evaluatedTs: number;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  state: Record<string, unknown>;

  @MsColumn({ name: 'updated_at' })
  updatedAt: number;
}
