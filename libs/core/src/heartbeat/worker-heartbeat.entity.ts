import { Entity, PrimaryColumn } from 'typeorm';
import { MsColumn } from '../database/bigint-columns';

/**
 * One row per running worker process, refreshed every `WORKER_HEARTBEAT_MS`. Kept in PostgreSQL
 * so the api can report the worker's age even while Redis is down.
 */
@Entity('worker_heartbeats')
export class WorkerHeartbeat {
  /** `<hostname>:<pid>:<start ms>` */
  @PrimaryColumn({ type: 'varchar', length: 200 })
  id: string;

  @MsColumn({ name: 'started_at' })
  startedAt: number;

  /** ms, database clock of the last beat. */
  @MsColumn({ name: 'beat_at' })
  beatAt: number;

  /** ms when the worker stopped cleanly; null while running. */
  @MsColumn({ name: 'stopped_at', nullable: true })
  stoppedAt: number | null;
}
