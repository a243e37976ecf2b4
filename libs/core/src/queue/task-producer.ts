import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import { QueueName, TaskName, TaskPayload } from './queues';

/** The one producer: adds typed tasks to the queues with the defaults set on the queue. */
@Injectable()
export class TaskProducer {
  private readonly queues: Record<QueueName, Queue>;
  private readonly logger = new Logger('Queues');
  private lastErrorLog = 0;

  constructor(
    @InjectQueue(QueueName.Maintenance) maintenance: Queue,
    @InjectQueue(QueueName.WebhookDelivery) webhookDelivery: Queue,
    @InjectQueue(QueueName.Reports) reports: Queue,
    @InjectQueue(QueueName.Dispatch) dispatch: Queue,
  ) {
    this.queues = {
      [QueueName.Maintenance]: maintenance,
      [QueueName.WebhookDelivery]: webhookDelivery,
      [QueueName.Reports]: reports,
      [QueueName.Dispatch]: dispatch,
    };
    // connection errors while Redis is away: logged at most every 30 s instead of a stack per retry
    for (const queue of Object.values(this.queues)) {
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
    await this.queues[queue].add(task, payload, opts);
  }

  /** Adds several tasks to one queue in one round trip. */
  async addBulk<Q extends QueueName, T extends TaskName<Q>>(
    queue: Q,
    tasks: Array<{ name: T; data: TaskPayload<Q, T>; opts?: JobsOptions }>,
  ): Promise<void> {
    if (tasks.length) await this.queues[queue].addBulk(tasks);
  }

  /** The queue objects, for health reporting and (later) the dashboard. */
  all(): Queue[] {
    return Object.values(this.queues);
  }
}
