import { AppConfig, loadConfig, QueueName, TaskPayloads, TaskProducer, upsertJobSchedulers } from '@app/core';
import { FixPasses, LocationRetentionService } from '@app/locations';
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
 * The Locations queue: `batch` tasks (one api process's window of members with new fixes) and the
 * older one-member `fixes` tasks run in the fix consumers' passes ({@link FixPasses}: batched,
 * every consumer at once); `partitions` (hourly, scheduled here) keeps the fix partitions and the
 * history's retention ({@link LocationRetentionService}). Track building runs from the Tracks queue
 * ({@link TracksProcessor}).
 */
@Processor(QueueName.Locations, { ...workerOptions(), concurrency: locationsTaskConcurrency(loadConfig()) })
export class LocationsProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('Locations');

  constructor(
    private readonly passes: FixPasses,
    private readonly retention: LocationRetentionService,
    private readonly producer: TaskProducer,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    // one scheduler id: every worker upserts the same schedule, so it runs once an hour in total.
    // An `every` schedule's first run is at once already (BullMQ warns that `immediately` adds nothing).
    // Not awaited: the start must finish with Redis away (upsertJobSchedulers says why)
    void upsertJobSchedulers(
      this.producer.queue(QueueName.Locations),
      [{ id: 'partitions', repeat: { every: PARTITIONS_EVERY_MS }, task: { name: 'partitions', data: {} } }],
      this.logger,
    );
  }

  async process(task: LocationsTask): Promise<unknown> {
    switch (task.name) {
      case 'batch': {
        // each member in the next pass with a free slot (a window's members ride together); the task
        // fails once every member's pass finished, so its retry never overlaps a pass still running
        const members = task.data.members;
        const outcomes = await this.passes.runAll(members);
        const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
        if (failed) throw failed.reason;
        return { consumers: this.passes.consumerCount, members: members.map(({ memberId, fromTs, toTs }) => ({ memberId, fromTs, toTs })) };
      }
      case 'fixes': {
        // one member's task, as an api before the `batch` tasks sent it (queued across an upgrade)
        const consumers = await this.passes.run(task.data);
        const { memberId, fromTs, toTs } = task.data;
        return { consumers, memberId, fromTs, toTs };
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
