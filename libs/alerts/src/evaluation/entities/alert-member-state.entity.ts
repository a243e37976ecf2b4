import { MsColumn } from '@app/core';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The alerts fix consumer's memory per member (docs/alerts-evaluation.md): the ts of the last fix
 * evaluated (ms; a fix at or before it is not re-evaluated) and the rule state as JSON whose shape
 * the evaluation owns (`AlertFixState`: zone visits by zone id, battery arming by rule id, the current
 * still period for `idle`). The worker locks this row while it evaluates a member's new fixes; the
 * clock's `idle` evaluation reads it. Created only for members some event-driven rule watches.
 */
@Entity('alert_member_states')
export class AlertMemberState {
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
