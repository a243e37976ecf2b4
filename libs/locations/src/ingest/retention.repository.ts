import { query, ShareTokensRepository } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** History rows {@link RetentionRepository.deleteHistory} deleted, per table. */
export interface DeletedHistory {
  tracks: number;
  trackShares: number;
  checkins: number;
  clockEvents: number;
}

/**
 * The retention's SQL: the partitions of `location_fixes` listed and dropped, and the history
 * (`tracks` with their `track_shares`, `checkins`, `clock_events`) deleted by age. Platform-wide
 * maintenance: the retention is the same for every company, so these statements are not scoped by one.
 * The deleted shares' tokens leave the global lookup `share_tokens` in the same transaction.
 */
@Injectable()
export class RetentionRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly shareTokens: ShareTokensRepository,
  ) {}

  /** The names of the partitions of `location_fixes` (any order). */
  async fixPartitions(): Promise<string[]> {
    const rows = await query<{ name: string }>(
      this.dataSource,
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'location_fixes'::regclass`,
    );
    return rows.map((r) => r.name);
  }

  /**
   * Drops one partition of `location_fixes` (a name {@link fixPartitions} answered). Dropping a
   * partition locks the parent: waits at most 5 s for in-flight ingestion, else throws (retried by the
   * next run).
   */
  async dropFixPartition(name: string): Promise<void> {
    await this.dataSource.transaction(async (db) => {
      await db.query(`SET LOCAL lock_timeout = '5s'`);
      await db.query(`DROP TABLE IF EXISTS "${name}"`);
    });
  }

  /**
   * Deletes the history older than `before` (ms): closed tracks that ended before it (their share
   * rows and the tokens' lookup rows first, in one transaction), check-ins that ended (or, still open, began) before it, clock events before it.
   * @returns the rows deleted per table
   */
  async deleteHistory(before: number): Promise<DeletedHistory> {
    const count = async (sql: string) =>
      (await query<{ n: number }>(this.dataSource, `WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`, [before]))[0].n;
    const trackShares = await this.dataSource.transaction(async (db) => {
      const gone = await query<{ token: string }>(
        db,
        `DELETE FROM track_shares s USING tracks t WHERE s.company_id = t.company_id AND s.track_id = t.id AND t.end_ts < $1 AND NOT t.open
         RETURNING s.token`,
        [before],
      );
      await this.shareTokens.delete(
        db,
        'track',
        gone.map((g) => g.token),
      );
      return gone.length;
    });
    const tracks = await count(`DELETE FROM tracks WHERE end_ts < $1 AND NOT open`);
    const checkins = await count(`DELETE FROM checkins WHERE COALESCE(out_ts, in_ts) < $1`);
    const clockEvents = await count(`DELETE FROM clock_events WHERE ts < $1`);
    return { tracks, trackShares, checkins, clockEvents };
  }
}
