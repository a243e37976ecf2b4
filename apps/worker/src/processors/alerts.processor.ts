import { AppConfig, QueueName, TaskPayloads, TaskProducer } from '@app/core';
import { AlertsClock } from '@app/alerts';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { workerOptions } from './maintenance.processor';

type AlertsTask = {
  [T in keyof TaskPayloads['alerts']]: Job<TaskPayloads['alerts'][T], unknown, T>;
}[keyof TaskPayloads['alerts']];

/** The scheduler id every worker upserts: one schedule in total, however many workers. */
export const ALERTS_TICK_SCHEDULER = 'alerts-tick';

/**
 * The Alerts queue: `tick` evaluates the time-driven rules ({@link AlertsClock}) at the payload's
 * `now` (tests) or the clock. The schedule lives in Redis, so every worker re-upserts it on a timer
 * of its own (like the webhook reconciler): a Redis that came back empty gets it back within one
 * period, and the tick's lookback fires what the gap missed.
 */
@Processor(QueueName.Alerts, workerOptions())
export class AlertsProcessor extends WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Alerts');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly clock: AlertsClock,
    private readonly producer: TaskProducer,
    private readonly config: AppConfig,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    this.timer = setInterval(() => void this.schedule(), this.config.ALERTS_TICK_MS);
    await this.schedule();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async schedule(): Promise<void> {
    try {
      await this.producer
        .queue(QueueName.Alerts)
        .upsertJobScheduler(ALERTS_TICK_SCHEDULER, { every: this.config.ALERTS_TICK_MS }, { name: 'tick', data: {} });
    } catch (err) {
      this.logger.warn(`could not schedule the alerts tick: ${(err as Error).message}`);
    }
  }

  async process(task: AlertsTask): Promise<unknown> {
    switch (task.name) {
      case 'tick':
        return this.clock.tick(task.data.now ?? Date.now());
    }
  }
}
