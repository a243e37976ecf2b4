import { AppConfig, PROCESS_ID, SQL_NOW_MS } from '@app/core';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Writes this worker's heartbeat row every `WORKER_HEARTBEAT_MS` (database clock), and marks it
 * stopped on a clean shutdown. The api reports the newest beat's age.
 */
@Injectable()
export class HeartbeatService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Heartbeat');
  /** `<hostname>:<pid>:<start ms>`, the owner this worker's delivery claims name */
  readonly id = PROCESS_ID;
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.dataSource.query(`INSERT INTO worker_heartbeats (id, started_at, beat_at) VALUES ($1, ${SQL_NOW_MS}, ${SQL_NOW_MS})`, [
      this.id,
    ]);
    this.timer = setInterval(() => void this.beat(), this.config.WORKER_HEARTBEAT_MS);
  }

  private async beat(): Promise<void> {
    try {
      await this.dataSource.query(
        `UPDATE worker_heartbeats SET beat_at = (floor(extract(epoch from clock_timestamp()) * 1000))::bigint WHERE id = $1`,
        [this.id],
      );
    } catch (err) {
      this.logger.warn(`heartbeat failed: ${(err as Error).message}`);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.dataSource
      .query(`UPDATE worker_heartbeats SET stopped_at = ${SQL_NOW_MS} WHERE id = $1`, [this.id])
      .catch((err: Error) => this.logger.warn(`could not mark heartbeat stopped: ${err.message}`));
  }
}
