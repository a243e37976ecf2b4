import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@app/database';
import { openIntegrationDb } from '@test/support/integration';
import { loadConfig } from '../config/load-config';
import { MAX_NAMED_SHAPES, namedQuery, poolQuery, shapeQuery } from './query';

/** The statement names prepared on the session that runs this (its own `pg_prepared_statements`). */
const PREPARED_SQL = `SELECT name FROM pg_prepared_statements WHERE name LIKE 'fieldwork_int_named_%' ORDER BY name`;

describe('namedQuery (PostgreSQL)', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = await openIntegrationDb();
  });
  afterAll(() => ds.destroy());

  it("runs inside a transaction on that transaction's connection, as a named statement of it", async () => {
    const seen = await ds.transaction(async (db) => {
      await db.query(`CREATE TEMP TABLE int_named_q (v int) ON COMMIT DROP`);
      await db.query(`INSERT INTO int_named_q VALUES (41)`);
      // the temp table and its uncommitted row exist on this connection only
      const rows = await namedQuery<{ v: number }>(db, 'fieldwork_int_named_read', `SELECT v + $1::int AS v FROM int_named_q`, [1]);
      const again = await namedQuery<{ v: number }>(db, 'fieldwork_int_named_read', `SELECT v + $1::int AS v FROM int_named_q`, [2]);
      const prepared = await db.query(PREPARED_SQL);
      return { rows, again, prepared: prepared.map((r: { name: string }) => r.name) };
    });
    expect(seen.rows).toEqual([{ v: 42 }]);
    expect(seen.again).toEqual([{ v: 43 }]);
    expect(seen.prepared).toContain('fieldwork_int_named_read');
  });

  it("a failing statement fails the transaction with pg's error code, and the transaction's writes are undone", async () => {
    await ds.query(`CREATE TABLE IF NOT EXISTS int_named_q2 (v int PRIMARY KEY)`);
    await ds.query(`TRUNCATE int_named_q2`);
    const err = await ds
      .transaction(async (db) => {
        await namedQuery(db, 'fieldwork_int_named_ins', `INSERT INTO int_named_q2 VALUES ($1)`, [1]);
        await namedQuery(db, 'fieldwork_int_named_ins', `INSERT INTO int_named_q2 VALUES ($1)`, [1]);
      })
      .catch((e: { code?: string }) => e);
    expect((err as { code?: string }).code).toBe('23505');
    expect(await ds.query(`SELECT count(*)::int AS n FROM int_named_q2`)).toEqual([{ n: 0 }]);
    await ds.query(`DROP TABLE int_named_q2`);
  });

  it('outside a transaction runs on the pool (the data source or its manager)', async () => {
    expect(await namedQuery(ds, 'fieldwork_int_named_pool', `SELECT $1::int AS v`, [7])).toEqual([{ v: 7 }]);
    expect(await namedQuery(ds.manager, 'fieldwork_int_named_pool', `SELECT $1::int AS v`, [8])).toEqual([{ v: 8 }]);
  });

  describe('shapeQuery', () => {
    let one: DataSource;
    beforeAll(async () => {
      // one pooled connection, so its prepared statements are the ones this test reads
      const options = dataSourceOptions(loadConfig());
      one = new DataSource({ ...options, extra: { ...(options.extra as object), max: 1 } } as typeof options);
      await one.initialize();
    });
    afterAll(() => one.destroy());
    const named = async () =>
      (
        await poolQuery<{ name: string; statement: string }>(
          one,
          `SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'fieldwork_shape_%'`,
          [],
        )
      ).map((r) => r.statement);

    it('names each text once (a hash of it), so a text is prepared once per connection, and answers its rows', async () => {
      const text = `SELECT $1::int + n AS v FROM generate_series(1, 3) AS n ORDER BY n LIMIT $2 OFFSET $3 /* shape-a */`;
      expect(await shapeQuery(one, text, [10, 2, 0])).toEqual([{ v: 11 }, { v: 12 }]);
      expect(await shapeQuery(one, text, [20, 2, 1])).toEqual([{ v: 22 }, { v: 23 }]);
      expect((await named()).filter((t) => t === text)).toHaveLength(1);
    });

    it(`names at most ${MAX_NAMED_SHAPES} texts per process; later ones still answer, unnamed`, async () => {
      for (let i = 0; i < MAX_NAMED_SHAPES + 5; i++)
        expect(await shapeQuery(one, `SELECT ${i} AS v /* shape-cap */`, [])).toEqual([{ v: i }]);
      const prepared = await named();
      expect(prepared.length).toBeLessThanOrEqual(MAX_NAMED_SHAPES);
      expect(prepared).not.toContain(`SELECT ${MAX_NAMED_SHAPES + 4} AS v /* shape-cap */`);
    });
  });
});
