import { QueueName, TaskPayloads } from '@app/core';
import { FixConsumerRegistry } from '@app/locations';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Job } from 'bullmq';
import { workerOptions } from './maintenance.processor';

type TracksTask = Job<TaskPayloads['tracks']['build'], unknown, 'build'>;

/**
 * The Tracks queue: `build` runs the fix consumers of the `tracks` task (TrackBuilder) for one
 * member. One task at a time per worker: a rebuild re-reads the member's open track, so under a
 * flood of fixes track building waits (its tasks are deduplicated per member, so the queue stays
 * bounded) rather than taking the database and CPU from geofencing's check-ins (the Locations queue).
 */
@Processor(QueueName.Tracks, { ...workerOptions(), concurrency: 1 })
export class TracksProcessor extends WorkerHost {
  constructor(private readonly consumers: FixConsumerRegistry) {
    super();
  }

  async process(task: TracksTask): Promise<unknown> {
    const consumers = this.consumers.all('tracks');
    for (const consumer of consumers) await consumer.onFixes(task.data);
    const { memberId, fromTs, toTs } = task.data;
    return { consumers: consumers.length, memberId, fromTs, toTs };
  }
}
