import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { query } from '../database/query';

/**
 * The retention's statement on `worker_runs`: deleting a kind's finished runs once they are old (a
 * domain that keeps its own files beside its runs, e.g. reports, prunes both on one schedule).
 * Platform-wide: the schedule prunes every company's runs at once.
 */
@Injectable()
export class WorkerRunsRetentionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Deletes the runs of `kind` that finished (`done`, `failed`, `expired`) before `before` (ms).
   * @returns runs deleted
   */
  async deleteFinished(kind: string, before: number): Promise<number> {
    const rows = await query<{ n: string }>(
      this.dataSource,
      `WITH d AS (DELETE FROM worker_runs WHERE kind = $2 AND state IN ('done', 'failed', 'expired')
                    AND finished_at < $1 RETURNING 1) SELECT count(*) AS n FROM d`,
      [before, kind],
    );
    return Number(rows[0].n);
  }
}
