import { newId } from '@app/core';
import { scratchDatabase } from '@test/support/integration';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source-options';
import { checkDistribution, TABLE_KINDS } from '../table-kinds';
import { MIGRATIONS } from './index';
import { CompanyLeadsPrimaryKeys1796070200000, ID_KEYED_TABLES } from './1796070200000-CompanyLeadsPrimaryKeys';

const TABLES = Object.keys(ID_KEYED_TABLES);
const COMPANIES = 3;
/** rows per company of each table (jobs: ten times as many) */
const ROWS = 400;

/**
 * `CompanyLeadsPrimaryKeys` on a populated database (a scratch database of its own): migrated to just
 * before it, filled (every affected table, three companies), then migrated to the end while a writer
 * keeps inserting jobs — every row is still there, unchanged, the keys are `(company_id, id)`, and the
 * writer was never refused.
 */
describe('CompanyLeadsPrimaryKeys on a populated database', () => {
  const db = scratchDatabase('mig');
  const config = db.config;
  const at = MIGRATIONS.indexOf(CompanyLeadsPrimaryKeys1796070200000);

  afterAll(() => db.drop());

  it('keeps every row and swaps each key online', async () => {
    expect(at).toBeGreaterThan(0);
    await db.create();
    const before = await new DataSource({ ...dataSourceOptions(config), migrations: MIGRATIONS.slice(0, at) }).initialize();
    const companies = Array.from({ length: COMPANIES }, () => newId());
    try {
      await before.runMigrations({ transaction: 'each' });
      for (const table of TABLES) {
        expect(await primaryKey(before, table)).toBe('PRIMARY KEY (id)');
      }
      await fill(before, companies);
    } finally {
      await before.destroy();
    }

    const ds = await new DataSource(dataSourceOptions(config)).initialize();
    try {
      const fingerprints = await fingerprint(ds);
      for (const table of TABLES)
        expect(fingerprints[table].n).toBeGreaterThanOrEqual(COMPANIES * (table === 'webhook_endpoints' ? 2 : ROWS));

      // a writer inserting jobs all along the migration: never refused, every row kept
      let writing = true;
      const written: string[] = [];
      const refused: string[] = [];
      let slowest = 0;
      const writer = (async () => {
        while (writing) {
          const id = newId();
          const t0 = Date.now();
          try {
            await ds.query(`INSERT INTO jobs (id, company_id, ts_saved, created_at) VALUES ($1, $2, 1, 1)`, [id, companies[0]]);
            written.push(id);
          } catch (err) {
            refused.push((err as Error).message);
          }
          slowest = Math.max(slowest, Date.now() - t0);
        }
      })();
      const ran = await ds.runMigrations({ transaction: 'each' }).finally(() => (writing = false));
      await writer;
      expect(ran.map((m) => m.name)).toContain('CompanyLeadsPrimaryKeys1796070200000');
      expect(refused).toEqual([]);
      expect(written.length).toBeGreaterThan(0);
      console.log(`migration ran beside ${written.length} job inserts; slowest insert ${slowest} ms`);

      // every row that was there is there, unchanged; the writer's rows too
      const after = await fingerprint(ds, written);
      expect(after).toEqual(fingerprints);
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM jobs WHERE id = ANY($1::text[])`, [written]);
      expect(n).toBe(written.length);

      for (const table of TABLES) {
        expect(await primaryKey(ds, table)).toBe('PRIMARY KEY (company_id, id)');
        const [idx] = await ds.query(
          `SELECT pg_get_indexdef(i.indexrelid) AS def, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1`,
          [`IDX_${table}_id`],
        );
        expect(idx).toEqual({ def: expect.stringMatching(new RegExp(`ON public\\.${table} USING btree \\(id\\)$`)), valid: true });
      }
      const [{ invalid }] = await ds.query(`SELECT count(*)::int AS invalid FROM pg_index WHERE NOT indisvalid`);
      expect(invalid).toBe(0);
      const violations = await checkDistribution((sql, params) => ds.query(sql, params), TABLE_KINDS);
      expect(violations.filter((v) => TABLES.includes(v.table))).toEqual([]);

      // the new key holds: a row's (company_id, id) again is refused
      await expect(
        ds.query(`INSERT INTO jobs (id, company_id, ts_saved, created_at) VALUES ($1, $2, 1, 1)`, [written[0], companies[0]]),
      ).rejects.toThrow(/duplicate key value violates unique constraint "PK_jobs"/);
    } finally {
      await ds.destroy();
    }
  });
});

async function primaryKey(ds: DataSource, table: string): Promise<string> {
  const [row] = await ds.query(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'`,
    [table],
  );
  return row.def;
}

/** Each affected table's row count and a digest of its rows (in id order), leaving out the jobs `skip`. */
async function fingerprint(ds: DataSource, skip: string[] = []): Promise<Record<string, { n: number; digest: string }>> {
  const out: Record<string, { n: number; digest: string }> = {};
  for (const table of TABLES) {
    const [row] = await ds.query(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t.id), '')) AS digest FROM "${table}" t WHERE NOT (t.id = ANY($1::text[]))`,
      [skip],
    );
    out[table] = row;
  }
  return out;
}

/** Rows in every affected table for each company, written with the schema before the migration. */
async function fill(ds: DataSource, companies: string[]): Promise<void> {
  for (const c of companies) {
    const id = (prefix: string) => `'${prefix}' || lpad(g::text, 6, '0') || right($1, 16)`;
    const series = `generate_series(1, ${ROWS}) g`;
    await ds.query(
      `INSERT INTO jobs (id, company_id, ts_saved, created_at)
                    SELECT ${id('J')}, $1, g, g FROM generate_series(1, ${ROWS * 10}) g`,
      [c],
    );
    await ds.query(`INSERT INTO places (id, company_id, name, created_at) SELECT ${id('P')}, $1, 'place ' || g, g FROM ${series}`, [c]);
    await ds.query(
      `INSERT INTO zones (id, company_id, name, polygon, created_at)
       SELECT ${id('Z')}, $1, 'zone ' || g, ST_GeogFromText('POLYGON((15 45, 15.01 45, 15.01 45.01, 15 45.01, 15 45))'), g FROM ${series}`,
      [c],
    );
    await ds.query(`INSERT INTO alert_rules (id, company_id, action, created_at) SELECT ${id('R')}, $1, 'zone_enter', g FROM ${series}`, [
      c,
    ]);
    await ds.query(`INSERT INTO notifications (id, company_id, kind, ts) SELECT ${id('N')}, $1, 'note', g FROM ${series}`, [c]);
    await ds.query(
      `INSERT INTO webhook_endpoints (id, company_id, key, url, created_at, updated_at)
                    SELECT ${id('E')}, $1, 'key' || g, 'https://hooks.example/' || g, g, g FROM generate_series(1, 2) g`,
      [c],
    );
    // the outbox's trigger fans each event out to the key's endpoint: webhook_deliveries
    await ds.query(
      `INSERT INTO outbox_events (id, company_id, event_key, action, form_id, payload, created_at)
                    SELECT 'msg_' || ${id('O')}, $1, 'key' || (1 + g % 2), 'job_updated', '', '{}', g FROM ${series}`,
      [c],
    );
    await ds.query(
      `INSERT INTO webhook_attempts (id, delivery_id, company_id, started_at, duration_ms, outcome)
       SELECT ${id('A')}, d.id, $1, d.created_at, 10, 'delivered'
         FROM (SELECT id, created_at, row_number() OVER (ORDER BY id) AS g FROM webhook_deliveries WHERE company_id = $1) d`,
      [c],
    );
  }
}
