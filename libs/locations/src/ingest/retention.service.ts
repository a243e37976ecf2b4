import { AppConfig, query } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { addMonths, partitionEndsBefore } from './partitions';

const DAY_MS = 86_400_000;
/** How many months ahead of the current one get their partition in advance. */
export const PARTITION_MONTHS_AHEAD = 2;

/** What one {@link LocationRetentionService.run} did. */
export interface RetentionOutcome {
  /** partitions made sure of (this month and the next ones) */
  ensured: string[];
  /** partitions dropped (whole months older than LOCATION_RETENTION_DAYS) */
  dropped: string[];
  /** history rows deleted (older than HISTORY_RETENTION_DAYS) */
  deleted: { tracks: number; trackShares: number; checkins: number; clockEvents: number };
}

/**
 * The Locations queue's `partitions` task (CONTRACTS.md "Locations, devices, tracks"): partitions of
 * `location_fixes` made ahead of time; months wholly older than `LOCATION_RETENTION_DAYS` dropped
 * whole; tracks (with their share tokens), check-ins and clock events older than
 * `HISTORY_RETENTION_DAYS` deleted. Platform-wide maintenance: the retention is the same for every
 * company, so these statements are not scoped by one.
 */
@Injectable()
export class LocationRetentionService {
  private readonly logger = new Logger('LocationRetention');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async run(now = Date.now()): Promise<RetentionOutcome> {
    const months = Array.from({ length: PARTITION_MONTHS_AHEAD + 1 }, (_, i) => addMonths(now, i));
    const ensured = (
      await query<{ name: string }>(this.dataSource, `SELECT location_fixes_ensure_partition(m) AS name FROM unnest($1::bigint[]) AS m`, [months])
    ).map((r) => r.name);

    const cutoff = now - this.config.LOCATION_RETENTION_DAYS * DAY_MS;
    const partitions = await query<{ name: string }>(
      this.dataSource,
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'location_fixes'::regclass`,
    );
    const dropped: string[] = [];
    for (const { name } of partitions.sort((a, b) => a.name.localeCompare(b.name))) {
      if (partitionEndsBefore(name, cutoff) !== true) continue;
      // dropping a partition locks the parent: wait at most 5 s for in-flight ingestion, else retry later
      await this.dataSource.transaction(async (db) => {
        await db.query(`SET LOCAL lock_timeout = '5s'`);
        await db.query(`DROP TABLE IF EXISTS "${name}"`);
      });
      dropped.push(name);
    }
    if (dropped.length) this.logger.log(`dropped fix partitions ${dropped.join(', ')}`);

    const history = now - this.config.HISTORY_RETENTION_DAYS * DAY_MS;
    const count = async (sql: string) => (await query<{ n: number }>(this.dataSource, `WITH d AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM d`, [history]))[0].n;
    const trackShares = await count(
      `DELETE FROM track_shares s USING tracks t WHERE s.company_id = t.company_id AND s.track_id = t.id AND t.end_ts < $1 AND NOT t.open`,
    );
    const tracks = await count(`DELETE FROM tracks WHERE end_ts < $1 AND NOT open`);
    const checkins = await count(`DELETE FROM checkins WHERE COALESCE(out_ts, in_ts) < $1`);
    const clockEvents = await count(`DELETE FROM clock_events WHERE ts < $1`);
    return { ensured, dropped, deleted: { tracks, trackShares, checkins, clockEvents } };
  }
}
