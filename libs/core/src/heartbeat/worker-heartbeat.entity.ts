import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintMs } from '../time';

/**
 * One row per running worker process, refreshed every `WORKER_HEARTBEAT_MS`. Kept in PostgreSQL
 * so the api can report the worker's age even while Redis is down.
 */
@Entity('worker_heartbeats')
export class WorkerHeartbeat {
  /** `<hostname>:<pid>:<start ms>` */
  @PrimaryColumn({ type: 'varchar', length: 200 })
  id: string;

  @Column({ name: 'started_at', type: 'bigint', transformer: bigintMs })
  startedAt: number;

  /** ms, database clock of the last beat. */
  @Column({ name: 'beat_at', type: 'bigint', transformer: bigintMs })
  beatAt: number;

  /** ms when the worker stopped cleanly; null while running. */
  @Column({ name: 'stopped_at', type: 'bigint', transformer: bigintMs, nullable: true })
  stoppedAt: number | null;
}
