import type { ClientBase } from 'pg';

/**
 * The report threads' statements on `report_chunks` (a stored file, `seq` in order), over one of the
 * thread's own `pg` clients in autocommit — no Nest, no TypeORM: the threads load it. The api's reads
 * and the retention's deletes are `ReportFilesRepository`'s.
 */
export class ReportChunksRepository {
  constructor(private readonly client: ClientBase) {}

  /** Stores chunk `seq` of report `reportId` (`created_at` = now, ms). */
  async insert(companyId: string, reportId: string, seq: number, data: Buffer): Promise<void> {
    await this.client.query(`INSERT INTO report_chunks (company_id, report_id, seq, data, created_at) VALUES ($1, $2, $3, $4, $5)`, [
      companyId,
      reportId,
      seq,
      data,
      Date.now(),
    ]);
  }

  /** Deletes every chunk of report `reportId` (an earlier attempt's, or a failed render's). */
  async deleteReport(companyId: string, reportId: string): Promise<void> {
    await this.client.query(`DELETE FROM report_chunks WHERE company_id = $1 AND report_id = $2`, [companyId, reportId]);
  }
}
