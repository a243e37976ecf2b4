import { Client } from 'pg';

/**
 * Creates the database named in `databaseUrl` if it does not exist, connecting to the server's
 * `postgres` maintenance database. Safe to run concurrently (a racing CREATE is ignored).
 * @returns true when the database was created.
 */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[A-Za-z0-9_]{1,63}$/.test(name)) {
    throw new Error(`DATABASE_URL: database name "${name}" must be 1-63 of A-Z a-z 0-9 _`);
  }
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === '42P04') return false; // created by a racing process
      throw err;
    }
  } finally {
    await client.end();
  }
}
