import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Global lookup tables (issue #29 item 2; CONTRACTS.md "Wave 3: scale"; docs/scaling.md, "Global
 * lookup tables"). The keys unique across the platform move out of the per-company tables into
 * narrow tables of their own, each with its primary key on the key:
 *
 * - `member_usernames`: lower(username) → (company_id, member_id)
 * - `member_device_ids`: lower(device_id) → (company_id, member_id)
 * - `api_key_prefixes`: prefix → (company_id, api_key_id)
 * - `share_tokens`: token → (company_id, kind): `track` (a `track_shares` row) or `cluster` (a
 *   `cluster_maps` row), both keyed (company_id, token)
 *
 * and `members`, `api_keys`, `track_shares`, `cluster_maps` become per-company: `company_id` leads
 * their primary key and every unique index. The lookup rows are backfilled from today's rows; the old
 * platform-wide unique indexes are dropped only after the lookup tables hold (and enforce) every key.
 *
 * Online, outside a transaction (`transaction = false`): every index is built `CONCURRENTLY`; each
 * primary key swap (`DROP CONSTRAINT`, `ADD CONSTRAINT … PRIMARY KEY USING INDEX`) takes its table's
 * lock only for the catalog change, and waits at most `lock_timeout` for it. Every step can run
 * again: a run that stopped half-way (a lock timeout, a failed concurrent build) is finished by the
 * next `migrate` — an invalid index left by a failed build is dropped and built again.
 */
export class CreateGlobalLookups1796071000000 implements MigrationInterface {
  name = 'CreateGlobalLookups1796071000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`SET statement_timeout = 0`);
    await q.query(`SET lock_timeout = '10s'`);
    try {
      for (const sql of LOOKUP_TABLES) await q.query(sql);
      for (const sql of BACKFILL) await q.query(sql);
      // the per-company keys, built beside today's
      await buildIndex(q, 'PK_members', `"members" ("company_id", "id")`);
      await buildIndex(q, 'UQ_members_company_username_lower', `"members" ("company_id", lower("username"))`);
      await buildIndex(
        q,
        'UQ_members_company_device_id_lower',
        `"members" ("company_id", lower("device_id")) WHERE "device_id" IS NOT NULL`,
      );
      await buildIndex(q, 'PK_api_keys', `"api_keys" ("company_id", "id")`);
      await buildIndex(q, 'UQ_api_keys_company_prefix', `"api_keys" ("company_id", "prefix")`);
      await buildIndex(q, 'PK_track_shares', `"track_shares" ("company_id", "token")`);
      await buildIndex(q, 'PK_cluster_maps', `"cluster_maps" ("company_id", "token")`);
      await swapPrimaryKey(q, 'members', OLD_PK.members, 'PK_members');
      await swapPrimaryKey(q, 'api_keys', OLD_PK.api_keys, 'PK_api_keys');
      await swapPrimaryKey(q, 'track_shares', OLD_PK.track_shares, 'PK_track_shares');
      await swapPrimaryKey(q, 'cluster_maps', OLD_PK.cluster_maps, 'PK_cluster_maps');
      // the lookup tables' primary keys enforce these now
      await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "UQ_members_username_lower"`);
      await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "UQ_members_device_id_lower"`);
      await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "UQ_api_keys_prefix"`);
    } finally {
      await q.query(`RESET lock_timeout`);
      await q.query(`RESET statement_timeout`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`SET statement_timeout = 0`);
    await q.query(`SET lock_timeout = '10s'`);
    try {
      await buildIndex(q, 'UQ_members_username_lower', `"members" (lower("username"))`);
      await buildIndex(q, 'UQ_members_device_id_lower', `"members" (lower("device_id")) WHERE "device_id" IS NOT NULL`);
      await buildIndex(q, 'UQ_api_keys_prefix', `"api_keys" ("prefix")`);
      await buildIndex(q, OLD_PK.members, `"members" ("id")`);
      await buildIndex(q, OLD_PK.api_keys, `"api_keys" ("id")`);
      await buildIndex(q, OLD_PK.track_shares, `"track_shares" ("token")`);
      await buildIndex(q, OLD_PK.cluster_maps, `"cluster_maps" ("token")`);
      await swapPrimaryKey(q, 'members', 'PK_members', OLD_PK.members);
      await swapPrimaryKey(q, 'api_keys', 'PK_api_keys', OLD_PK.api_keys);
      await swapPrimaryKey(q, 'track_shares', 'PK_track_shares', OLD_PK.track_shares);
      await swapPrimaryKey(q, 'cluster_maps', 'PK_cluster_maps', OLD_PK.cluster_maps);
      await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "UQ_members_company_username_lower"`);
      await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "UQ_members_company_device_id_lower"`);
      await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "UQ_api_keys_company_prefix"`);
      await q.query(`DROP TABLE IF EXISTS "share_tokens"`);
      await q.query(`DROP TABLE IF EXISTS "api_key_prefixes"`);
      await q.query(`DROP TABLE IF EXISTS "member_device_ids"`);
      await q.query(`DROP TABLE IF EXISTS "member_usernames"`);
    } finally {
      await q.query(`RESET lock_timeout`);
      await q.query(`RESET statement_timeout`);
    }
  }
}

