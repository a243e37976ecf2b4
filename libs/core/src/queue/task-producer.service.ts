import { getQueueToken } from '@nestjs/bullmq';
import { FactoryProvider, Logger } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import { ALL_QUEUES, QueueName, TaskName, TaskPayload, taskOptions } from './queues';

/**
 * The one producer: adds typed tasks to the queues, each with its options from `TASK_OPTIONS`
 * (queues.ts). It holds every queue of `ALL_QUEUES`, given by {@link TASK_PRODUCER_PROVIDER}, so a
 * new queue needs no change here.
 */
export class TaskProducer {
  private readonly queues = new Map<QueueName, Queue>();
  private readonly logger = new Logger('Queues');
  private lastErrorLog = 0;

  /** @param queues the registered BullMQ queues, one per name of `ALL_QUEUES` */
  constructor(queues: Queue[]) {
    for (const queue of queues) {
      this.queues.set(queue.name as QueueName, queue);
      // connection errors while Redis is away: logged at most every 30 s instead of a stack per retry
      queue.on('error', (err: Error) => {
        if (Date.now() - this.lastErrorLog < 30_000) return;
        this.lastErrorLog = Date.now();
        this.logger.warn(`queue ${queue.name}: ${err.message}`);
      });
    }
  }

  /**
   * Adds one task. Pass a stable `opts.jobId` to dedupe (BullMQ ignores an add whose id exists).
   */
  async add<Q extends QueueName, T extends TaskName<Q>>(queue: Q, task: T, payload: TaskPayload<Q, T>, opts?: JobsOptions): Promise<void> {
    await this.queue(queue).add(task, payload, { ...taskOptions(queue, task), ...opts });
  }

  /** Adds several tasks to one queue in one round trip. */
  async addBulk<Q extends QueueName, T extends TaskName<Q>>(
    queue: Q,
    tasks: Array<{ name: T; data: TaskPayload<Q, T>; opts?: JobsOptions }>,
  ): Promise<void> {
    if (!tasks.length) return;
    await this.queue(queue).addBulk(tasks.map((t) => ({ ...t, opts: { ...taskOptions(queue, t.name), ...t.opts } })));
  }

  /** One queue object (for its schedulers). */
  queue(name: QueueName): Queue {
    const queue = this.queues.get(name);
    if (!queue) throw new Error(`queue ${name} is not registered`);
    return queue;
  }

  /** The queue objects, for health reporting and the dashboard. */
  all(): Queue[] {
    return [...this.queues.values()];
  }
}

/** {@link TaskProducer} over every queue of `ALL_QUEUES` (registered by `QueueModule`). */
export const TASK_PRODUCER_PROVIDER: FactoryProvider<TaskProducer> = {
  provide: TaskProducer,
  inject: ALL_QUEUES.map((name) => getQueueToken(name)),
  useFactory: (...queues: Queue[]) => new TaskProducer(queues),
};
