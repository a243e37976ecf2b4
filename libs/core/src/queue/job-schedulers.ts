import type { Queue, RepeatOptions } from 'bullmq';

/** One repeatable task kept in a queue: BullMQ's job scheduler `id`, its `repeat` (e.g. `{ every: ms }`) and the task it adds. */
export interface JobSchedule {
  id: string;
  repeat: Omit<RepeatOptions, 'key'>;
  task: { name: string; data: Record<string, unknown> };
}

/**
 * Upserts `schedules` into `queue` (BullMQ `upsertJobScheduler`: idempotent, so every worker upserts
 * the same ids and each schedule exists once in total), one after the other, and resolves when all
 * are stored. Never rejects: a failure is logged on `logger` and the rest are still tried.
 *
 * Call it WITHOUT awaiting it in a start-up hook. With Redis away the upsert waits in the worker
 * connection's offline queue until Redis is back (or the connection is cut at shutdown), and a
 * start-up hook that awaited it would keep the worker from finishing its start: its SIGTERM handling
 * is set up only then, so a SIGTERM meanwhile killed it by the signal's default action, in the middle
 * of its tasks (docs/faults.md, "The whole Redis down at SIGTERM").
 */
export async function upsertJobSchedulers(
  queue: Pick<Queue, 'name' | 'upsertJobScheduler'>,
  schedules: JobSchedule[],
  logger: { warn(message: string): void },
): Promise<void> {
  for (const { id, repeat, task } of schedules) {
    try {
      await queue.upsertJobScheduler(id, repeat, task);
    } catch (err) {
      logger.warn(`could not schedule ${queue.name} ${id}: ${(err as Error).message}`);
    }
  }
}
