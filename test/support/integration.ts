/**
 * The integration tier (`libs/**\/*.int-spec.ts`, jest project `integration`): repositories and read
 * models against real PostgreSQL — the run's own migrated database (`scripts/test.sh` sets
 * `DATABASE_URL`), no HTTP, no Nest. Each spec opens one data source with the app's options object and
 * makes companies of its own (fresh ids), so specs never see each other's rows; scoping checks compare
 * two companies of the same spec.
 */
import { loadConfig, newId } from '@app/core';
import { dataSourceOptions } from '@app/database';
import { DataSource } from 'typeorm';

/** A data source on the run's database with the app's one options object (entities, pool); `destroy()` it in `afterAll`. */
export async function openIntegrationDb(): Promise<DataSource> {
  const ds = new DataSource(dataSourceOptions(loadConfig()));
  await ds.initialize();
  return ds;
}

/** A company of the test's own: its id, its owner (an admin) and that member's username. */
export interface IntCompany {
  companyId: string;
  ownerId: string;
  ownerUsername: string;
}

/**
 * Inserts a company and its owner (role `admin`) directly, as `create-company` would leave them, minus
 * the API key. `timezone` is IANA (default UTC).
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
      `INSERT INTO members (id, company_id, username, name, role, created_at, updated_at) VALUES ($1, $2, $3, $4, 'admin', $5, $5)`,
      [ownerId, companyId, ownerUsername, 'Owner', now],
    );
  });
  return { companyId, ownerId, ownerUsername };
}

/** Inserts a member of `companyId` (default role `worker`, `teams` team ids); @returns its id. */
export async function createIntMember(
  ds: DataSource,
  companyId: string,
  opts: { role?: string; name?: string; teams?: number[]; username?: string } = {},
): Promise<string> {
  const id = newId();
  const now = Date.now();
  await ds.query(
    `INSERT INTO members (id, company_id, username, name, role, teams, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $7)`,
    [id, companyId, opts.username ?? `m-${id.toLowerCase()}@int.test`, opts.name ?? `Member ${id}`, opts.role ?? 'worker', JSON.stringify(opts.teams ?? []), now],
  );
  return id;
}