/** Today's primary keys (named by TypeORM, or by hand for `cluster_maps`): on `id` or `token` alone. */
const OLD_PK = {
  members: 'PK_28b53062261b996d9c99fa12404',
  api_keys: 'PK_5c8a79801b44bd27b79228e1dad',
  track_shares: 'PK_dd06ce09974a1e1103d4b7cc2e7',
  cluster_maps: 'PK_cluster_maps_token',
} as const;

/** The four lookup tables: the key (its primary key), the company, what it names in that company. */
const LOOKUP_TABLES = [
  `CREATE TABLE IF NOT EXISTS "member_usernames" ("username" character varying(254) NOT NULL, "company_id" character varying(26) NOT NULL, "member_id" character varying(26) NOT NULL,
     CONSTRAINT "PK_member_usernames" PRIMARY KEY ("username"), CONSTRAINT "CHK_member_usernames_lower" CHECK ("username" = lower("username")))`,
  `CREATE TABLE IF NOT EXISTS "member_device_ids" ("device_id" character varying(64) NOT NULL, "company_id" character varying(26) NOT NULL, "member_id" character varying(26) NOT NULL,
     CONSTRAINT "PK_member_device_ids" PRIMARY KEY ("device_id"), CONSTRAINT "CHK_member_device_ids_lower" CHECK ("device_id" = lower("device_id")))`,
  `CREATE TABLE IF NOT EXISTS "api_key_prefixes" ("prefix" character varying(12) NOT NULL, "company_id" character varying(26) NOT NULL, "api_key_id" character varying(26) NOT NULL,
     CONSTRAINT "PK_api_key_prefixes" PRIMARY KEY ("prefix"))`,
  `CREATE TABLE IF NOT EXISTS "share_tokens" ("token" character varying(32) NOT NULL, "company_id" character varying(26) NOT NULL, "kind" character varying(8) NOT NULL,
     CONSTRAINT "PK_share_tokens" PRIMARY KEY ("token"), CONSTRAINT "CHK_share_tokens_kind" CHECK ("kind" IN ('track', 'cluster')))`,
];

/**
 * Today's keys, copied. The old unique indexes still hold while these run, so no key is there twice;
 * `ON CONFLICT DO NOTHING` only lets a second run pass over the rows the first one copied.
 */
const BACKFILL = [
  `INSERT INTO "member_usernames" ("username", "company_id", "member_id")
     SELECT lower("username"), "company_id", "id" FROM "members" ON CONFLICT DO NOTHING`,
  `INSERT INTO "member_device_ids" ("device_id", "company_id", "member_id")
     SELECT lower("device_id"), "company_id", "id" FROM "members" WHERE "device_id" IS NOT NULL ON CONFLICT DO NOTHING`,
  `INSERT INTO "api_key_prefixes" ("prefix", "company_id", "api_key_id")
     SELECT "prefix", "company_id", "id" FROM "api_keys" ON CONFLICT DO NOTHING`,
  `INSERT INTO "share_tokens" ("token", "company_id", "kind")
     SELECT "token", "company_id", 'track' FROM "track_shares" ON CONFLICT DO NOTHING`,
  `INSERT INTO "share_tokens" ("token", "company_id", "kind")
     SELECT "token", "company_id", 'cluster' FROM "cluster_maps" ON CONFLICT DO NOTHING`,
];

/**
 * `CREATE UNIQUE INDEX CONCURRENTLY name ON def`, unless a valid index of that name is there (a run
 * that got further before); an invalid one (a failed concurrent build) is dropped first.
 */
async function buildIndex(q: QueryRunner, name: string, def: string): Promise<void> {
  const [idx] = (await q.query(
    `SELECT i.indisvalid AS valid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relname = $1`,
    [name],
  )) as Array<{ valid: boolean }>;
  if (idx?.valid) return;
  if (idx) await q.query(`DROP INDEX CONCURRENTLY "${name}"`);
  await q.query(`CREATE UNIQUE INDEX CONCURRENTLY "${name}" ON ${def}`);
}

/**
 * Makes the unique index `to` the primary key of `table` in place of the constraint `from`, in one
 * statement (the table's lock is held only for the catalog change); nothing when `from` is gone (done
 * by a run before).
 */
async function swapPrimaryKey(q: QueryRunner, table: string, from: string, to: string): Promise<void> {
  const [pk] = (await q.query(`SELECT 1 FROM pg_constraint WHERE conname = $1 AND conrelid = $2::regclass AND contype = 'p'`, [
    from,
    `"${table}"`,
  ])) as unknown[];
  if (!pk) return;
  await q.query(`ALTER TABLE "${table}" DROP CONSTRAINT "${from}", ADD CONSTRAINT "${to}" PRIMARY KEY USING INDEX "${to}"`);
}
