import { query, StampParticipant } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * The commit stamps of `jobs` (`created_stamp`, `saved_stamp`; docs/connector.md, "Polling
 * triggers"), a {@link StampParticipant} of core's stamping: a job inserted has both null, the
 * `jobs_unstamp` trigger nulls `saved_stamp` on every update (whatever statement writes it), and each
 * stamping of the company sets them on the committed unstamped jobs. A job write that appends an
 * outbox event wakes the stamper at commit; any other (templates, raw SQL) is stamped by its
 * periodic pass or by the next `*Since` poll of the company.
 */
@Injectable()
export class JobStampsRepository implements StampParticipant {
  readonly name = 'jobs';

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Stamps the company's committed unstamped jobs with `stampedAt` (ms) in the stamping's
   * transaction: `saved_stamp` always, `created_stamp` when still null. Jobs whose row a writer holds
   * are skipped (`SKIP LOCKED`), never waited for: that writer's update leaves them unstamped again
   * anyway, and its commit is stamped by a later stamping. One statement, served by the partial
   * index of unstamped jobs. @returns how many jobs it stamped
   */
  async stamp(db: EntityManager, companyId: string, stampedAt: number): Promise<number> {
    const [row] = await query<{ n: number }>(
      db,
      `WITH u AS (
         UPDATE jobs j SET saved_stamp = $2, created_stamp = coalesce(j.created_stamp, $2)
           FROM (SELECT id FROM jobs WHERE company_id = $1 AND saved_stamp IS NULL FOR UPDATE SKIP LOCKED) t
          WHERE j.id = t.id
          RETURNING 1)
       SELECT count(*)::int AS n FROM u`,
      [companyId, stampedAt],
    );
    return row.n;
  }

  /** The companies with committed unstamped jobs (the stamper's periodic pass; the partial index of unstamped jobs). */
  async unstampedCompanies(): Promise<string[]> {
    const rows = await query<{ companyId: string }>(
      this.dataSource,
      `SELECT DISTINCT company_id AS "companyId" FROM jobs WHERE saved_stamp IS NULL`,
    );
    return rows.map((r) => r.companyId);
  }

  /** Whether the company has committed jobs not yet stamped (a `*Since` poll then stamps before it reads). */
  async hasUnstamped(companyId: string): Promise<boolean> {
    const [row] = await query<{ pending: boolean }>(
      this.dataSource,
      `SELECT EXISTS (SELECT 1 FROM jobs WHERE company_id = $1 AND saved_stamp IS NULL) AS pending`,
      [companyId],
    );
    return row.pending;
  }
}
