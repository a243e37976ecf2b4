import { QueueName, TaskPayloads, TaskProducer } from '@app/core';
import { FixConsumerRegistry, LocationRetentionService } from '@app/locations';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { workerOptions } from './maintenance.processor';

type LocationsTask = {
  [T in keyof TaskPayloads['locations']]: Job<TaskPayloads['locations'][T], unknown, T>;
}[keyof TaskPayloads['locations']];

/** ms between two `partitions` runs. */
export const PARTITIONS_EVERY_MS = 3_600_000;

/**
 * The Locations queue: `fixes` runs every registered fix consumer of that task (geofencing) in
 * registration order (track building runs from the Tracks queue: {@link TracksProcessor}) — one that throws fails the task, which BullMQ retries (consumers are
 * idempotent); `partitions` (hourly, scheduled here) keeps the fix partitions and the history's
 * retention ({@link LocationRetentionService}).
 */
@Processor(QueueName.Locations, { ...workerOptions(), concurrency: 8 })
export class LocationsProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('Locations');

  constructor(
    private readonly consumers: FixConsumerRegistry,
    private readonly retention: LocationRetentionService,
    private readonly producer: TaskProducer,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    // one scheduler id: every worker upserts the same schedule, so it runs once an hour in total
    await this.producer
      .queue(QueueName.Locations)
      .upsertJobScheduler('partitions', { every: PARTITIONS_EVERY_MS, immediately: true }, { name: 'partitions', data: {} });
  }

  async process(task: LocationsTask): Promise<unknown> {
    switch (task.name) {
      case 'fixes': {
        const consumers = this.consumers.all('fixes');
        for (const consumer of consumers) await consumer.onFixes(task.data);
        const { memberId, fromTs, toTs } = task.data;
        return { consumers: consumers.length, memberId, fromTs, toTs };
      }
      case 'partitions': {
        const outcome = await this.retention.run();
        const d = outcome.deleted;
        if (d.tracks || d.checkins || d.clockEvents) this.logger.log(`history pruned: ${JSON.stringify(d)}`);
        return outcome;
      }
    }
  }
}
