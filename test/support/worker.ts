import { Child, spawnNode, waitFor } from './proc-child';

/** Anything that runs SQL and answers rows: a TypeORM DataSource or a pg Pool/Client's `query`. */
type Query = (sql: string, params: unknown[]) => Promise<unknown[] | { rows: unknown[] }>;

/**
 * Starts the BUILT worker (`dist/apps/worker/src/main.js`) as a child process with `env` and waits
 * until its heartbeat row is written (its processors are then set up).
 * @throws when no heartbeat of it shows within 30 s.
 */
export async function startWorker(label: string, env: Record<string, string | undefined>, query: Query): Promise<Child> {
  const worker = spawnNode(label, 'dist/apps/worker/src/main.js', env);
  await waitFor(
    `${label} heartbeat`,
    async () => {
      const res = await query(`SELECT 1 FROM worker_heartbeats WHERE id LIKE $1 AND stopped_at IS NULL`, [`%:${worker.pid}:%`]);
      return (Array.isArray(res) ? res : res.rows).length > 0;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  return worker;
}
