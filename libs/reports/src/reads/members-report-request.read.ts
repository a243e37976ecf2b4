import { query } from '@app/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { definitionOf } from '../definitions';
import { loadReportContext } from '../render/load-context';
import type { ReportDb } from '../report-definition';
import type { RenderJob } from '../report-run';

/**
 * What createreport reads on the api's pool before queueing (docs/reports.md "Read model"): the
 * company's members named by `accounts` (`members`, the members lib's table), its live places named
 * (`places`, the places lib's), and the pdf row count — the type's own `count`, over the tables its
 * read model in this folder names (with the report's context: `companies`, `members`, `places`).
 */
@Injectable()
export class ReportRequestRead {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The company's members whose id is among `accounts` or whose username is, case-insensitively (`username` lower-cased), any order. */
  membersNamed(companyId: string, accounts: readonly string[]): Promise<Array<{ id: string; username: string }>> {
    return query<{ id: string; username: string }>(
      this.dataSource,
      `SELECT id, lower(username) AS username FROM members WHERE company_id = $1 AND (id = ANY($2::text[]) OR lower(username) = ANY($3::text[]))`,
      [companyId, accounts, accounts.map((a) => a.toLowerCase())],
    );
  }

  /** The ids of the company's live (not deleted) places among `accounts`, any order. */
  async livePlacesNamed(companyId: string, accounts: readonly string[]): Promise<string[]> {
    const rows = await query<{ id: string }>(
      this.dataSource,
      `SELECT id FROM places WHERE company_id = $1 AND id = ANY($2::text[]) AND deleted_at IS NULL`,
      [companyId, accounts],
    );
    return rows.map((r) => r.id);
  }

  /**
   * How many rows the report `job` will have by its type's `count` (exact or an upper bound), read on
   * the pool (no snapshot, no cursor); null when the type has no `count`.
   */
  async countRows(job: RenderJob): Promise<number | null> {
    const definition = definitionOf(job.params.type);
    if (!definition.count) return null;
    const db: ReportDb = {
      query: <T>(sql: string, values: unknown[]) => query<T>(this.dataSource, sql, values),
      cursor: () => {
        throw new Error('count() reads no cursor');
      },
      batches: () => {
        throw new Error('count() reads no cursor');
      },
    };
    return definition.count(await loadReportContext(db, job));
  }
}
