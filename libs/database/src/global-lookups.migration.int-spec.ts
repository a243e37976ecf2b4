import { loadConfig } from '@app/core';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options';
import { MIGRATIONS } from './migrations';
import { CreateGlobalLookups1796071000000 } from './migrations/1796071000000-CreateGlobalLookups';

/**
 * `CreateGlobalLookups` on a populated database (CONTRACTS.md "Wave 3: scale": migrations that change
 * keys are tested on one): a database of its own migrated up to the migration before it, filled
 * through SQL as the code before it wrote (mixed-case usernames and device ids, members without a
 * device id, revoked keys, track shares, cluster maps), then migrated. The lookup tables must hold
 * exactly the keys of those rows, the rows themselves must be untouched, the keys per-company; a
 * second run changes nothing, and `down` gives back today's keys with the data.
 */
describe('CreateGlobalLookups on a populated database', () => {
  const config = loadConfig();
  const server = new URL(config.DATABASE_URL);
  const name = `${server.pathname.slice(1)}_glk${process.pid}`.slice(0, 63);
  const url = (db: string) => Object.assign(new URL(server.toString()), { pathname: `/${db}` }).toString();
  const at = MIGRATIONS.indexOf(CreateGlobalLookups1796071000000);
  /** A data source on the spec's database that knows the migrations up to `count` (no entities: raw SQL only). */
  const source = (count: number) =>
    new DataSource({ ...dataSourceOptions(config), url: url(name), entities: [], migrations: MIGRATIONS.slice(0, count) } as never);
  let ds: DataSource;

  const admin = async (sql: string) => {
    const c = new Client({ connectionString: url('postgres') });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };

  /** Each table's rows as one digest (every column, in key order). */
  const digest = async () => {
    const tables = { members: 'id', api_keys: 'id', track_shares: 'token', cluster_maps: 'token' };
    const out: Record<string, { n: number; md5: string }> = {};
    for (const [table, key] of Object.entries(tables)) {
      const [row] = await ds.query(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t.${key}), '')) AS md5 FROM ${table} t`,
      );
      out[table] = row;
    }
    return out;
  };
  /** The index definitions (name → columns) of a table's primary key and unique indexes. */
  const uniqueIndexes = async (table: string) =>
    Object.fromEntries(
      (
        (await ds.query(
          `SELECT c.relname AS name, i.indisprimary AS pk, i.indisvalid AS valid, pg_get_indexdef(i.indexrelid) AS def
             FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass AND i.indisunique`,
          [table],
        )) as Array<{ name: string; pk: boolean; valid: boolean; def: string }>
      ).map((r) => [r.name, `${r.pk ? 'PK ' : ''}${r.valid ? '' : 'INVALID '}${r.def.replace(/^.* USING btree /, '')}`]),
    );
  /** Rows of `a` not in `b` plus rows of `b` not in `a` (0: the same set). */
  const difference = async (a: string, b: string) =>
    (await ds.query(`SELECT count(*)::int AS n FROM (((${a}) EXCEPT (${b})) UNION ALL ((${b}) EXCEPT (${a}))) d`))[0].n as number;

  beforeAll(async () => {
    expect(at).toBeGreaterThan(0);
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin(`CREATE DATABASE "${name}"`);
    const before = source(at);
    await before.initialize();
    await before.runMigrations({ transaction: 'each' });
    await before.destroy();
    ds = source(at + 1);
    await ds.initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('fills the lookup tables with exactly the keys of the rows there, keeps every row, and makes the keys per-company', async () => {
    expect((await ds.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`))[0].name).toBe(MIGRATIONS[at - 1].name);
    // three companies; 1500 members with mixed-case usernames, a device id on every third (mixed case),
    // every fifth deactivated; two keys per tenth member (the second revoked); shares and maps
    await ds.query(
      `INSERT INTO companies (id, name, timezone, created_at, updated_at)
       SELECT 'C' || lpad(c::text, 25, '0'), 'Company ' || c, 'UTC', 1, 1 FROM generate_series(1, 3) c`,
    );
    await ds.query(
      `INSERT INTO members (id, company_id, username, name, role, device_id, active_status, created_at, updated_at)
       SELECT 'M' || lpad(i::text, 25, '0'), 'C' || lpad((1 + i % 3)::text, 25, '0'), 'User.' || i || '@Example.COM', 'Member ' || i,
              CASE WHEN i % 7 = 0 THEN 'administrator' ELSE 'worker' END,
              CASE WHEN i % 3 = 0 THEN 'Phone-' || i || '-AbC' END,
              CASE WHEN i % 5 = 0 THEN 'deactivated' ELSE 'active' END, i, i
         FROM generate_series(1, 1500) i`,
    );
    await ds.query(
      `INSERT INTO api_keys (id, prefix, key_hash, company_id, member_id, label, created_at, revoked_at)
       SELECT 'K' || lpad((i * 2 + k)::text, 25, '0'), 'fwk_' || lpad((i * 2 + k)::text, 8, '0'), repeat('ab', 32),
              'C' || lpad((1 + i % 3)::text, 25, '0'), 'M' || lpad(i::text, 25, '0'), 'key ' || k, i, CASE WHEN k = 1 THEN i + 1 END
         FROM generate_series(10, 1500, 10) i, generate_series(0, 1) k`,
    );
    await ds.query(
      `INSERT INTO track_shares (token, company_id, track_id)
       SELECT md5('track' || i), 'C' || lpad((1 + i % 3)::text, 25, '0'), i FROM generate_series(1, 400) i`,
    );
    await ds.query(
      `INSERT INTO cluster_maps (token, company_id, svg, created_at, expires_at, regions)
       SELECT md5('map' || i), 'C' || lpad((1 + i % 3)::text, 25, '0'), '<svg/>', 1, 9e15, CASE WHEN i % 2 = 0 THEN '{"v":1,"regions":[]}'::jsonb END
         FROM generate_series(1, 60) i`,
    );
    const before = await digest();
    expect(before.members.n).toBe(1500);

    await ds.runMigrations({ transaction: 'each' });
    expect((await ds.query(`SELECT name FROM migrations ORDER BY id DESC LIMIT 1`))[0].name).toBe(CreateGlobalLookups1796071000000.name);

    expect(await digest()).toEqual(before);
    const counts = await ds.query(
      `SELECT (SELECT count(*)::int FROM member_usernames) AS usernames, (SELECT count(*)::int FROM member_device_ids) AS devices,
              (SELECT count(*)::int FROM api_key_prefixes) AS prefixes, (SELECT count(*)::int FROM share_tokens) AS tokens`,
    );
    expect(counts).toEqual([{ usernames: 1500, devices: 500, prefixes: 300, tokens: 460 }]);
    expect(
      await difference(
        `SELECT username, company_id, member_id FROM member_usernames`,
        `SELECT lower(username), company_id, id FROM members`,
      ),
    ).toBe(0);
    expect(
      await difference(
        `SELECT device_id, company_id, member_id FROM member_device_ids`,
        `SELECT lower(device_id), company_id, id FROM members WHERE device_id IS NOT NULL`,
      ),
    ).toBe(0);
    expect(
      await difference(`SELECT prefix, company_id, api_key_id FROM api_key_prefixes`, `SELECT prefix, company_id, id FROM api_keys`),
    ).toBe(0);
    expect(
      await difference(
        `SELECT token, company_id, kind FROM share_tokens`,
        `SELECT token, company_id, 'track'::varchar FROM track_shares UNION ALL SELECT token, company_id, 'cluster' FROM cluster_maps`,
      ),
    ).toBe(0);
    expect(await ds.query(`SELECT username FROM member_usernames WHERE member_id = $1`, ['M' + '42'.padStart(25, '0')])).toEqual([
      { username: 'user.42@example.com' },
    ]);
    expect(await ds.query(`SELECT device_id FROM member_device_ids WHERE member_id = $1`, ['M' + '42'.padStart(25, '0')])).toEqual([
      { device_id: 'phone-42-abc' },
    ]);

    // per-company keys: company_id leads the primary key and every unique index; the lookups' keys are their primary keys
    expect(await uniqueIndexes('members')).toEqual({
      PK_members: 'PK (company_id, id)',
      UQ_members_company_username_lower: '(company_id, lower((username)::text))',
      UQ_members_company_device_id_lower: '(company_id, lower((device_id)::text)) WHERE (device_id IS NOT NULL)',
    });
    expect(await uniqueIndexes('api_keys')).toEqual({
      PK_api_keys: 'PK (company_id, id)',
      UQ_api_keys_company_prefix: '(company_id, prefix)',
    });
    expect(await uniqueIndexes('track_shares')).toEqual({ PK_track_shares: 'PK (company_id, token)' });
    expect(await uniqueIndexes('cluster_maps')).toEqual({ PK_cluster_maps: 'PK (company_id, token)' });
    expect(await uniqueIndexes('member_usernames')).toEqual({ PK_member_usernames: 'PK (username)' });
    expect(await uniqueIndexes('member_device_ids')).toEqual({ PK_member_device_ids: 'PK (device_id)' });
    expect(await uniqueIndexes('api_key_prefixes')).toEqual({ PK_api_key_prefixes: 'PK (prefix)' });
    expect(await uniqueIndexes('share_tokens')).toEqual({ PK_share_tokens: 'PK (token)' });

    // the lookups now refuse a key another company's row has, in any case
    await expect(
      ds.query(`INSERT INTO member_usernames (username, company_id, member_id) VALUES (lower('USER.42@example.com'), $1, 'X')`, [
        'C' + '1'.padStart(25, '0'),
      ]),
    ).rejects.toMatchObject({ code: '23505', constraint: 'PK_member_usernames' });
    await expect(
      ds.query(`INSERT INTO member_usernames (username, company_id, member_id) VALUES ('Upper', 'c', 'm')`),
    ).rejects.toMatchObject({
      code: '23514',
    });
  });

  it('runs again over its own result without a change, and finishes a run that stopped half-way', async () => {
    const before = { rows: await digest(), lookups: await ds.query(`SELECT count(*)::int AS n FROM member_usernames`) };
    const indexes = {
      members: await uniqueIndexes('members'),
      api_keys: await uniqueIndexes('api_keys'),
      cluster_maps: await uniqueIndexes('cluster_maps'),
    };
    const up = async () => {
      const q = ds.createQueryRunner();
      try {
        await new CreateGlobalLookups1796071000000().up(q);
      } finally {
        await q.release();
      }
    };
    await up();
    expect({ rows: await digest(), lookups: await ds.query(`SELECT count(*)::int AS n FROM member_usernames`) }).toEqual(before);

    // half-way: a lookup row not copied yet, an index not built, a concurrent build that failed
    // (left INVALID), a primary key not swapped yet
    await ds.query(`DELETE FROM member_usernames WHERE member_id = $1`, ['M' + '7'.padStart(25, '0')]);
    await ds.query(`DROP INDEX "UQ_members_company_device_id_lower"`);
    await ds.query(`DROP INDEX "UQ_api_keys_company_prefix"`);
    const [k] = await ds.query(`SELECT id, company_id, prefix FROM api_keys ORDER BY id LIMIT 1`);
    await ds.query(
      `INSERT INTO api_keys (id, prefix, key_hash, company_id, member_id, label, created_at) VALUES ('DUP', $1, '', $2, 'M', '', 1)`,
      [k.prefix, k.company_id],
    );
    await expect(
      ds.query(`CREATE UNIQUE INDEX CONCURRENTLY "UQ_api_keys_company_prefix" ON api_keys (company_id, prefix)`),
    ).rejects.toThrow();
    await ds.query(`DELETE FROM api_keys WHERE id = 'DUP'`);
    expect(await uniqueIndexes('api_keys')).toMatchObject({ UQ_api_keys_company_prefix: 'INVALID (company_id, prefix)' });
    await ds.query(`CREATE UNIQUE INDEX "PK_cluster_maps_token" ON cluster_maps (token)`);
    await ds.query(
      `ALTER TABLE cluster_maps DROP CONSTRAINT "PK_cluster_maps", ADD CONSTRAINT "PK_cluster_maps_token" PRIMARY KEY USING INDEX "PK_cluster_maps_token"`,
    );
    expect(await uniqueIndexes('cluster_maps')).toEqual({ PK_cluster_maps_token: 'PK (token)' });

    await up();
    expect({ rows: await digest(), lookups: await ds.query(`SELECT count(*)::int AS n FROM member_usernames`) }).toEqual(before);
    expect({
      members: await uniqueIndexes('members'),
      api_keys: await uniqueIndexes('api_keys'),
      cluster_maps: await uniqueIndexes('cluster_maps'),
    }).toEqual(indexes);
  });

  it('goes down to the platform-wide keys with the data, and up again', async () => {
    const rows = await digest();
    // TypeORM's undo wraps the migration in a transaction unless told 'none' (it ignores `transaction = false`)
    await ds.undoLastMigration({ transaction: 'none' });
    expect(await digest()).toEqual(rows);
    expect(await uniqueIndexes('members')).toEqual({
      PK_28b53062261b996d9c99fa12404: 'PK (id)',
      UQ_members_username_lower: '(lower((username)::text))',
      UQ_members_device_id_lower: '(lower((device_id)::text)) WHERE (device_id IS NOT NULL)',
    });
    expect(await uniqueIndexes('track_shares')).toEqual({ PK_dd06ce09974a1e1103d4b7cc2e7: 'PK (token)' });
    expect(await ds.query(`SELECT to_regclass('member_usernames') AS t`)).toEqual([{ t: null }]);
    await ds.runMigrations({ transaction: 'each' });
    expect(await digest()).toEqual(rows);
    expect((await ds.query(`SELECT count(*)::int AS n FROM share_tokens`))[0].n).toBe(460);
  });
});
