import { DataSource } from 'typeorm';
import { startApi, TestApi } from './api';
import { dropQueueKeys } from './durability-redis';
import { stopAllChildren } from './proc-child';
import { WebhookReceiver } from './webhook-receiver';
import { startWorker } from './worker';

/** What {@link useWorkerStack} starts: filled in its `beforeAll`. */
export interface WorkerStack {
  api: TestApi;
  db: DataSource;
  receiver: WebhookReceiver;
}

/**
 * Registers the describe block's `beforeAll`/`afterAll` for an e2e test that needs the worker: an
 * in-process api, a webhook receiver on loopback, and the BUILT worker under the queue prefix
 * `prefix` with `workerEnv`; afterwards everything is stopped and the prefix's Redis keys removed.
 * @returns the stack, whose fields are set once `beforeAll` has run.
 */
export function useWorkerStack(prefix: string, workerEnv: Record<string, string>): WorkerStack {
  const stack = {} as WorkerStack;
  beforeAll(async () => {
    stack.api = await startApi();
    stack.db = stack.api.app.get(DataSource);
    stack.receiver = await new WebhookReceiver().start();
    await startWorker('worker', { QUEUE_PREFIX: prefix, ...workerEnv }, (sql, params) => stack.db.query(sql, params));
  }, 60_000);
  afterAll(async () => {
    await stopAllChildren();
    await stack.receiver?.close();
    await stack.api?.close();
    await dropQueueKeys(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix);
  });
  return stack;
}
