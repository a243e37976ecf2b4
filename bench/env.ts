/**
 * The benchmark's environment, set before any app module loads (import this first). The run gets a
 * database and a queue prefix of its own (`fieldwork_bench_<pid>`), on the PostgreSQL server of
 * `BENCH_DATABASE_SERVER_URL`, else of `DATABASE_URL`, else 127.0.0.1:5432.
 */
function serverUrl(): string {
  const explicit = process.env.BENCH_DATABASE_SERVER_URL;
  if (explicit) return explicit.replace(/\/+$/, '');
  if (process.env.DATABASE_URL) {
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = '';
    return u.toString().replace(/\/+$/, '');
  }
  return 'postgres://postgres@127.0.0.1:5432';
}

export const DB_NAME = `fieldwork_bench_${process.pid}`;
export const SERVER_URL = serverUrl();
export const DATABASE_URL = `${SERVER_URL}/${DB_NAME}`;
/** Connections in each pool: the api's (DATABASE_POOL_SIZE) and the baselines' `pg.Pool`. */
export const POOL_SIZE = 10;

process.env.DATABASE_URL = DATABASE_URL;
process.env.QUEUE_PREFIX = `fieldwork-bench-${process.pid}`;
process.env.NODE_ENV = 'production';
process.env.DATABASE_POOL_SIZE = String(POOL_SIZE);
process.env.LOG_LEVEL = 'error';
// members are created with a password; the production argon2 cost would only slow the set-up
process.env.PASSWORD_HASH_MEMORY_KIB = '1024';
process.env.PASSWORD_HASH_TIME_COST = '1';
// the load test sends thousands of requests per minute with one key
process.env.RATE_LIMIT_PER_MINUTE = '100000000';
process.env.API_KEY_PEPPER ??= 'fieldwork-benchmark-pepper-0123456789';
