import { Readable } from 'node:stream';
import { query, Queryable } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Bytes a file stream buffers ahead of the client: two stored chunks (see CHUNK_BYTES in the worker's chunk sink). */
const READ_AHEAD_BYTES = 2 * 1024 * 1024;

/**
 * Report files in PostgreSQL (`report_chunks`, written by the worker's report threads through
 * `ReportChunksRepository`): streamed back one chunk (≤ 1 MiB) per query, so any api instance
 * answers any report with at most three chunks in memory; counted by the run's writing transaction; and
 * pruned after `REPORT_RETENTION_HOURS` (`ReportRetentionService`).
 */
@Injectable()
export class ReportFilesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The stored file of report `reportId` as a stream of its chunks in order (empty when none). */
  stream(companyId: string, reportId: string): Readable {
    const ds = this.dataSource;
    let seq = 0;
    return new Readable({
      // room for a second chunk: the next one is fetched while the first goes out to the client
      highWaterMark: READ_AHEAD_BYTES,
      async read() {
        try {
          // base64, not bytea's hex text: 1.33× the bytes instead of 2× (measured: 34 MB read back in
          // 0.39 s against 0.72 s); Buffer.from skips the line breaks PostgreSQL's encoding inserts
          const rows = await query<{ data: string }>(
            ds,
            `SELECT encode(data, 'base64') AS data FROM report_chunks WHERE company_id = $1 AND report_id = $2 AND seq = $3`,
            [companyId, reportId, seq++],
          );
          this.push(rows.length ? Buffer.from(rows[0].data, 'base64') : null);
        } catch (err) {
          this.destroy(err as Error);
        }
      },
    });
  }

  /** How many chunks of report `reportId` are stored (in the caller's transaction `db`). */
  async countChunks(db: Queryable, companyId: string, reportId: string): Promise<number> {
    const [{ n }] = await query<{ n: number }>(db, `SELECT count(*)::int AS n FROM report_chunks WHERE company_id = $1 AND report_id = $2`, [
      companyId,
      reportId,
    ]);
    return n;
  }

  /**
   * Deletes every chunk stored before `before` (ms): the files of reports past retention, and chunks no
   * run will ever claim (their run failed, expired or is gone) once they are that old.
   * @returns chunks deleted
   */
  async deleteBefore(before: number): Promise<number> {
    const chunks = await query<{ n: string }>(
      this.dataSource,
      `WITH d AS (DELETE FROM report_chunks WHERE created_at < $1 RETURNING 1) SELECT count(*) AS n FROM d`,
      [before],
    );
    return Number(chunks[0].n);
  }
}
