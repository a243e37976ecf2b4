import pg from 'pg';
import { TestApi } from '../test/support/api';

/**
 * What `bench/main.ts` hands a part run alone (`BENCH_ONLY=<part>`): the in-process api, a `pg.Pool` on
 * the run's database, the server's version and the load average at the start (for the table's
 * heading), and the progress logger. A part answers how many of its rows failed their target.
 */
export interface PartContext {
  api: TestApi;
  pool: pg.Pool;
  serverVersion: string;
  loadAtStart: string;
  log: (line: string) => void;
}
