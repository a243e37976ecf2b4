import { AppConfig, loadConfig, QueueName, TaskPayloads, TaskProducer, upsertJobSchedulers } from '@app/core';
import { MembersService } from '@app/members';
import { ReportRetentionService } from '@app/reports';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';

type MaintenanceTask = {
  [T in keyof TaskPayloads['maintenance']]: Job<TaskPayloads['maintenance'][T], unknown, T>;
}[keyof TaskPayloads['maintenance']];

/**
 * ms a BullMQ worker waits before trying again after a Redis connection error in its loop (a fetch, a
 * task's completion): BullMQ's `runRetryDelay`, 15 s by default. That wait cannot be cut short — a
 * worker closed during it (a SIGTERM while Redis is away) waited it out whole: a stop held 15 s after
 * everything else had ended (docs/faults.md) — and it also delays taking tasks again once Redis is back.
 * The retried command waits in the connection's offline queue while Redis is away, so a shorter wait
 * costs one queued command per worker per second, nothing more.
 */
export const RUN_RETRY_DELAY_MS = 1_000;

/** BullMQ worker options from the environment (lock and stalled-check intervals, ms; the retry wait), one task at a time: every processor's base. */
export function workerOptions() {
  const config = loadConfig();
  return { lockDuration: config.QUEUE_LOCK_MS, stalledInterval: config.QUEUE_LOCK_MS, concurrency: 1, runRetryDelay: RUN_RETRY_DELAY_MS };
}

/** Housekeeping tasks; schedules its repeatable ones at start-up (idempotent upsert). */
@Processor(QueueName.Maintenance, workerOptions())
export class MaintenanceProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('Maintenance');

  constructor(
    private readonly members: MembersService,
    private readonly producer: TaskProducer,
    private readonly reportRetention: ReportRetentionService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    // one scheduler id each: every worker upserts the same schedules, so each runs once per period in
    // total. Not awaited: the start must finish with Redis away (upsertJobSchedulers says why)
    void upsertJobSchedulers(
      this.producer.queue(QueueName.Maintenance),
      [
        { id: 'prune-invitations', repeat: { every: 3_600_000 }, task: { name: 'prune-invitations', data: {} } },
        { id: 'prune-reports', repeat: { every: 600_000 }, task: { name: 'prune-reports', data: {} } },
      ],
      this.logger,
    );
  }

  async process(task: MaintenanceTask): Promise<unknown> {
    switch (task.name) {
      case 'prune-invitations': {
        const pruned = await this.members.pruneExpiredInvitations(task.data.before ?? Date.now());
        if (pruned) this.logger.log(`pruned ${pruned} expired invitations`);
        return { pruned };
      }
      case 'prune-reports': {
        const before = task.data.before ?? Date.now() - this.config.REPORT_RETENTION_HOURS * 3_600_000;
        const pruned = await this.reportRetention.prune(before);
        if (pruned.chunks || pruned.runs) this.logger.log(`pruned ${pruned.runs} reports (${pruned.chunks} chunks) past retention`);
        return pruned;
      }
    }
  }
}
