import { Injectable } from '@nestjs/common';
import type { Fix } from '../fix';
import { IngestRepository } from './ingest.repository';
import { monthStart } from './partitions';

/** ms a month's partition is trusted to exist without asking the database again. */
const PARTITION_CACHE_MS = 10 * 60_000;
/** SQLSTATE `check_violation`: PostgreSQL's "no partition of relation found for row". */
const NO_PARTITION = '23514';

/**
 * The partition guard of ingestion (docs/locations-ingest.md, *Partitions on demand*): the months of
 * a call's fixes get their `location_fixes` partitions before its statement runs, outside its
 * transaction. Each api process remembers for {@link PARTITION_CACHE_MS} which months exist; a
 * partition that vanished behind that memory is made when the statement fails for it, and the
 * statement is run once more.
 */
@Injectable()
export class FixPartitions {
  /** month start (ms) → until when its partition is trusted to exist (ms) */
  private readonly knownMonths = new Map<number, number>();

  constructor(private readonly repo: IngestRepository) {}

  /**
   * Runs `attempt` with the months of `fixes` known to have partitions; if one vanished behind the
   * cache (SQLSTATE 23514, nothing was written), makes them all and runs it once more.
   */
  async withPartitions<T>(fixes: readonly Fix[], attempt: () => Promise<T>): Promise<T> {
    await this.ensure(fixes, false);
    try {
      return await attempt();
    } catch (err) {
      if (sqlState(err) !== NO_PARTITION) throw err;
      await this.ensure(fixes, true);
      return attempt();
    }
  }

  /**
   * Makes sure the months of `fixes` have their partitions: months not known (or all of them, when
   * `force`) are created if missing ({@link IngestRepository.ensurePartitions}).
   */
  private async ensure(fixes: readonly Fix[], force: boolean): Promise<void> {
    const now = Date.now();
    const months = [...new Set(fixes.map((f) => monthStart(f.ts)))].filter((m) => force || (this.knownMonths.get(m) ?? 0) < now);
    if (!months.length) return;
    await this.repo.ensurePartitions(months);
    for (const m of months) this.knownMonths.set(m, now + PARTITION_CACHE_MS);
  }
}

function sqlState(err: unknown): string | undefined {
  const e = err as { code?: string; driverError?: { code?: string } };
  return e?.code ?? e?.driverError?.code;
}
