import { AppConfig, QueueName, TaskPayloads, TaskProducer, upsertJobSchedulers } from '@app/core';
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
  private scheduling?: Promise<void>;

  constructor(
    private readonly clock: AlertsClock,
    private readonly producer: TaskProducer,
    private readonly config: AppConfig,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.schedule(), this.config.ALERTS_TICK_MS);
    // not awaited: the start must finish with Redis away (upsertJobSchedulers says why)
    this.schedule();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Upserts the tick's schedule, unless an upsert is still pending (Redis away: it waits for Redis, one at a time). */
  private schedule(): void {
    this.scheduling ??= upsertJobSchedulers(
      this.producer.queue(QueueName.Alerts),
      [{ id: ALERTS_TICK_SCHEDULER, repeat: { every: this.config.ALERTS_TICK_MS }, task: { name: 'tick', data: {} } }],
      this.logger,
    ).finally(() => (this.scheduling = undefined));
  }

  async process(task: AlertsTask): Promise<unknown> {
    switch (task.name) {
      case 'tick':
        return this.clock.tick(task.data.now ?? Date.now());
    }
  }
}
