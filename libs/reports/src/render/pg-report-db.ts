import type { ClientBase } from 'pg';
import Cursor from 'pg-cursor';
import { isDatabaseUnavailable } from '@app/core/pure';
import type { ReportDb } from '../report-definition';

/**
 * {@link ReportDb} over one `pg` client: small queries as they are, row sources through a server-side
 * cursor (`pg-cursor`), read `batch` rows at a time with one read ahead — at most two batches in memory,
 * however many rows the report has.
 * The caller owns the client's transaction (the render thread opens a read-only repeatable-read one, so
 * every statement of a report sees the same snapshot).
 */
export class PgReportDb implements ReportDb {
  constructor(private readonly client: ClientBase) {}

  async query<T>(sql: string, params: unknown[]): Promise<T[]> {
    return (await this.client.query(sql, params)).rows as T[];
  }

  async *cursor<T>(sql: string, params: unknown[], batch = 1000): AsyncIterable<T> {
    for await (const rows of this.batches<T>(sql, params, batch)) yield* rows;
  }

  async *batches<T>(sql: string, params: unknown[], batch = 1000): AsyncIterable<T[]> {
    const cursor = this.client.query(new Cursor<T>(sql, params));
    // one read ahead: pg-cursor queues it and sends it the moment the current batch is in, so
    // PostgreSQL produces batch n + 1 while this thread maps and writes batch n
    let next = cursor.read(batch);
    let failed: unknown;
    try {
      for (;;) {
        const rows = await next;
        if (rows.length === 0) return;
        next = cursor.read(batch);
        yield rows;
      }
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      next.catch(() => undefined);
      // pg-cursor's close waits for the server's answer: on a connection that went away (a replica
      // stopped mid-report) it would wait for ever, and the error would never reach the render
      if (failed === undefined || !isDatabaseUnavailable(failed)) await cursor.close();
    }
  }
}
