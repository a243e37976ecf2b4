import { DataSource, EntityManager } from 'typeorm';

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
