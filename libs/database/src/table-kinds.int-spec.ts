import { newId } from '@app/core';
import { DataSource } from 'typeorm';
import { openIntegrationDb } from '@test/support/integration';
import { checkDistribution, TABLE_KINDS, TableKinds } from './table-kinds';
import { TABLE_OWNERS } from './table-owners';

/**
 * `scripts/check-distribution`'s rules (`checkDistribution`) on fixtures: a scratch schema of the
 * run's database holding tables that break each rule, and one that follows them all.
 */
describe('distribution check (table-kinds.json)', () => {
  let ds: DataSource;
  const schemas: string[] = [];
  beforeAll(async () => (ds = await openIntegrationDb()));
  afterAll(async () => {
    for (const s of schemas) await ds.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await ds.destroy();
  });

  /** A fresh schema made by `ddl` (`$s` stands for its name). */
  async function scratch(ddl: string): Promise<string> {
    const s = `distcheck_${newId().toLowerCase()}`;
    schemas.push(s);
    await ds.query(`CREATE SCHEMA "${s}"`);
    await ds.query(ddl.replace(/\$s/g, `"${s}"`));
    return s;
  }
  const check = (kinds: TableKinds, schema: string) => checkDistribution((sql, params) => ds.query(sql, params), kinds, schema);

  const FOLLOWS = `
    CREATE TABLE $s.companies (id varchar PRIMARY KEY, name varchar NOT NULL);
    CREATE TABLE $s.jobs (company_id varchar NOT NULL, id varchar NOT NULL, uid varchar, PRIMARY KEY (company_id, id));
    CREATE INDEX ON $s.jobs (id);
    CREATE UNIQUE INDEX ON $s.jobs (company_id, uid);
    CREATE TABLE $s.checkins (company_id varchar NOT NULL, id varchar NOT NULL, job_id varchar, PRIMARY KEY (company_id, id),
                              FOREIGN KEY (company_id, job_id) REFERENCES $s.jobs (company_id, id));
    CREATE TABLE $s.fixes (company_id varchar NOT NULL, member_id varchar NOT NULL, ts bigint NOT NULL,
                           PRIMARY KEY (company_id, member_id, ts)) PARTITION BY RANGE (ts);
    CREATE TABLE $s.fixes_p202601 PARTITION OF $s.fixes FOR VALUES FROM (0) TO (100);
    CREATE TABLE $s.heartbeats (id varchar PRIMARY KEY, seen_at bigint NOT NULL);
    CREATE TABLE $s.member_usernames (username varchar PRIMARY KEY, company_id varchar NOT NULL, member_id varchar NOT NULL,
                                      created_at bigint NOT NULL);`;
  const FOLLOWS_KINDS: TableKinds = {
    perCompany: { companies: 'id', jobs: 'company_id', checkins: 'company_id', fixes: 'company_id' },
    reference: { heartbeats: 'fixture' },
    globalLookups: { member_usernames: 'fixture' },
    external: {},
  };

  it('passes a schema that follows every rule (partitions count as their parent)', async () => {
    const s = await scratch(FOLLOWS);
    expect(await check(FOLLOWS_KINDS, s)).toEqual([]);
  });

  it('fails a schema that breaks each rule, naming the table and the rule', async () => {
    const s = await scratch(`
      CREATE TABLE $s.companies (id varchar PRIMARY KEY);
      CREATE TABLE $s.jobs (company_id varchar NOT NULL, id varchar PRIMARY KEY, uid varchar);
      CREATE UNIQUE INDEX jobs_uid ON $s.jobs (uid, company_id);
      CREATE TABLE $s.members (company_id varchar NOT NULL, id varchar NOT NULL, username varchar NOT NULL, PRIMARY KEY (company_id, id));
      CREATE UNIQUE INDEX members_username ON $s.members (lower(username));
      CREATE TABLE $s.notes (company_id varchar, id varchar NOT NULL, job_id varchar);
      CREATE TABLE $s.checkins (company_id varchar NOT NULL, id varchar NOT NULL, job_id varchar NOT NULL, PRIMARY KEY (company_id, id));
      ALTER TABLE $s.checkins ADD CONSTRAINT checkins_job FOREIGN KEY (job_id) REFERENCES $s.jobs (id);
      CREATE TABLE $s.unlisted (id varchar PRIMARY KEY);
      CREATE TABLE $s.heartbeats (id varchar PRIMARY KEY, company_id varchar);
      CREATE TABLE $s.member_usernames (username varchar PRIMARY KEY, company_id varchar NOT NULL, member_id varchar NOT NULL,
                                        name varchar, role varchar);
      CREATE TABLE $s.share_tokens (company_id varchar NOT NULL, token varchar NOT NULL, id varchar NOT NULL, PRIMARY KEY (company_id, token));`);
    const violations = await check(
      {
        perCompany: {
          companies: 'id',
          jobs: 'company_id',
          members: 'company_id',
          notes: 'company_id',
          checkins: 'company_id',
          zones: 'company_id',
        },
        reference: { heartbeats: 'fixture' },
        globalLookups: { member_usernames: 'fixture', share_tokens: 'fixture', jobs: 'listed twice' },
        external: {},
      },
      s,
    );
    expect(violations.map((v) => `${v.table}: ${v.rule}`)).toEqual([
      'checkins: foreign key checkins_job (job_id) → jobs (id) does not pair company_id with jobs.company_id',
      "heartbeats: reference table has a company_id column: a table of one company's rows is per-company",
      'jobs: listed as both per-company and global lookup in table-kinds.json',
      'jobs: primary key jobs_pkey (id) does not lead with company_id',
      'jobs: unique index jobs_uid (uid, company_id) does not lead with company_id',
      "member_usernames: global lookup is too wide: columns member_id, name, role where only the row's id belongs (beside the key, company_id and created_at)",
      'members: unique index members_username (<expression>) does not lead with company_id',
      'notes: per-company table has no primary key',
      "notes: per-company table's company_id is nullable",
      "share_tokens: global lookup is too wide: columns token, id where only the row's id belongs (beside the key, company_id and created_at)",
      "share_tokens: global lookup's primary key must be its one key column, not (company_id, token)",
      'unlisted: not listed in table-kinds.json (per-company, reference, global lookup or external)',
      `zones: listed as per-company in table-kinds.json but not in schema "${s}"`,
    ]);
  });

  it('a foreign key pairing the distribution columns passes; one from a reference table to a per-company table fails', async () => {
    const s = await scratch(`${FOLLOWS}
      CREATE TABLE $s.settings (id varchar PRIMARY KEY, job_company varchar, job_id varchar,
                                CONSTRAINT settings_job FOREIGN KEY (job_company, job_id) REFERENCES $s.jobs (company_id, id));`);
    expect(await check({ ...FOLLOWS_KINDS, reference: { ...FOLLOWS_KINDS.reference, settings: 'fixture' } }, s)).toEqual([
      { table: 'settings', rule: 'foreign key settings_job from a reference table references jobs, which is not a reference table' },
    ]);
  });

  it('lists every table of table-owners.json in one kind', () => {
    const listed = new Set([
      ...Object.keys(TABLE_KINDS.perCompany),
      ...Object.keys(TABLE_KINDS.reference),
      ...Object.keys(TABLE_KINDS.globalLookups),
      ...Object.keys(TABLE_KINDS.external),
    ]);
    expect(Object.keys(TABLE_OWNERS).filter((t) => !listed.has(t))).toEqual([]);
  });
});
