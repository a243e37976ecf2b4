import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { newId } from '@app/core';
import { Client } from 'pg';

const run = promisify(execFile);
const SCRIPT = resolve(__dirname, '../../scripts/check-distribution');

/**
 * `scripts/check-distribution` as CI runs it (`.ci/run`, on the drift database): on a scratch database
 * whose schema breaks the rules it exits 1 and names each violation on stderr, one line each; the
 * rules themselves are checked on fixtures in `libs/database/src/table-kinds.int-spec.ts`.
 */
describe('scripts/check-distribution', () => {
  const url = new URL(process.env.DATABASE_URL!);
  const name = `fw_distcheck_${newId().toLowerCase()}`;
  const admin = () => {
    const u = new URL(url);
    u.pathname = '/postgres';
    return new Client({ connectionString: u.toString() });
  };
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;

  beforeAll(async () => {
    const a = admin();
    await a.connect();
    await a.query(`CREATE DATABASE "${name}"`);
    await a.end();
    const c = new Client({ connectionString: scratch.toString() });
    await c.connect();
    await c.query(`CREATE TABLE jobs (company_id varchar NOT NULL, id varchar PRIMARY KEY)`);
    await c.query(`CREATE TABLE orders (company_id varchar NOT NULL, id varchar NOT NULL, PRIMARY KEY (company_id, id))`);
    await c.end();
  });
  afterAll(async () => {
    const a = admin();
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await a.end();
  });

  it('exits 1 naming each violation of the schema at DATABASE_URL', async () => {
    const failed = await run('bash', [SCRIPT], { env: { ...process.env, DATABASE_URL: scratch.toString() } }).then(
      () => null,
      (err: { code: number; stdout: string; stderr: string }) => err,
    );
    expect(failed).not.toBeNull();
    expect(failed!.code).toBe(1);
    const lines = failed!.stderr.split('\n').filter((l) => l.startsWith('  '));
    expect(lines).toEqual(
      expect.arrayContaining([
        '  jobs: primary key jobs_pkey (id) does not lead with company_id',
        '  orders: not listed in table-kinds.json (per-company, reference, global lookup or external)',
        '  places: listed as per-company in table-kinds.json but not in schema "public"',
        '  worker_heartbeats: listed as reference in table-kinds.json but not in schema "public"',
      ]),
    );
    expect(failed!.stderr).toMatch(/^not ready to distribute/);
    expect(JSON.parse(failed!.stdout.trim().split('\n').pop()!)).toEqual({ violations: lines.length });
  });
});
