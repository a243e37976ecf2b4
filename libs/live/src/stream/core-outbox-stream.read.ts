import { preparedQuery, query, queryOne } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { StoredEvent } from './stream-client';

/**
 * The live stream's reads of the outbox: a documented read model of `outbox_events` and
 * `outbox_sequences` (owned by `@app/core`, which writes and stamps them through `OutboxRepository`).
 * Only stamped events (`seq` set) are read, by company and seq; times are ms, database clock.
 */
@Injectable()
export class OutboxStreamRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The company's last stamped seq (0 before its first event). */
  async lastSeq(companyId: string): Promise<number> {
    const row = await queryOne<{ lastSeq: number }>(
      this.dataSource,
      `SELECT last_seq::float8 AS "lastSeq" FROM outbox_sequences WHERE company_id = $1`,
      [companyId],
    );
    return row?.lastSeq ?? 0;
  }

  /**
   * The company's stamped events after `afterSeq`, in seq order, at most `limit` — a contiguous run:
   * seqs are committed in order, so no later one is visible before an earlier one.
   */
  eventsAfter(companyId: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    return preparedQuery<StoredEvent>(
      this.dataSource,
      'live_events_after',
      `SELECT id, seq::float8 AS seq, action, created_at::float8 AS ts, payload,
              audience_staff AS "audienceStaff", audience_members AS "audienceMembers"
         FROM outbox_events WHERE company_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [companyId, afterSeq, limit],
    );
  }

  /** When the company's event `seq` was created (ms), or null when no event has that seq (unknown or pruned). */
  async createdAtOfSeq(companyId: string, seq: number): Promise<number | null> {
    const rows = await query<{ ts: number }>(
      this.dataSource,
      `SELECT created_at::float8 AS ts FROM outbox_events WHERE company_id = $1 AND seq = $2`,
      [companyId, seq],
    );
    return rows[0]?.ts ?? null;
  }
}
