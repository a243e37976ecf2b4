import { bigintMs, MsColumn } from '@app/core';
import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A change of a member's reported tracking state (clock in = tracking on, clock out = off), stored for
 * the timesheet report; the `clockin`/`clockout` events are written to the outbox in the same
 * transaction. `ts` = the phone's `tracking_ts`, else the receive time (ms). `lat`/`lng`: the newest fix
 * of that call or the latest known within 10 min, else null.
 */
@Entity('clock_events')
export class ClockEvent {
  @PrimaryColumn({ name: 'company_id', type: 'varchar', length: 26 })
  companyId: string;

  @PrimaryColumn({ name: 'member_id', type: 'varchar', length: 26 })
  memberId: string;

  @PrimaryColumn({ type: 'bigint', transformer: bigintMs })
  ts: number;

  @Column({ type: 'boolean' })
  tracking: boolean;

  @Column({ type: 'double precision', nullable: true })
  lat: number | null;

  @Column({ type: 'double precision', nullable: true })
  lng: number | null;

  @MsColumn({ name: 'received_at' })
  receivedAt: number;
}
