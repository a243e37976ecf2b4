import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

/** Anything raw SQL can run on: the data source (own connection) or a transaction's manager. */
export type Queryable = Pick<DataSource, 'query'> | Pick<EntityManager, 'query'>;

/**
 * Runs one raw SQL statement and types its rows: the one helper for hand-written SQL in the
 * repositories (STYLE.md, "From our own house"). `$1…$n` parameters, never string interpolation of
 * values.
 * @returns the rows as `T[]` (for `UPDATE … RETURNING` too; a statement without rows gives `[]`).
 */
export async function query<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  const rows: unknown = await db.query(sql, params);
  // TypeORM answers UPDATE/DELETE as [rows, count] on postgres
  if (Array.isArray(rows) && rows.length === 2 && Array.isArray(rows[0]) && typeof rows[1] === 'number') return rows[0] as T[];
  return (Array.isArray(rows) ? rows : []) as T[];
}

/** {@link query}, first row or `undefined`. */
export async function queryOne<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T | undefined> {
  return (await query<T>(db, sql, params))[0];
}

/**
 * {@link query} for a hot read or single-statement write outside any transaction, as a **named
 * prepared statement** on the data source's own `pg` pool (skipping TypeORM's query runner):
 * PostgreSQL parses `sql` once per connection and, once its generic plan costs no more than the
 * custom ones (`plan_cache_mode = auto`: after five runs), stops planning it on every call. `name`
 * must always stand for the same text (a connection keeps the first text it saw under a name).
 * Behind a pooler in transaction mode (PgBouncer before 1.21) named statements break; the
 * deployment here connects to PostgreSQL directly (docker-compose.yml).
 * @returns the rows as `T[]`
 */
export async function preparedQuery<T>(dataSource: DataSource, name: string, sql: string, params: unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  return (await pool.query({ name, text: sql, values: params })).rows as T[];
}

/**
 * {@link query} for a read outside any transaction, straight on the data source's own `pg` pool
 * (skipping TypeORM's query runner: its per-call set-up and result wrapping showed in getjobs'
 * CPU profile), as an unnamed statement — for SQL whose text varies with the filters, where a
 * named statement ({@link preparedQuery}) would need a name per text.
 * @returns the rows as `T[]`
 */
export async function poolQuery<T>(dataSource: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  return (await pool.query(sql, params)).rows as T[];
}

/**
 * {@link query} as a **named prepared statement** on the connection `db` runs on: inside a
 * transaction (`db` a transaction's manager), on that transaction's own `pg` client; otherwise on
 * the data source's pool ({@link preparedQuery}). For the hot statements of a transaction that run
 * many times a second (the worker's geofence pass): an unnamed statement is parsed and planned on
 * every run — in the mixed-load profile, planning the pass's statements cost PostgreSQL about 3× their
 * execution (bench/RESULTS.md "mixed") — while a named one is parsed once per connection and, with
 * `plan_cache_mode = auto`, runs its generic plan once that costs no more than the custom ones.
 * `name` must always stand for the same text (a connection keeps the first text it saw under a name).
 * Errors are `pg`'s own (`code` as in TypeORM's `QueryFailedError`, which copies it).
 * @returns the rows as `T[]`
 */
export async function namedQuery<T>(db: Queryable, name: string, sql: string, params: unknown[]): Promise<T[]> {
  const client = await transactionClient(db);
  if (client) return (await client.query({ name, text: sql, values: params })).rows as T[];
  if (db instanceof DataSource) return preparedQuery<T>(db, name, sql, params);
  if (db instanceof EntityManager && !db.queryRunner) return preparedQuery<T>(db.connection, name, sql, params);
  return query<T>(db, sql, params);
}

/**
 * The `pg` client of the transaction `db` runs in (a manager with a live query runner), if any:
 * `connect()` answers a connected runner's client as it is (TypeORM's public way to it).
 */
async function transactionClient(db: Queryable): Promise<PoolClient | undefined> {
  if (!(db instanceof EntityManager)) return undefined;
  const runner = db.queryRunner as PostgresQueryRunner | undefined;
  if (!runner || runner.isReleased || !runner.isTransactionActive) return undefined;
  return (await runner.connect()) as PoolClient;
}

/** The most statement texts {@link shapeQuery} names in one process; texts past it run unnamed. */
export const MAX_NAMED_SHAPES = 64;
/** The texts {@link shapeQuery} has named in this process: text → statement name. */
const shapeNames = new Map<string, string>();

/**
 * {@link poolQuery} for a read whose text is built from filters (one text per combination of the
 * filters given, the values always parameters): each text is a **named prepared statement** on the
 * pool ({@link preparedQuery}, named by a hash of the text), so PostgreSQL parses it once per
 * connection and, once its generic plan costs no more than the custom ones, stops planning it —
 * getjobs' read was planned on every call at 0.9 ms against 0.3 ms of running it (bench/RESULTS.md
 * "mixed"). The first {@link MAX_NAMED_SHAPES} texts a process sees are named, later ones run
 * unnamed, so a connection never holds more prepared statements than that for these reads however
 * many filter combinations clients send.
 * @returns the rows as `T[]`
 */
export async function shapeQuery<T>(dataSource: DataSource, sql: string, params: unknown[]): Promise<T[]> {
  let name = shapeNames.get(sql);
  if (name === undefined && shapeNames.size < MAX_NAMED_SHAPES) {
    name = `fieldwork_shape_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    shapeNames.set(sql, name);
  }
  return name === undefined ? poolQuery<T>(dataSource, sql, params) : preparedQuery<T>(dataSource, name, sql, params);
}
