/**
 * The integration tier (`libs/**\/*.int-spec.ts`, jest project `integration`): repositories and read
 * models against real PostgreSQL — the run's own migrated database (`scripts/test.sh` sets
 * `DATABASE_URL`), no HTTP, no Nest. Each spec opens one data source with the app's options object and
 * makes companies of its own (fresh ids), so specs never see each other's rows; scoping checks compare
 * two companies of the same spec. Specs run in parallel workers on one database that outlives a run's
 * files: a platform-wide statement (retention, sweeps) is checked by what it must and must not return
 * of the spec's own rows, never by equality with all it returns.
 */
import { AppConfig, ensureDatabase, loadConfig, newId } from '@app/core';
import { dataSourceOptions } from '@app/database';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

/** A data source on the run's database with the app's one options object (entities, pool); `destroy()` it in `afterAll`. */
export async function openIntegrationDb(): Promise<DataSource> {
  const ds = new DataSource(dataSourceOptions(loadConfig()));
  await ds.initialize();
  return ds;
}

/** A database of a spec's own on the run's server (for migrations and planner state the shared one cannot have). */
export interface ScratchDatabase {
  /** its name: `fw_<prefix>_<fresh id>` */
  name: string;
  /** the run's config with `DATABASE_URL` pointing at it */
  config: AppConfig;
  /** creates it (empty, unmigrated) if it does not exist */
  create(): Promise<void>;
  /** drops it (`WITH (FORCE)`); safe when it was never created */
  drop(): Promise<void>;
}

/** A scratch database named `fw_<prefix>_<fresh id>`; call `drop()` in `afterAll`. */
export function scratchDatabase(prefix: string): ScratchDatabase {
  const base = loadConfig();
  const name = `fw_${prefix}_${newId().toLowerCase()}`;
  const at = (db: string) => Object.assign(new URL(base.DATABASE_URL), { pathname: `/${db}` }).toString();
  const config = { ...base, DATABASE_URL: at(name) };
  return {
    name,
    config,
    create: async () => {
      await ensureDatabase(config.DATABASE_URL);
    },
    drop: async () => {
      const admin = new Client({ connectionString: at('postgres') });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

/** A company of the test's own: its id, its owner (an admin) and that member's username. */
export interface IntCompany {
  companyId: string;
  ownerId: string;
  ownerUsername: string;
}

/**
 * Inserts a company and its owner (role `admin`, with its `member_usernames` row) directly, as
 * `create-company` would leave them, minus the API key. `timezone` is IANA (default UTC).
 */
export async function createIntCompany(ds: DataSource, opts: { name?: string; timezone?: string } = {}): Promise<IntCompany> {
  const companyId = newId();
  const ownerId = newId();
  const ownerUsername = `owner-${ownerId.toLowerCase()}@int.test`;
  const now = Date.now();
  await ds.transaction(async (db) => {
    await db.query(
      `INSERT INTO companies (id, name, timezone, owner_member_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)`,
      [companyId, opts.name ?? `int ${companyId}`, opts.timezone ?? 'UTC', ownerId, now],
    );
    await db.query(
      `WITH u AS (INSERT INTO member_usernames (username, company_id, member_id) VALUES (lower($3), $2, $1))
       INSERT INTO members (id, company_id, username, name, role, created_at, updated_at) VALUES ($1, $2, $3, $4, 'admin', $5, $5)`,
      [ownerId, companyId, ownerUsername, 'Owner', now],
    );
  });
  return { companyId, ownerId, ownerUsername };
}

/**
 * Inserts a member of `companyId` (default role `worker`, `teams` team ids) with its
 * `member_usernames` row, in one statement; @returns its id.
 */
export async function createIntMember(
  ds: DataSource,
  companyId: string,
  opts: { role?: string; name?: string; teams?: number[]; username?: string } = {},
): Promise<string> {
  const id = newId();
  const now = Date.now();
  await ds.query(
    `WITH u AS (INSERT INTO member_usernames (username, company_id, member_id) VALUES (lower($3), $2, $1))
     INSERT INTO members (id, company_id, username, name, role, teams, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $7)`,
    [id, companyId, opts.username ?? `m-${id.toLowerCase()}@int.test`, opts.name ?? `Member ${id}`, opts.role ?? 'worker', JSON.stringify(opts.teams ?? []), now],
  );
  return id;
}

/**
 * Inserts rows into `table` as given (column → value; objects and arrays as jsonb text), one statement
 * per row: for fixtures of tables without a factory here (`checkins`, `clock_events`, `tracks`,
 * `alert_rules`, …). Values are parameters, never spliced.
 */
export async function insertIntRows(ds: DataSource, table: string, rows: Array<Record<string, unknown>>): Promise<void> {
  for (const row of rows) {
    const cols = Object.keys(row);
    const values = cols.map((c) => {
      const v = row[c];
      return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
    });
    await ds.query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')})`, values);
  }
}

/** Inserts a place of `companyId` (at `lat`/`lng` degrees, or without a location); @returns its id. */
export async function createIntPlace(
  ds: DataSource,
  companyId: string,
  opts: { name?: string; lat?: number; lng?: number; teams?: number[]; creatorId?: string; address?: string; deletedAt?: number } = {},
): Promise<string> {
  const id = newId();
  const location = opts.lat !== undefined && opts.lng !== undefined ? `SRID=4326;POINT(${opts.lng} ${opts.lat})` : null;
  await ds.query(
    `INSERT INTO places (id, company_id, name, location, teams, creator_id, address, created_at, deleted_at)
     VALUES ($1, $2, $3, $4::geography, $5::jsonb, $6, $7, $8, $9)`,
    [
      id,
      companyId,
      opts.name ?? `Place ${id}`,
      location,
      JSON.stringify(opts.teams ?? []),
      opts.creatorId ?? null,
      opts.address ?? '',
      Date.now(),
      opts.deletedAt ?? null,
    ],
  );
  return id;
}

/**
 * Inserts a job of `companyId` with the table's defaults and `columns` (snake_case column → value; e.g.
 * `{ worker_id, day, destination_name }`), `ts_saved` and `created_at` now unless given; @returns its id.
 */
export async function createIntJob(ds: DataSource, companyId: string, columns: Record<string, unknown> = {}): Promise<string> {
  const id = newId();
  const now = Date.now();
  await insertIntRows(ds, 'jobs', [{ id, company_id: companyId, ts_saved: now, created_at: now, ...columns }]);
  return id;
}
