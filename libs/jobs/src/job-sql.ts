import { SQL_NOW_MS } from '@app/core';
import { EntityManager, EntityMetadata } from 'typeorm';
import { Job } from './entities/job.entity';

/** Columns the database clock sets on every write. */
const CLOCK_COLUMNS = new Set(['ts_saved', 'created_at']);

const SQL_TYPES: Record<string, string> = {
  varchar: 'text',
  text: 'text',
  integer: 'integer',
  smallint: 'smallint',
  bigint: 'bigint',
  'double precision': 'float8',
  boolean: 'boolean',
  jsonb: 'jsonb',
};

/**
 * Bulk insert and single-row update of jobs in plain SQL, built once from the entity's metadata:
 * an insert is one statement over `json_to_recordset` (one bind parameter whatever the batch
 * size, so PostgreSQL's 65,535-parameter limit never applies); `created_at` and `ts_saved` come
 * from the database clock.
 */
export class JobSql {
  private readonly columns: Array<{ property: keyof Job; column: string; type: string }>;
  readonly insertSql: string;

  constructor(metadata: EntityMetadata) {
    this.columns = metadata.columns
      .filter((c) => !CLOCK_COLUMNS.has(c.databaseName))
      .map((c) => ({ property: c.propertyName as keyof Job, column: c.databaseName, type: SQL_TYPES[String(c.type)] ?? 'text' }));
    const names = this.columns.map((c) => c.column);
    this.insertSql = `INSERT INTO jobs (${names.join(', ')}, ts_saved, created_at)
      SELECT ${names.map((n) => `x.${n}`).join(', ')}, ${SQL_NOW_MS}, ${SQL_NOW_MS}
        FROM json_to_recordset($1::json) AS x(${this.columns.map((c) => `${c.column} ${c.type}`).join(', ')})
      ON CONFLICT (company_id, uid_secondary) WHERE is_template = false AND uid_secondary IS NOT NULL DO NOTHING
      RETURNING id`;
  }

  /** Inserts the jobs; a non-template job whose uidSecondary exists already is skipped. @returns the ids inserted. */
  async insert(manager: EntityManager, jobs: Job[]): Promise<Set<string>> {
    if (!jobs.length) return new Set();
    const records = jobs.map((j) => Object.fromEntries(this.columns.map((c) => [c.column, j[c.property]])));
    const rows: Array<{ id: string }> = await manager.query(this.insertSql, [JSON.stringify(records)]);
    return new Set(rows.map((r) => r.id));
  }

  /** Writes the changed properties of one job, stamping ts_saved and bumping version. */
  async update(manager: EntityManager, job: Job, changed: Array<keyof Job>): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [job.id, job.companyId];
    for (const property of changed) {
      const c = this.columns.find((col) => col.property === property);
      if (!c || c.property === 'version') continue;
      const value = job[property];
      params.push(c.type === 'jsonb' ? JSON.stringify(value) : value);
      sets.push(`${c.column} = $${params.length}${c.type === 'jsonb' ? '::jsonb' : ''}`);
    }
    await manager.query(
      `UPDATE jobs SET ${sets.join(', ')}${sets.length ? ', ' : ''}ts_saved = ${SQL_NOW_MS}, version = version + 1 WHERE id = $1 AND company_id = $2`,
      params,
    );
  }
}
