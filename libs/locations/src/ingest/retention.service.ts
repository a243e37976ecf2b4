import { AppConfig } from '@app/core';
import { Injectable, Logger } from '@nestjs/common';
import { IngestRepository } from './ingest.repository';
import { addMonths, partitionEndsBefore } from './partitions';
import { DeletedHistory, RetentionRepository } from './retention.repository';

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
  deleted: DeletedHistory;
}

/**
 * The Locations queue's `partitions` task (CONTRACTS.md "Locations, devices, tracks"): partitions of
 * `location_fixes` made ahead of time; months wholly older than `LOCATION_RETENTION_DAYS` dropped
 * whole; tracks (with their share tokens), check-ins and clock events older than
 * `HISTORY_RETENTION_DAYS` deleted. Platform-wide maintenance: the retention is the same for every
 * company.
 */
@Injectable()
export class LocationRetentionService {
  private readonly logger = new Logger('LocationRetention');

  constructor(
    private readonly ingest: IngestRepository,
    private readonly repo: RetentionRepository,
    private readonly config: AppConfig,
  ) {}

  async run(now = Date.now()): Promise<RetentionOutcome> {
    const months = Array.from({ length: PARTITION_MONTHS_AHEAD + 1 }, (_, i) => addMonths(now, i));
    const ensured = await this.ingest.ensurePartitions(months);

    const cutoff = now - this.config.LOCATION_RETENTION_DAYS * DAY_MS;
    const dropped: string[] = [];
    for (const name of (await this.repo.fixPartitions()).sort((a, b) => a.localeCompare(b))) {
      if (partitionEndsBefore(name, cutoff) !== true) continue;
      await this.repo.dropFixPartition(name);
      dropped.push(name);
    }
    if (dropped.length) this.logger.log(`dropped fix partitions ${dropped.join(', ')}`);

    const deleted = await this.repo.deleteHistory(now - this.config.HISTORY_RETENTION_DAYS * DAY_MS);
    return { ensured, dropped, deleted };
  }
}
