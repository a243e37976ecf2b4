import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { JobsOptions, Queue } from 'bullmq';
import { QueueName, TaskName, TaskPayload } from './queues';

/** The one producer: adds typed tasks to the queues with the defaults set on the queue. */
@Injectable()
export class TaskProducer {
  private readonly queues: Record<QueueName, Queue>;

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
  }

  /**
   * Adds one task. Pass a stable `opts.jobId` to dedupe (BullMQ ignores an add whose id exists).
   */
  async add<Q extends QueueName, T extends TaskName<Q>>(
    queue: Q,
    task: T,
    payload: TaskPayload<Q, T>,
    opts?: JobsOptions,
  ): Promise<void> {
    await this.queues[queue].add(task, payload, opts);
  }

  /** The queue objects, for health reporting and (later) the dashboard. */
  all(): Queue[] {
    return Object.values(this.queues);
  }
}
