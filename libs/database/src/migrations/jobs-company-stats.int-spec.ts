import { newId } from '@app/core';
import { scratchDatabase } from '@test/support/integration';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source-options';
import { JobsCompanyStatsOff1796100000000 } from './1796100000000-JobsCompanyStatsOff';

const WORKERS = 4;
const DAYS = 5;
/** jobs per worker-day of each company */
const PER_DAY = 200;
const DAY0 = 20261201;

/** The route numbers' probe of one worker-day (`JobsRepository.routeNumberTops`' inner SELECT). */
const PROBE = `SELECT j.number FROM jobs j
  WHERE j.company_id = $1 AND j.worker_id = $2 AND j.day = $3 AND j.is_template = false AND j.archived = false
  ORDER BY j.number DESC LIMIT 1`;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Every node of a JSON plan, depth first. */
function nodes(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(nodes)];
}

/**
 * `JobsCompanyStatsOff` (a scratch database): company A's jobs are analysed, then company B's written —
 * the state of a new company beside a large one before autovacuum's next ANALYZE (or of this machine's
 * PostgreSQL, which runs without autovacuum). B's worker-day probe must go down the worker-day index,
 * not read all of B's jobs through an index on `company_id` alone; with the column's statistics back
 * (the migration's `down`) the same state gives that whole-company read, which is what it prevents.
 */
describe('JobsCompanyStatsOff: a company outside the last ANALYZE', () => {
  const db = scratchDatabase('stats');
  let ds: DataSource;
  const a = newId();
  const b = newId();

  beforeAll(async () => {
    await db.create();
    ds = await new DataSource(dataSourceOptions(db.config)).initialize();
    await ds.runMigrations({ transaction: 'each' });
  });

  afterAll(async () => {
    await ds?.destroy();
    await db.drop();
  });

  /** WORKERS × DAYS × PER_DAY jobs of `company`, numbered per worker-day. */
  const fill = (company: string): Promise<unknown> =>
    ds.query(
      `INSERT INTO jobs (id, company_id, worker_id, day, number, ts_saved, created_at)
       SELECT left($1, 18) || lpad(g::text, 8, '0'), $1, left($1, 22) || 'w' || (g % $2::int), $3::int + (g / $2::int) % $4::int, g / ($2::int * $4::int), 0, 0
         FROM generate_series(0, $2::int * $4::int * $5::int - 1) g`,
      [company, WORKERS, DAY0, DAYS, PER_DAY],
    );

  /** The probe's plan for B's first worker-day, run (EXPLAIN ANALYZE). */
  const probe = async (): Promise<PlanNode[]> => {
    const [row] = await ds.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${PROBE}`, [b, `${b.slice(0, 22)}w0`, DAY0]);
    return nodes(row['QUERY PLAN'][0].Plan);
  };

  it('probes the worker-day index, and does without the column statistics', async () => {
    await fill(a);
    await ds.query('ANALYZE jobs');
    await fill(b);

    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM pg_stats WHERE tablename = 'jobs' AND attname = 'company_id'`);
    expect(n).toBe(0);
    const scan = (await probe()).find((x) => x['Node Type'] === 'Index Scan');
    expect(scan?.['Index Cond']).toMatch(/worker_id/);
    expect(scan?.['Rows Removed by Filter'] ?? 0).toBe(0);
    expect(scan?.['Actual Rows']).toBe(1);
  });

  it('with the statistics back, the same state reads all of the company’s jobs (what the migration prevents)', async () => {
    const q = ds.createQueryRunner();
    try {
      await new JobsCompanyStatsOff1796100000000().down(q);
    } finally {
      await q.release();
    }
    await ds.query('DELETE FROM jobs WHERE company_id = $1', [b]);
    await ds.query('ANALYZE jobs');
    await fill(b);

    const read = (await probe()).filter((x) => x['Node Type'] === 'Index Scan' || x['Node Type'] === 'Seq Scan');
    const rows = read.reduce((s, x) => s + (x['Actual Rows'] ?? 0) + (x['Rows Removed by Filter'] ?? 0), 0);
    expect(rows).toBeGreaterThan(WORKERS * DAYS * PER_DAY / 2);
  });
});
