import { MsColumn } from '@app/core';
import { Column, PrimaryColumn } from 'typeorm';

/**
 * A fix consumer's memory per member — one row per (company, member): the ts of the last fix evaluated
 * (a fix at or before it is not evaluated again) and the consumer's state as JSON whose shape the
 * consumer owns (`S`). The worker locks the row while it evaluates a member's new fixes, so two tasks
 * for one member never interleave. The one type of both consumers' tables: geofencing's
 * `geofence_states` ({@link GeofenceState}) and the alerts' `alert_member_states` (`AlertMemberState`
 * in `@app/alerts`), each an entity of its own table (TypeORM's concrete table inheritance).
 */
export abstract class MemberFixState<S extends object = Record<string, unknown>> {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  @PrimaryColumn({ name: 'member_id', type: 'varchar', length: 26 })
  memberId: string;

  /** ms of the last fix evaluated; 0 = none yet. */
  @MsColumn({ name: 'evaluated_ts', default: 0 })
  evaluatedTs: number;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  state: S;

  /** ms */
  @MsColumn({ name: 'updated_at' })
  updatedAt: number;
}

/** A member's state as a consumer's pass leaves it (the row less `updatedAt`, which the write stamps). */
export type MemberFixStateSave<S extends object> = Pick<MemberFixState<S>, 'companyId' | 'memberId' | 'evaluatedTs' | 'state'>;
