import { Readable } from 'node:stream';
import { query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Bytes a file stream buffers ahead of the client: two stored chunks (see CHUNK_BYTES in the worker's chunk sink). */
const READ_AHEAD_BYTES = 2 * 1024 * 1024;

/**
 * Report files in PostgreSQL (`report_chunks`, written by the worker's report threads): streamed back
 * one chunk (≤ 1 MiB) per query, so any api instance answers any report with at most three chunks in memory; and
 * pruned with their runs after `REPORT_RETENTION_HOURS`.
 */
@Injectable()
export class ReportFilesRepository {
  constructor(private readonly dataSource: DataSource) {}

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

  /**
   * Deletes report files and finished report runs older than `before` (ms), and chunks no run will
   * ever claim (their run failed, expired or is gone) once they are that old.
   * @returns chunks and runs deleted
   */
  async prune(before: number): Promise<{ chunks: number; runs: number }> {
    const chunks = await query<{ n: string }>(
      this.dataSource,
      `WITH d AS (DELETE FROM report_chunks WHERE created_at < $1 RETURNING 1) SELECT count(*) AS n FROM d`,
      [before],
    );
    const runs = await query<{ n: string }>(
      this.dataSource,
      `WITH d AS (DELETE FROM worker_runs WHERE kind = 'report' AND state IN ('done', 'failed', 'expired')
                    AND finished_at < $1 RETURNING 1) SELECT count(*) AS n FROM d`,
      [before],
    );
    return { chunks: Number(chunks[0].n), runs: Number(runs[0].n) };
  }
}
