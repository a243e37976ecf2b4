import { Pool } from 'pg';
import { loadConfig, newId, WorkerRunsRepository } from '@app/core';
import { DataSource } from 'typeorm';
import { createIntCompany, openIntegrationDb } from '@test/support/integration';
import { ReportChunksRepository } from './report-chunks.repository';
import { ReportFilesRepository } from './report-files.repository';
import { ReportRetentionService } from './report-retention.service';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const p of stream) parts.push(p as Buffer);
  return Buffer.concat(parts);
}

/**
 * The report files' statements against PostgreSQL: the threads' chunk writes (ReportChunksRepository,
 * over a plain `pg` client), the api's stream and count (ReportFilesRepository), the retention's
 * deletes — each scoped by company and report.
 */
describe('ReportFilesRepository and ReportChunksRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let pool: Pool;
  let files: ReportFilesRepository;
  let a: string;
  let b: string;

  beforeAll(async () => {
    ds = await openIntegrationDb();
    pool = new Pool({ connectionString: loadConfig().DATABASE_URL, max: 1 });
    files = new ReportFilesRepository(ds);
    a = (await createIntCompany(ds)).companyId;
    b = (await createIntCompany(ds)).companyId;
  });
  afterAll(async () => {
    await pool.end();
    await ds.destroy();
  });

  async function store(companyId: string, reportId: string, chunks: string[]): Promise<void> {
    const client = await pool.connect();
    try {
      const repo = new ReportChunksRepository(client);
      for (const [i, c] of chunks.entries()) await repo.insert(companyId, reportId, i, Buffer.from(c));
    } finally {
      client.release();
    }
  }

  it('streams a report’s chunks in order, counts them, and never mixes companies or reports', async () => {
    const report = newId();
    await store(a, report, ['hello ', 'report ', 'file']);
    await store(b, report, ['other company']);
    await store(a, newId(), ['other report']);
    expect((await readAll(files.stream(a, report))).toString()).toBe('hello report file');
    expect((await readAll(files.stream(b, report))).toString()).toBe('other company');
    expect((await readAll(files.stream(a, newId()))).length).toBe(0);
    expect(await files.countChunks(ds, a, report)).toBe(3);
    expect(await files.countChunks(ds, b, report)).toBe(1);
  });

  it('binary chunks come back byte for byte', async () => {
    const report = newId();
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256));
    const client = await pool.connect();
    try {
      await new ReportChunksRepository(client).insert(a, report, 0, bytes);
    } finally {
      client.release();
    }
    expect((await readAll(files.stream(a, report))).equals(bytes)).toBe(true);
  });

  it('deleteReport deletes one report’s chunks only', async () => {
    const report = newId();
    await store(a, report, ['x', 'y']);
    await store(b, report, ['z']);
    const client = await pool.connect();
    try {
      await new ReportChunksRepository(client).deleteReport(a, report);
    } finally {
      client.release();
    }
    expect(await files.countChunks(ds, a, report)).toBe(0);
    expect(await files.countChunks(ds, b, report)).toBe(1);
  });

  it('the retention deletes chunks and finished report runs older than the bound, nothing newer, no other kind', async () => {
    const old = newId();
    const fresh = newId();
    await store(a, old, ['old']);
    await store(a, fresh, ['fresh']);
    await ds.query(`UPDATE report_chunks SET created_at = 1000 WHERE company_id = $1 AND report_id = $2`, [a, old]);
    const run = (id: string, kind: string, state: string, finishedAt: number | null) =>
      ds.query(
        `INSERT INTO worker_runs (company_id, id, member_id, kind, params, state, answer_by, created_at, finished_at)
         VALUES ($1, $2, NULL, $3, '{}', $4, 0, 0, $5)`,
        [a, id, kind, state, finishedAt],
      );
    const [doneOld, failedOld, runningOld, doneNew, otherKind] = [newId(), newId(), newId(), newId(), newId()];
    await run(doneOld, 'report', 'done', 1000);
    await run(failedOld, 'report', 'failed', 1000);
    await run(runningOld, 'report', 'running', null);
    await run(doneNew, 'report', 'done', Date.now());
    await run(otherKind, 'test.echo', 'done', 1000);
    const retention = new ReportRetentionService(files, new WorkerRunsRepository(ds));
    const pruned = await retention.prune(2000);
    expect(pruned.chunks).toBeGreaterThanOrEqual(1);
    expect(pruned.runs).toBeGreaterThanOrEqual(2);
    expect(await files.countChunks(ds, a, old)).toBe(0);
    expect(await files.countChunks(ds, a, fresh)).toBe(1);
    const left = (await ds.query(`SELECT id FROM worker_runs WHERE company_id = $1`, [a])).map((r: { id: string }) => r.id).sort();
    expect(left).toEqual([runningOld, doneNew, otherKind].sort());
  });
});
