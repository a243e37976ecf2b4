import { loadConfig, QueueName, TaskPayloads, TaskProducer } from '@app/core';
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
 * The Locations queue: `fixes` runs every registered fix consumer of that task at once (geofencing,
 * whose one pass also runs its participants, the alert rules, in the same transaction over the same
 * read of the fixes) — each consumer keeps its own state in its own transaction (track building
 * runs from the Tracks queue: {@link TracksProcessor}); one that throws fails the task once all have
 * finished, and BullMQ retries it (consumers are idempotent); `partitions` (hourly, scheduled here) keeps the fix partitions and the history's
 * retention ({@link LocationRetentionService}).
 */
@Processor(QueueName.Locations, { ...workerOptions(), concurrency: loadConfig().LOCATIONS_CONCURRENCY })
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
        // independent (own state, own transaction): run at once, so a task holds its slot for the
        // slowest consumer's round trips, not their sum; any failure fails the task after all finished
        const outcomes = await Promise.allSettled(consumers.map((consumer) => consumer.onFixes(task.data)));
        const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
        if (failed) throw failed.reason;
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
