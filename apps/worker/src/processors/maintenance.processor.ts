import { AppConfig, loadConfig, QueueName, TaskPayloads, TaskProducer } from '@app/core';
import { MembersService } from '@app/members';
import { ReportRetentionService } from '@app/reports';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';

type MaintenanceTask = {
  [T in keyof TaskPayloads['maintenance']]: Job<TaskPayloads['maintenance'][T], unknown, T>;
}[keyof TaskPayloads['maintenance']];

/** BullMQ worker options from the environment (lock and stalled-check intervals, ms). */
export function workerOptions() {
  const config = loadConfig();
  return { lockDuration: config.QUEUE_LOCK_MS, stalledInterval: config.QUEUE_LOCK_MS, concurrency: 1 };
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

  async onApplicationBootstrap(): Promise<void> {
    const queue = this.producer.queue(QueueName.Maintenance);
    // one scheduler id: every worker upserts the same schedule, so it runs once an hour in total
    await queue.upsertJobScheduler('prune-invitations', { every: 3_600_000 }, { name: 'prune-invitations', data: {} });
    await queue.upsertJobScheduler('prune-reports', { every: 600_000 }, { name: 'prune-reports', data: {} });
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
