import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-company tables whose primary key was `id` alone get `(company_id, id)` (CONTRACTS "Wave 3:
 * scale": `company_id` leads the primary key of a table distributed by it; docs/scaling.md), named
 * `PK_<table>`, and keep a plain index on `id` (`IDX_<table>_id`) for the lookups by id alone that
 * remain. The old primary key's name of each, for `down`.
 */
export const ID_KEYED_TABLES: Readonly<Record<string, string>> = {
  alert_rules: 'PK_ae580564f087ffab9d229225aec',
  jobs: 'PK_cf0a6c42b72fcc7f7c237def345',
  notifications: 'PK_6a72c3c0f683f6462415e653c3a',
  outbox_events: 'PK_6689a16c00d09b8089f6237f1d2',
  places: 'PK_1afab86e226b4c3bc9a74465c12',
  webhook_attempts: 'PK_2de7e7887ad97de459adab62638',
  webhook_deliveries: 'PK_535dd409947fb6d8fc6dfc0112a',
  webhook_endpoints: 'PK_054c4cfb95223732f5939d2d546',
  zones: 'PK_880484a43ca311707b05895bd4a',
};

/** How long the key swap waits for its brief exclusive lock before giving up and trying again. */
const LOCK_TIMEOUT = '3s';
const SWAP_TRIES = 20;

/**
 * Online, table by table, outside a transaction (`transaction = false`), rows kept:
 * 1. `CREATE INDEX CONCURRENTLY` the plain index on `id`, then `CREATE UNIQUE INDEX CONCURRENTLY` the
 *    new key's index on `(company_id, id)` — writes go on meanwhile (no statement timeout for these);
 * 2. swap the key in one statement, `DROP CONSTRAINT <old>, ADD CONSTRAINT PK_<table> PRIMARY KEY
 *    USING INDEX PK_<table>`: no scan (the index is built, `company_id` is already NOT NULL), so the
 *    ACCESS EXCLUSIVE lock lasts milliseconds; under `lock_timeout` so a long transaction holding the
 *    table makes the swap retry instead of queueing every writer behind it.
 * `down` (the old keys on `id` alone) must run outside a transaction too: TypeORM's undo wraps it in one unless
 * asked for `transaction: 'none'`. Each step is idempotent (an index left invalid by an interrupted build is dropped and rebuilt; a
 * table already swapped is skipped), so a failed run is resumed by running `migrate` again.
 */
export class CompanyLeadsPrimaryKeys1796070200000 implements MigrationInterface {
  name = 'CompanyLeadsPrimaryKeys1796070200000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SET statement_timeout = 0`);
    try {
      for (const table of Object.keys(ID_KEYED_TABLES)) {
        await buildIndex(q, `IDX_${table}_id`, `CREATE INDEX CONCURRENTLY "IDX_${table}_id" ON "${table}" (id)`);
        await buildIndex(q, `PK_${table}`, `CREATE UNIQUE INDEX CONCURRENTLY "PK_${table}" ON "${table}" (company_id, id)`);
        await swapPrimaryKey(q, table, `PK_${table}`);
      }
    } finally {
      await q.query(`RESET statement_timeout`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SET statement_timeout = 0`);
    try {
      for (const [table, old] of Object.entries(ID_KEYED_TABLES)) {
        await buildIndex(q, old, `CREATE UNIQUE INDEX CONCURRENTLY "${old}" ON "${table}" (id)`);
        await swapPrimaryKey(q, table, old);
        await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "IDX_${table}_id"`);
      }
    } finally {
      await q.query(`RESET statement_timeout`);
    }
  }
}

/** Runs `create` unless a valid index `name` exists; drops an invalid one (an interrupted build) first. */
async function buildIndex(q: QueryRunner, name: string, create: string): Promise<void> {
  const [found] = await q.query(
    `SELECT i.indisvalid AS valid, con.conname AS constraint FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
       LEFT JOIN pg_constraint con ON con.conindid = c.oid
      WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace`,
    [name],
  );
  if (found?.valid) return;
  if (found) await q.query(`DROP INDEX CONCURRENTLY "${name}"`);
  await q.query(create);
}

/** Makes index `index` the primary key of `table` (named as the index), unless it already is. */
async function swapPrimaryKey(q: QueryRunner, table: string, index: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const [pk] = await q.query(`SELECT conname AS name FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'`, [`"${table}"`]);
    if (pk?.name === index) return;
    try {
      await q.query(`SET lock_timeout = '${LOCK_TIMEOUT}'`);
      await q.query(
        `ALTER TABLE "${table}" ${pk ? `DROP CONSTRAINT "${pk.name}", ` : ''}ADD CONSTRAINT "${index}" PRIMARY KEY USING INDEX "${index}"`,
      );
      return;
    } catch (err) {
      // 55P03 lock_not_available: a transaction holds the table; let it finish and try again
      const code = (err as { code?: string; driverError?: { code?: string } }).driverError?.code ?? (err as { code?: string }).code;
      if (code !== '55P03' || attempt >= SWAP_TRIES) throw err;
    } finally {
      await q.query(`RESET lock_timeout`);
    }
  }
}
