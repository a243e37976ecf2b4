import { AppConfig, loadConfig, MicroBatcher, QueueName, TaskPayloads, TaskProducer } from '@app/core';
import { FixConsumerRegistry, FixesTask, LocationRetentionService } from '@app/locations';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { workerOptions } from './maintenance.processor';

type LocationsTask = {
  [T in keyof TaskPayloads['locations']]: Job<TaskPayloads['locations'][T], unknown, T>;
}[keyof TaskPayloads['locations']];

/** ms between two `partitions` runs. */
export const PARTITIONS_EVERY_MS = 3_600_000;

/** `fixes` tasks a worker holds at once: every pass's worth (the BullMQ worker's concurrency). */
export function locationsTaskConcurrency(config: Pick<AppConfig, 'LOCATIONS_CONCURRENCY' | 'LOCATIONS_BATCH_SIZE'>): number {
  return config.LOCATIONS_CONCURRENCY * config.LOCATIONS_BATCH_SIZE;
}

/**
 * The Locations queue: `fixes` tasks go through a {@link MicroBatcher} — at most
 * `LOCATIONS_CONCURRENCY` passes at once, the tasks arriving while all are busy gathered (up to
 * `LOCATIONS_BATCH_SIZE`) into the next — and a pass runs every registered fix consumer of that task
 * at once over its tasks (geofencing, whose one pass also runs its participants, the alert rules, in
 * the same transaction over the same read of the fixes) — each consumer keeps its own state in its
 * own transaction (track building runs from the Tracks queue: {@link TracksProcessor}); one that
 * throws fails the pass once all have finished, its tasks are then run one by one, and those that
 * fail alone fail and are retried by BullMQ (consumers are idempotent); `partitions` (hourly,
 * scheduled here) keeps the fix partitions and the history's retention
 * ({@link LocationRetentionService}).
 */
@Processor(QueueName.Locations, { ...workerOptions(), concurrency: locationsTaskConcurrency(loadConfig()) })
export class LocationsProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('Locations');
  private readonly passes: MicroBatcher<FixesTask>;

  constructor(
    private readonly consumers: FixConsumerRegistry,
    private readonly retention: LocationRetentionService,
    private readonly producer: TaskProducer,
    config: AppConfig,
  ) {
    super();
    this.passes = new MicroBatcher((tasks) => this.pass(tasks), {
      maxSize: config.LOCATIONS_BATCH_SIZE,
      maxInFlight: config.LOCATIONS_CONCURRENCY,
    });
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
        await this.passes.submit(task.data);
        const { memberId, fromTs, toTs } = task.data;
        return { consumers: this.consumers.all('fixes').length, memberId, fromTs, toTs };
      }
      case 'partitions': {
        const outcome = await this.retention.run();
        const d = outcome.deleted;
        if (d.tracks || d.checkins || d.clockEvents) this.logger.log(`history pruned: ${JSON.stringify(d)}`);
        return outcome;
      }
    }
  }

  /** One pass over `tasks`: every `fixes` consumer at once; any failure fails the pass after all finished. */
  private async pass(tasks: FixesTask[]): Promise<void> {
    const consumers = this.consumers.all('fixes');
    // independent (own state, own transaction): run at once, so a pass holds its slot for the
    // slowest consumer's round trips, not their sum
    const outcomes = await Promise.allSettled(
      consumers.map((c) => (c.onFixesBatch ? c.onFixesBatch(tasks) : Promise.all(tasks.map((t) => c.onFixes(t))))),
    );
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
  }
}
