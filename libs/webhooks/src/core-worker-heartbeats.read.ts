import { query, SQL_NOW_MS } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * The webhooks lib's read of `worker_heartbeats` (owned by `@app/core`, written by the worker's
 * heartbeat), joined with the lib's own `webhook_deliveries`: which workers holding delivery claims
 * have stopped beating. Reads only.
 */
@Injectable()
export class WorkerHeartbeatsRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The workers (`worker_heartbeats.id`) named by an `in_flight` delivery claim whose last beat is
   * older than `staleMs` (database clock). A worker without a heartbeat row is never answered: its
   * claims wait for their `locked_until`.
   */
  async deadClaimOwners(staleMs: number): Promise<string[]> {
    const rows = await query<{ id: string }>(
      this.dataSource,
      `SELECT DISTINCT h.id FROM webhook_deliveries d JOIN worker_heartbeats h ON h.id = d.claimed_by
        WHERE d.state = 'in_flight' AND h.beat_at < ${SQL_NOW_MS} - $1`,
      [staleMs],
    );
    return rows.map((r) => r.id);
  }
}
